/* checks -> on struct pointers, chained, and (*p).m equivalence */
#include <stdio.h>
struct node {
    int val;
    struct node *next;
};
int main(void)
{
    struct node c = { 3, 0 }, b = { 2, &c }, a = { 1, &b };
    struct node *p = &a;
    printf("%d %d %d\n", p->val, p->next->val, p->next->next->val);
    p->next->next->val = 30;
    (*p).val = 10;
    printf("%d %d %d\n", a.val, (*p->next).val, c.val);
    return 0;
}

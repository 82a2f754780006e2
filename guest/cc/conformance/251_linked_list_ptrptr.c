/* checks sorted insertion into a linked list via pointer to pointer */
#include <stdio.h>
#include <stdlib.h>
struct node {
    int v;
    struct node *next;
};
static void insert(struct node **head, int v)
{
    struct node **pp = head;
    while (*pp && (*pp)->v < v)
        pp = &(*pp)->next;
    struct node *n = malloc(sizeof *n);
    n->v = v;
    n->next = *pp;
    *pp = n;
}
int main(void)
{
    struct node *head = NULL;
    int vals[] = { 5, 1, 9, 3, 7, 3 };
    for (int i = 0; i < 6; i++)
        insert(&head, vals[i]);
    for (struct node *p = head; p; p = p->next)
        printf("%d ", p->v);
    printf("\n");
    return 0;
}

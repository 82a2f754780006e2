/* checks a self-referential struct building a linked list on the heap */
#include <stdio.h>
#include <stdlib.h>
struct node {
    int v;
    struct node *next;
};
int main(void)
{
    struct node *head = NULL;
    for (int i = 1; i <= 5; i++) {
        struct node *n = malloc(sizeof *n);
        n->v = i * 3;
        n->next = head;
        head = n;
    }
    for (struct node *p = head; p; p = p->next)
        printf("%d ", p->v);
    printf("\n");
    while (head) {
        struct node *n = head->next;
        free(head);
        head = n;
    }
    return 0;
}

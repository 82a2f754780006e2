/* checks a typedef of an incomplete struct used inside the struct's own definition */
#include <stdio.h>
typedef struct tree Tree;
struct tree {
    int v;
    Tree *l, *r;
};
static int sum(const Tree *t) { return t ? t->v + sum(t->l) + sum(t->r) : 0; }
int main(void)
{
    Tree leaves[2] = { { 2, 0, 0 }, { 3, 0, 0 } };
    Tree root = { 1, &leaves[0], &leaves[1] };
    printf("%d\n", sum(&root));
    return 0;
}

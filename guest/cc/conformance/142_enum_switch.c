/* checks enum values as switch case labels and array sizes */
#include <stdio.h>
typedef enum { OP_ADD, OP_SUB, OP_MUL, OP_COUNT } Op;
static const char *names[OP_COUNT] = { "add", "sub", "mul" };
static int apply(Op op, int a, int b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    default: return 0;
    }
}
int main(void)
{
    for (Op o = OP_ADD; o < OP_COUNT; o++)
        printf("%s=%d ", names[o], apply(o, 7, 3));
    printf("\n");
    return 0;
}

/* checks designated initialisers on globals */
#include <stdio.h>
struct op {
    char sym;
    int prec;
};
struct op ops[4] = { [3] = { '*', 2 }, [1] = { .sym = '+', .prec = 1 } };
int lut[10] = { [9] = 81, [3] = 9 };
int main(void)
{
    printf("%c%d %d %c%d\n", ops[3].sym, ops[3].prec, ops[0].prec, ops[1].sym, ops[1].prec);
    printf("%d %d %d\n", lut[9], lut[3], lut[0]);
    return 0;
}

/* Dense switch statements big enough for jump tables, and fallthrough. */
#include <stdio.h>

static int op(int code, int a, int b)
{
    switch (code) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a & b;
    case 4: return a | b;
    case 5: return a ^ b;
    case 6: return a << (b & 7);
    case 7: return a >> (b & 7);
    case 8: return a > b;
    case 9: return a < b;
    case 10: return a == b;
    case 11: return -a;
    case 12: return ~b;
    case 13: return a * 3 + b;
    case 14: return a * a - b;
    case 15: return (a + b) / 2;
    case 16: return a % 17;
    case 17: return b % 13;
    case 18: return a + 1000;
    case 19: return b - 1000;
    case 20: return a ? b : -b;
    case 21: return a * b * 7;
    case 22: return (a ^ 0x55) + b;
    case 23: return (a | 0x100) - b;
    default: return 12345;
    }
}

static const char *name(unsigned c)
{
    switch (c) {
    case 'a': return "alpha";
    case 'b': return "bravo";
    case 'c': return "charlie";
    case 'd': return "delta";
    case 'e': return "echo";
    case 'f': return "foxtrot";
    case 'g': return "golf";
    case 'h': return "hotel";
    case 'i': return "india";
    case 'j': return "juliett";
    case 'k': return "kilo";
    case 'l': return "lima";
    default: return "?";
    }
}

static int fall(int n)
{
    int r = 0;
    switch (n & 7) {
    case 7: r += 7; /* fallthrough */
    case 6: r += 6; /* fallthrough */
    case 5: r += 5; /* fallthrough */
    case 4: r += 4; break;
    case 3: r += 3; /* fallthrough */
    case 2: r += 2; /* fallthrough */
    default: r += 1;
    }
    return r;
}

int main(void)
{
    long acc = 0;
    for (int c = -2; c < 27; c++) {
        int r = op(c, 37, 11);
        acc = acc * 5 + r + fall(c);
        printf("op %2d -> %d fall %d\n", c, r, fall(c));
    }
    for (unsigned c = '`'; c <= 'm'; c++)
        printf("%c=%s ", c, name(c));
    printf("\nacc %ld\n", acc);
    return 0;
}

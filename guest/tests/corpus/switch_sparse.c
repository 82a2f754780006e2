/* A state machine on a switch with sparse cases and a big dense one on characters. */
#include <stdio.h>

static int classify(int x)
{
    switch (x) {
    case -1000000: return 1;
    case -77: return 2;
    case 0: return 3;
    case 3: return 4;
    case 100: return 5;
    case 4096: return 6;
    case 65537: return 7;
    case 1 << 30: return 8;
    default: return 0;
    }
}

enum st { S_START, S_INT, S_FRAC, S_EXP, S_EXPSIGN, S_EXPNUM, S_BAD };

static int number_ok(const char *s)
{
    enum st st = S_START;
    for (; *s; s++) {
        char c = *s;
        switch (st) {
        case S_START: st = (c >= '0' && c <= '9') ? S_INT : (c == '-' || c == '+') ? S_START : S_BAD; break;
        case S_INT: st = (c >= '0' && c <= '9') ? S_INT : c == '.' ? S_FRAC : (c == 'e' || c == 'E') ? S_EXP : S_BAD; break;
        case S_FRAC: st = (c >= '0' && c <= '9') ? S_FRAC : (c == 'e' || c == 'E') ? S_EXP : S_BAD; break;
        case S_EXP: st = (c == '-' || c == '+') ? S_EXPSIGN : (c >= '0' && c <= '9') ? S_EXPNUM : S_BAD; break;
        case S_EXPSIGN: case S_EXPNUM: st = (c >= '0' && c <= '9') ? S_EXPNUM : S_BAD; break;
        case S_BAD: return 0;
        }
    }
    return st == S_INT || st == S_FRAC || st == S_EXPNUM;
}

int main(void)
{
    int xs[] = {-1000000, -77, -76, 0, 1, 3, 100, 101, 4096, 65537, 1 << 30, 5};
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++)
        printf("classify(%d)=%d\n", xs[i], classify(xs[i]));
    const char *ns[] = {"12", "-3.5", "1e10", "2.5E-3", "abc", "1.2.3", "+7", "9e", "0.0e+0", ""};
    for (unsigned i = 0; i < sizeof ns / sizeof ns[0]; i++)
        printf("'%s' -> %s\n", ns[i], number_ok(ns[i]) ? "number" : "not a number");
    return 0;
}

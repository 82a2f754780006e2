/* A small stack bytecode VM: arithmetic, jumps, calls, locals; runs fib, gcd and a sum loop. */
#include <stdio.h>
#include <stdint.h>

enum { PUSH, ADD, SUB, MUL, LT, JZ, JMP, CALL, RET, LOAD, STORE, DUP, DROP, PRINT, HALT, MOD, SWAP };
static const char *names[] = {"PUSH", "ADD", "SUB", "MUL", "LT", "JZ", "JMP", "CALL", "RET", "LOAD", "STORE", "DUP", "DROP", "PRINT", "HALT", "MOD", "SWAP"};

static long stack[256], locals[64 * 8];
static int calls_stack[64];

static long run(const int *code, long *steps, int *hist)
{
    int pc = 0, sp = 0, fp = 0, csp = 0;
    for (;;) {
        int op = code[pc++];
        (*steps)++;
        hist[op]++;
        switch (op) {
        case PUSH: stack[sp++] = code[pc++]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
        case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
        case JZ: { int t = code[pc++]; if (!stack[--sp]) pc = t; break; }
        case JMP: pc = code[pc]; break;
        case CALL: { int t = code[pc++]; calls_stack[csp++] = pc; fp += 8; locals[fp] = stack[--sp]; pc = t; break; }
        case RET: pc = calls_stack[--csp]; fp -= 8; break;
        case LOAD: stack[sp++] = locals[fp + code[pc++]]; break;
        case STORE: locals[fp + code[pc++]] = stack[--sp]; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case DROP: sp--; break;
        case SWAP: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t; break; }
        case PRINT: printf("  out %ld\n", stack[--sp]); break;
        case HALT: return sp ? stack[sp - 1] : 0;
        }
    }
}

int main(void)
{
    /* fib(n): if n < 2 return n; return fib(n-1) + fib(n-2). Arg in local 0. */
    static const int fib[] = {
        PUSH, 15, CALL, 5, HALT,
        /* 5 */ LOAD, 0, PUSH, 2, LT, JZ, 14, LOAD, 0, RET,
        /* 14 */ LOAD, 0, PUSH, 1, SUB, CALL, 5, LOAD, 0, PUSH, 2, SUB, CALL, 5, ADD, RET};
    /* gcd(a, b) loop with locals, prints each step's remainder */
    static const int gcd[] = {
        PUSH, 1071, STORE, 0, PUSH, 462, STORE, 1,
        /* 8 */ LOAD, 1, JZ, 27, LOAD, 0, LOAD, 1, MOD, DUP, PRINT, LOAD, 1, STORE, 0, STORE, 1, JMP, 8,
        /* 27 */ LOAD, 0, HALT};
    /* sum of i*i for i < 2000 */
    static const int sum[] = {
        PUSH, 0, STORE, 0, PUSH, 0, STORE, 1,
        /* 8 */ LOAD, 1, PUSH, 2000, LT, JZ, 34, LOAD, 0, LOAD, 1, DUP, MUL, ADD, STORE, 0, LOAD, 1, PUSH, 1, ADD, STORE, 1, JMP, 8, HALT,
        /* 34 */ LOAD, 0, HALT};
    const int *progs[] = {fib, gcd, sum};
    const char *pn[] = {"fib(15)", "gcd(1071,462)", "sum i^2 < 2000"};
    for (int i = 0; i < 3; i++) {
        long steps = 0;
        int hist[17] = {0};
        printf("%s:\n", pn[i]);
        long r = run(progs[i], &steps, hist);
        printf("  = %ld in %ld steps;", r, steps);
        for (int k = 0; k < 17; k++) if (hist[k]) printf(" %s:%d", names[k], hist[k]);
        printf("\n");
    }
    return 0;
}

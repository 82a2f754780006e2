/* bf.c: brainfuck interpreter with precomputed bracket jumps running an embedded hello world. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The classic program from Wikipedia; prints "Hello World!\n". */
static const char program[] =
    "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------.--------.>>+.>++.";

enum { TAPE = 30000 };

/* Runs prog; output goes to out (appended at *outlen). Returns -1 on unbalanced brackets. */
static int run(const char *prog, size_t len, const int *jump, char *out, size_t *outlen)
{
    static unsigned char tape[TAPE];
    memset(tape, 0, sizeof tape);
    size_t ptr = 0;
    for (size_t pc = 0; pc < len; pc++) {
        switch (prog[pc]) {
        case '>': ptr = (ptr + 1) % TAPE; break;
        case '<': ptr = (ptr + TAPE - 1) % TAPE; break;
        case '+': tape[ptr]++; break;
        case '-': tape[ptr]--; break;
        case '.': out[(*outlen)++] = (char)tape[ptr]; break;
        case ',': tape[ptr] = 0; break;  /* no input: reads as 0 */
        case '[': if (!tape[ptr]) pc = (size_t)jump[pc]; break;
        case ']': if (tape[ptr]) pc = (size_t)jump[pc]; break;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    long repeat = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
    if (repeat < 1)
        repeat = 1;
    size_t len = strlen(program);
    int *jump = malloc(len * sizeof *jump);
    int *stack = malloc(len * sizeof *stack);
    if (!jump || !stack)
        return 1;
    int sp = 0;
    for (size_t i = 0; i < len; i++) {
        if (program[i] == '[') {
            stack[sp++] = (int)i;
        } else if (program[i] == ']') {
            if (sp == 0) {
                printf("unbalanced ]\n");
                return 1;
            }
            int open = stack[--sp];
            jump[open] = (int)i;
            jump[i] = open;
        }
    }
    if (sp != 0) {
        printf("unbalanced [\n");
        return 1;
    }

    char out[256];
    unsigned long check = 0;
    for (long r = 0; r < repeat; r++) {
        size_t outlen = 0;
        run(program, len, jump, out, &outlen);
        out[outlen] = '\0';
        for (size_t i = 0; i < outlen; i++)
            check = check * 131 + (unsigned char)out[i];
        if (r == 0)
            fputs(out, stdout);
    }
    if (repeat > 1)
        printf("ran %ld times, checksum %lu\n", repeat, check);
    free(jump);
    free(stack);
    return 0;
}

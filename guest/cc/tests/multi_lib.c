/* multi_lib.c: the library half of a two-file program (see multi_main.c). */
#include "multi.h"

int pushes;

/* A static function with a name multi_main.c uses for its own. */
static long scale(long v) { return v * 2; }

long doubled(long v) { return scale(v); }

void push(struct Stack *s, long v)
{
    s->items[s->n++] = v;
    pushes++;
}

long pop(struct Stack *s) { return s->items[--s->n]; }

/* A reverse-Polish calculator over single digits and + - *. */
long eval_rpn(char *text)
{
    struct Stack s;
    s.n = 0;
    for (char *p = text; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            push(&s, *p - '0');
        } else if (*p == '+' || *p == '-' || *p == '*') {
            long b = pop(&s), a = pop(&s);
            push(&s, *p == '+' ? a + b : *p == '-' ? a - b : a * b);
        }
    }
    return pop(&s);
}

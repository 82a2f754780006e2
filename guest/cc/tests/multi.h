/* multi.h: what multi_main.c and multi_lib.c share. */
#ifndef MULTI_H
#define MULTI_H
struct Stack {
    long items[32];
    int n;
};
extern int pushes;
void push(struct Stack *s, long v);
long pop(struct Stack *s);
long eval_rpn(char *text);
long doubled(long v);
#endif

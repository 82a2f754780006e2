/* checks a state machine with a switch inside while using goto and labels */
#include <stdio.h>
int main(void)
{
    const char *in = "aab*ba*";
    int state = 0, trans = 0;
    while (*in) {
        switch (state) {
        case 0:
            state = *in == 'a' ? 1 : 0;
            break;
        case 1:
            if (*in == '*')
                goto star;
            state = *in == 'b' ? 2 : 1;
            break;
        default:
        star:
            state = 0;
            break;
        }
        trans = trans * 3 + state;
        in++;
    }
    printf("%d %d\n", state, trans);
    return 0;
}

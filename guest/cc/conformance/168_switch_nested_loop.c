/* checks break inside switch leaves the switch, continue inside switch continues the loop */
#include <stdio.h>
int main(void)
{
    int s = 0;
    for (int i = 0; i < 6; i++) {
        switch (i % 3) {
        case 0:
            continue;
        case 1:
            s += i;
            break;
        default:
            s += 100;
        }
        s += 1000;
    }
    printf("%d\n", s);
    return 0;
}

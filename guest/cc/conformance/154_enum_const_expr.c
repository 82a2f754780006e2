/* checks enum constants built from earlier constants and used in constant expressions */
#include <stdio.h>
enum { A = 1, B = A << 3, C = B | A, D = C * 2 - 1, MASK = ~0 & 0xFF };
int arr[D];
int main(void)
{
    int n = sizeof arr / sizeof arr[0];
    switch (n) {
    case D:
        printf("D\n");
        break;
    }
    printf("%d %d %d %d %d\n", A, B, C, D, MASK);
    return 0;
}

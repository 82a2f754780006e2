/* checks printf integer formats with widths, precision and flags */
#include <stdio.h>
int main(void)
{
    printf("[%5d][%-5d][%05d][%+d][% d]\n", 42, 42, 42, 42, 42);
    printf("[%x][%X][%#x][%o][%#o]\n", 255, 255, 255, 8, 8);
    printf("[%.3d][%8.3d][%c][%5s][%-5s][%.2s]\n", 7, 7, 'q', "ab", "ab", "abcdef");
    printf("[%lu][%lld][%hhd][%hd][%i]\n", 4000000000UL, -5LL, 300, 70000, -9);
    return 0;
}

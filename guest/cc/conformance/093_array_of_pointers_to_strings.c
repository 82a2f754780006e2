/* checks an array of char * to string literals */
#include <stdio.h>
int main(void)
{
    const char *words[] = { "zero", "one", "two", "three" };
    int n = sizeof words / sizeof words[0];
    for (int i = n - 1; i >= 0; i--)
        printf("%s%c", words[i], i ? ' ' : '\n');
    printf("%c%c\n", words[2][1], *words[3]);
    return 0;
}

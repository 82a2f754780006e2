/* checks a long string literal (over 300 characters) built by concatenation */
#include <stdio.h>
#include <string.h>
#define TEN "0123456789"
#define HUNDRED TEN TEN TEN TEN TEN TEN TEN TEN TEN TEN
int main(void)
{
    const char *s = HUNDRED HUNDRED HUNDRED "tail";
    int digits = 0;
    for (const char *p = s; *p; p++)
        digits += *p >= '0' && *p <= '9' ? *p - '0' : 0;
    printf("%d %d %s\n", (int)strlen(s), digits, s + 300);
    return 0;
}

/* checks sizeof of basic types on LP64 */
#include <stdio.h>
int main(void)
{
    printf("%d %d %d %d %d %d\n", (int)sizeof(char), (int)sizeof(short), (int)sizeof(int),
           (int)sizeof(long), (int)sizeof(long long), (int)sizeof(void *));
    printf("%d %d %d %d\n", (int)sizeof(unsigned char), (int)sizeof(unsigned short),
           (int)sizeof(unsigned), (int)sizeof(char *));
    printf("%d %d\n", (int)sizeof(unsigned long long), (int)sizeof(size_t));
    return 0;
}

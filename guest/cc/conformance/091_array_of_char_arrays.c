/* checks a 2-D char array of strings */
#include <stdio.h>
#include <string.h>
int main(void)
{
    char names[3][8] = { "alpha", "beta", "gamma" };
    strcpy(names[1], "BETA!");
    for (int i = 0; i < 3; i++)
        printf("%s:%d ", names[i], (int)strlen(names[i]));
    printf("%c\n", names[2][4]);
    return 0;
}

/* checks main(argc, argv): argc is 1 and argv is NULL-terminated */
#include <stdio.h>
int main(int argc, char **argv)
{
    int n = 0;
    while (argv[n])
        n++;
    printf("%d %d %d %d\n", argc, argv[0] != NULL, argv[argc] == NULL, n);
    return 0;
}

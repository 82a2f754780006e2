/* checks extern declarations referring to a definition later in the file */
#include <stdio.h>
extern int later;
extern int table[];
int get(int i);
int main(void)
{
    later += 1;
    printf("%d %d %d\n", later, table[2], get(1));
    return 0;
}
int later = 41;
int table[3] = { 5, 6, 7 };
int get(int i) { return table[i] * 100; }

/* checks an array of structs indexed and updated in a loop */
#include <stdio.h>
struct item {
    char name[8];
    int qty;
    int price;
};
int main(void)
{
    struct item inv[3] = { { "nut", 10, 3 }, { "bolt", 5, 7 }, { "gear", 2, 50 } };
    int total = 0;
    for (int i = 0; i < 3; i++) {
        inv[i].qty++;
        total += inv[i].qty * inv[i].price;
    }
    printf("%d %s %d\n", total, inv[2].name, (int)sizeof inv);
    return 0;
}

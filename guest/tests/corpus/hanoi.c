/* Towers of Hanoi, recursive, with the moves of the small case and counts of larger ones. */
#include <stdio.h>

static long moves;
static int pegs[3][20], top[3];

static void move(int n, int from, int to, int via, int show)
{
    if (n == 0) return;
    move(n - 1, from, via, to, show);
    int d = pegs[from][--top[from]];
    if (top[to] && pegs[to][top[to] - 1] < d) printf("illegal move!\n");
    pegs[to][top[to]++] = d;
    moves++;
    if (show) printf("disk %d: %c -> %c\n", d, 'A' + from, 'A' + to);
    move(n - 1, via, to, from, show);
}

int main(void)
{
    for (int n = 1; n <= 12; n++) {
        top[0] = top[1] = top[2] = 0;
        for (int d = n; d >= 1; d--) pegs[0][top[0]++] = d;
        moves = 0;
        move(n, 0, 2, 1, n == 3);
        printf("n=%d moves=%ld on C=%d\n", n, moves, top[2]);
    }
    return 0;
}

/* types.c: slice 2: unsigned and short types with their conversions, structs (members, nested,
 * pointers to them, arrays of them, self-reference), typedef, enum, switch with fallthrough
 * and default, static and const. */
long sys_write(long fd, char *p, long n) { return __syscall(64, fd, p, n); }

static int out(long v)
{
    char buf[24];
    char *p = buf + 23;
    int neg = v < 0;
    unsigned long u = neg ? -v : v;
    *p = '\n';
    int n = 1;
    do { p--; *p = '0' + u % 10; u /= 10; n++; } while (u);
    if (neg) { p--; *p = '-'; n++; }
    sys_write(1, p, n);
    return 0;
}

typedef long i64;
typedef struct Point { int x, y; } Point;
enum Color { RED, GREEN = 5, BLUE, LAST = BLUE * 2 };

struct Node {
    int val;
    short tag;
    char c;
    struct Node *next;
    Point at;
    long arr[3];
};

struct Node pool[4];
const int table[5] = {0};

int sum_list(struct Node *n)
{
    int s = 0;
    for (; n; n = n->next) s += n->val * 10 + n->tag;
    return s;
}

int bump(void)
{
    static int counter = 10;
    int junk[8];
    for (int i = 0; i < 8; i++) junk[i] = 99;
    counter++;
    return counter + junk[0] - 99;
}

int classify(int c)
{
    int r = 0;
    switch (c) {
    case 0: r += 1;
    case 1: r += 10; break;
    case RED + 2: r = 100; break;
    case -1: return -5;
    default: r = 7;
    }
    return r;
}

int main(void)
{
    unsigned int u = 4000000000;
    out(u);
    out(u + 500000000);
    unsigned char uc = 200;
    signed char sc = -56;
    out(uc + sc);
    out(uc > sc);
    short s = 40000;
    unsigned short us = 70000;
    out(s);
    out(us);
    out(-7 / 2);
    out((unsigned)7 / 2);
    out(-1 > 0u);
    out((unsigned long)-1 >> 60);
    out(-16 >> 2);
    out(sizeof(struct Node) * 100 + sizeof(Point));
    i64 big = 1;
    big <<= 40;
    out(big);
    out(GREEN + BLUE + LAST);
    enum Color col = BLUE;
    out(col);
    for (int i = 0; i < 4; i++) {
        pool[i].val = i + 1;
        pool[i].tag = i * 2;
        pool[i].c = 'a' + i;
        pool[i].next = i < 3 ? &pool[i + 1] : 0;
        pool[i].at.x = i;
        pool[i].at.y = -i;
        pool[i].arr[2] = i * 100;
    }
    out(sum_list(pool));
    struct Node *p = &pool[2];
    out(p->at.y + p->next->arr[2] + (p - pool));
    Point pt;
    pt.x = 3;
    pt.y = 4;
    Point *pp = &pt;
    out(pp->x * pp->x + pp->y * pp->y);
    out(classify(0) + classify(1) * 2 + classify(2) * 3 + classify(-1) + classify(9));
    out(table[3]);
    int total = 0;
    for (int i = 0; i < 3; i++) total += bump();
    out(total);
    return 0;
}

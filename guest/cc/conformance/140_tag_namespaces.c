/* checks struct tags, typedef names, members and variables live in separate name spaces */
#include <stdio.h>
typedef struct s {
    int s;
} s_t;
struct t {
    int t;
};
int main(void)
{
    struct s s;
    s.s = 5;
    struct t t = { 6 };
    s_t u = { s.s + t.t };
    enum e { e1 = 3 } e = e1;
    printf("%d %d %d %d\n", s.s, t.t, u.s, e);
    return 0;
}

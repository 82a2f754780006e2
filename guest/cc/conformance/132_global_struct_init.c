/* checks global struct initialisers with nested aggregates, strings and pointers */
#include <stdio.h>
struct person {
    const char *name;
    int age;
    int scores[3];
};
int bonus = 5;
struct wrap {
    struct person p;
    int *extra;
} w = { { "ann", 30, { 90, 80 } }, &bonus };
struct person people[] = { { "bob", 40, { 1, 2, 3 } }, { "cy", 7 } };
int main(void)
{
    printf("%s %d %d %d %d\n", w.p.name, w.p.age, w.p.scores[1], w.p.scores[2], *w.extra);
    printf("%s %d %s %d %d\n", people[0].name, people[0].scores[2], people[1].name, people[1].age,
           (int)(sizeof people / sizeof people[0]));
    return 0;
}

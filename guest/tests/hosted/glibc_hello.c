/* glibc_hello.c: an ordinary hosted program, linked statically against AArch64 glibc
 * (clang --target=aarch64-linux-gnu -static), not against garm's runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    char buf[64];
    snprintf(buf, sizeof buf, "hello %s %d", "glibc", argc);
    printf("%s len=%zu\n", buf, strlen(buf));
    char *p = malloc(100);
    strcpy(p, "dynamic");
    puts(p);
    free(p);
    return 0;
}

/* The runtime's string functions against hand-computed answers. */
#include <stdio.h>
#include <string.h>
#include <ctype.h>

int main(void)
{
    char buf[64];
    strcpy(buf, "hello");
    strcat(buf, ", world");
    printf("%s len=%zu\n", buf, strlen(buf));
    printf("strchr=%s strrchr=%s strstr=%s\n", strchr(buf, 'o'), strrchr(buf, 'o'), strstr(buf, "wor"));
    printf("cmp: %d %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strcmp("x", "x"), strncmp("abcX", "abcY", 3));
    printf("casecmp: %d %d\n", strcasecmp("HeLLo", "hello"), strncasecmp("ABCdef", "abcxyz", 3));
    printf("spn=%zu cspn=%zu pbrk=%s\n", strspn("aabbcx", "ab"), strcspn("hello world", " "), strpbrk("hello", "lo"));
    char m[32];
    for (int i = 0; i < 32; i++) m[i] = (char)('A' + i % 26);
    memmove(m + 4, m, 10);
    memmove(m + 20, m + 22, 8);
    printf("memmove: %.32s\n", m);
    memset(m, '-', 5);
    printf("memset: %.10s memcmp=%d memchr=%s\n", m, memcmp("abc", "abd", 3) < 0, (char *)memchr("xyz", 'y', 3));
    char t[] = "  one, two;three ,,four ";
    char *save, *tok = strtok_r(t, " ,;", &save);
    while (tok) { printf("<%s>", tok); tok = strtok_r(0, " ,;", &save); }
    printf("\n");
    strncpy(buf, "abc", 6);
    printf("strncpy pad: %d %d %d\n", buf[3], buf[4], buf[5]);
    char up[32];
    const char *s = "Mixed Case 123 _x";
    int k = 0;
    for (; s[k]; k++) up[k] = (char)(isalpha((unsigned char)s[k]) ? toupper((unsigned char)s[k]) : s[k]);
    up[k] = 0;
    printf("upper: %s\n", up);
    char *d = strndup("truncate me", 5);
    printf("strndup: %s strnlen=%zu\n", d, strnlen("abcdef", 3));
    return 0;
}

/* checks 32- and 64-bit unsigned multiply wraparound in FNV-1a hashes */
#include <stdio.h>
#include <stdint.h>
static uint32_t fnv32(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}
static uint64_t fnv64(const char *s)
{
    uint64_t h = 14695981039346656037ULL;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 1099511628211ULL;
    }
    return h;
}
int main(void)
{
    printf("%x %x\n", fnv32(""), fnv32("hello world"));
    printf("%llx\n", (unsigned long long)fnv64("hello world"));
    return 0;
}

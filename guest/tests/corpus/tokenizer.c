/* A tokenizer for a small C-like language: identifiers, numbers, strings, operators, comments. */
#include <stdio.h>
#include <ctype.h>
#include <string.h>

static const char *src =
    "int main(void) {\n"
    "  /* block comment */ int x = 0x1F + 077 - 10; // line\n"
    "  char *s = \"he said \\\"hi\\\"\\n\";\n"
    "  if (x >= 10 && x != 3 || !x) x <<= 2; else x->y++;\n"
    "  return x ? s[1] : 'q';\n"
    "}\n";

enum { T_ID, T_NUM, T_STR, T_CHR, T_OP, T_KW };
static const char *kinds[] = {"id", "num", "str", "chr", "op", "kw"};
static const char *kws[] = {"int", "char", "void", "if", "else", "return", 0};
static const char *ops3[] = {"<<=", ">>=", 0};
static const char *ops2[] = {">=", "<=", "==", "!=", "&&", "||", "->", "++", "--", "<<", ">>", "+=", 0};

int main(void)
{
    const char *s = src;
    int line = 1, count[6] = {0}, n = 0;
    unsigned h = 5381;
    while (*s) {
        if (*s == '\n') { line++; s++; continue; }
        if (isspace((unsigned char)*s)) { s++; continue; }
        if (s[0] == '/' && s[1] == '*') { s = strstr(s + 2, "*/") + 2; continue; }
        if (s[0] == '/' && s[1] == '/') { while (*s && *s != '\n') s++; continue; }
        const char *b = s;
        int k;
        if (isalpha((unsigned char)*s) || *s == '_') {
            while (isalnum((unsigned char)*s) || *s == '_') s++;
            k = T_ID;
            for (int i = 0; kws[i]; i++)
                if ((size_t)(s - b) == strlen(kws[i]) && !strncmp(b, kws[i], s - b)) k = T_KW;
        } else if (isdigit((unsigned char)*s)) {
            if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { s += 2; while (isxdigit((unsigned char)*s)) s++; }
            else while (isdigit((unsigned char)*s)) s++;
            k = T_NUM;
        } else if (*s == '"' || *s == '\'') {
            char q = *s++;
            while (*s && *s != q) { if (*s == '\\') s++; s++; }
            s++;
            k = q == '"' ? T_STR : T_CHR;
        } else {
            k = T_OP;
            int len = 1;
            for (int i = 0; ops3[i]; i++) if (!strncmp(s, ops3[i], 3)) len = 3;
            if (len == 1) for (int i = 0; ops2[i]; i++) if (!strncmp(s, ops2[i], 2)) len = 2;
            s += len;
        }
        count[k]++;
        n++;
        for (const char *c = b; c < s; c++) h = h * 33 + (unsigned char)*c;
        printf("%d:%-4s %.*s\n", line, kinds[k], (int)(s - b), b);
    }
    printf("%d tokens:", n);
    for (int k = 0; k < 6; k++) printf(" %s=%d", kinds[k], count[k]);
    printf(" hash=%08x\n", h);
    return 0;
}

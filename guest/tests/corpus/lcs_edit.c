/* Dynamic programming: longest common subsequence (with the subsequence) and edit distance. */
#include <stdio.h>
#include <string.h>

static int t[64][64];

static int lcs(const char *a, const char *b, char *out)
{
    int n = (int)strlen(a), m = (int)strlen(b);
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= m; j++)
            t[i][j] = !i || !j ? 0 : a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1];
    int k = t[n][m], i = n, j = m;
    out[k] = 0;
    while (i && j) {
        if (a[i - 1] == b[j - 1]) { out[--k] = a[i - 1]; i--; j--; }
        else if (t[i - 1][j] >= t[i][j - 1]) i--;
        else j--;
    }
    return t[n][m];
}

static int edit(const char *a, const char *b)
{
    int n = (int)strlen(a), m = (int)strlen(b);
    for (int i = 0; i <= n; i++) t[i][0] = i;
    for (int j = 0; j <= m; j++) t[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int c = t[i - 1][j - 1] + (a[i - 1] != b[j - 1]), d = t[i - 1][j] + 1, e = t[i][j - 1] + 1;
            t[i][j] = c < d ? (c < e ? c : e) : (d < e ? d : e);
        }
    return t[n][m];
}

int main(void)
{
    const char *pairs[][2] = {{"kitten", "sitting"}, {"AGGTAB", "GXTXAYB"}, {"", "abc"}, {"intention", "execution"},
                              {"the quick brown fox", "a quick brown dog jumps"}, {"ACCGGTCGAGTGCGCGGAAGCCGGCCGAA", "GTCGTTCGGAATGCCGTTGCTCTGTAAA"}};
    for (int i = 0; i < 6; i++) {
        char s[64];
        int l = lcs(pairs[i][0], pairs[i][1], s);
        printf("'%s' vs '%s': lcs %d '%s', edit %d\n", pairs[i][0], pairs[i][1], l, s, edit(pairs[i][0], pairs[i][1]));
    }
    return 0;
}

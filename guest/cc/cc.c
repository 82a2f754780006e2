/* cc.c: garm's own C compiler, growing towards compiling itself. It reads one C file and
 * writes a static AArch64 ELF executable itself (no assembler, no linker): lexer,
 * recursive-descent parser to a small tree, then A64 code straight from the tree, every value
 * in x0 with a stack of temporaries.
 *
 * It takes: char (signed, as garm's clang builds), signed char, short, int, long and their unsigned
 * forms with C's conversions, pointers, arrays, structs (members, nesting, self-reference,
 * assignment, by value in calls and results as AAPCS64 passes them), unions, compound
 * literals, typedef, enum, static locals, const/extern/volatile (accepted), globals with
 * initialisers of constants (nested lists, strings, addresses of strings and globals),
 * float/double/_Bool in declarations (not yet as values), locals with any initialiser
 * (nested brace lists, strings, array lengths from the initialiser), functions with up to
 * eight parameters (returning their declared type), pointers to functions, prototypes with
 * restrict/__attribute__/unnamed and ... parameters, variadic functions (va_list as AAPCS64
 * lays it out, through __builtin_va_start/arg/end/copy), if/else, while, do/while, for,
 * switch/case/default, break, continue, goto and labels, return, the full expression grammar
 * of those types (assignments and compound assignments, ?:, || && | ^ & == != < <= > >= << >>
 * + - * / %, unary - ! ~ & * ++ --, casts, calls, indexing, . and ->), string and character
 * literals, sizeof, constant expressions. `__syscall(n, ...)` is a system call.
 * Programs start at _start, which calls main(argc, argv) and exits with its result.
 * A preprocessor runs first, on tokens: #include, #define (object- and function-like, # and
 * ##, __VA_ARGS__), #undef, #if/#ifdef/#ifndef/#elif/#else/#endif, #error, __FILE__, __LINE__.
 *
 * Several files make one program: each is preprocessed and parsed on its own, their functions
 * and globals meet (a global declared again is the same object; static functions stay their
 * file's). Linking names every function called and defined nowhere.
 *
 * Built from cc.c and fold.c (its floating-point constant arithmetic).
 * Usage: cc [-I DIR] [-D NAME[=VALUE]] [-U NAME]... FILE.c... [LIBRARY.lib] -o OUT
 *        cc --library [-I DIR]... FILE.c... -o LIBRARY.lib */
#include <garm.h>
#include <stdio.h>
/* The garm runtime's strtod and strtof as bits (guest/rt/fp/strtod.c: no floating values). */
unsigned long __garm_strtofp_bits(const char *s, char **end, int is_float);
#include <stdlib.h>
#include <string.h>

/* ---- diagnostics ---- */

static void *xalloc(void *p);

/* A growable array `p` of n items of `size` bytes with room for *cap: room for one more
 * (doubling, from 64). */
static void *grow(void *p, int n, int *cap, int size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 64;
    return xalloc(realloc(p, (long)*cap * size));
}

/* Allocation that never returns NULL: running out of memory is a diagnostic, not a crash. */
static void *xalloc(void *p)
{
    if (!p) {
        fprintf(stderr, "cc: out of memory\n");
        exit(1);
    }
    return p;
}
#define malloc(n) xalloc(malloc(n))
#define calloc(n, m) xalloc(calloc(n, m))
#define realloc(p, n) xalloc(realloc(p, n))

static const char *src_name;
static char *src;

/* Every source file read (the main one and what it includes), for diagnostics. */
typedef struct File {
    const char *name;
    char *text;
    long len;
} File;
static File files[256];
static int nfiles;

/* #line directives: from the newline ending one, lines count from `line` (in file `name`). */
typedef struct LineMark {
    const char *at;
    int line;
    const char *name;
} LineMark;
static LineMark line_marks[256];
static int nline_marks;

/* The line (1-based) and file name a place in a source file has, #line counted. */
static int line_of(File *fl, const char *at, const char **name)
{
    const char *from = fl->text;
    int line = 1;
    *name = fl->name;
    for (int i = 0; i < nline_marks; i++)
        if (line_marks[i].at >= fl->text && line_marks[i].at < at && line_marks[i].at >= from) {
            from = line_marks[i].at;
            line = line_marks[i].line - 1;
            *name = line_marks[i].name;
        }
    for (const char *p = from; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Prints a diagnostic at `at` (a place in a source file, or NULL). */
static void report_at(const char *at, const char *msg)
{
    for (int f = 0; f < nfiles; f++) {
        File *fl = &files[f];
        if (at < fl->text || at > fl->text + fl->len)
            continue;
        const char *name;
        int line = line_of(fl, at, &name), col = 1;
        for (const char *p = at; p > fl->text && p[-1] != '\n'; p--)
            col++;
        fprintf(stderr, "%s:%d:%d: error: %s\n", name, line, col, msg);
        return;
    }
    fprintf(stderr, "%s: error: %s\n", src_name, msg);
}

static void error_at(const char *at, const char *msg)
{
    report_at(at, msg);
    exit(1);
}

/* ---- tokens ---- */

enum { T_NUM, T_IDENT, T_STR, T_PUNCT, T_KEYWORD, T_EOF };

typedef struct Token {
    int kind;
    const char *at;
    int len;
    long val;
    char *str; /* a string literal's bytes, NUL-terminated */
    int str_len;
    int is_unsigned, is_long, is_decimal; /* a number's suffixes and base */
    int is_float; /* a floating constant: 1 double, 2 float, 3 long double (val: its bits) */
    int bol;                               /* first on its line */
} Token;

/* A growable list of tokens. */
typedef struct TokVec {
    Token *v;
    int n, cap;
} TokVec;

static void vpush(TokVec *tv, Token t)
{
    if (tv->n == tv->cap) {
        tv->cap = tv->cap ? tv->cap * 2 : 256;
        tv->v = realloc(tv->v, tv->cap * sizeof(Token));
    }
    tv->v[tv->n++] = t;
}

static Token *toks;
static int pos;

static const char *keywords[] = {
    "int", "long", "char", "void", "short", "unsigned", "signed", "const", "volatile", "static",
    "extern", "struct", "enum", "typedef", "if", "else", "while", "for", "do", "return", "break",
    "continue", "sizeof", "switch", "case", "default", "goto", "float", "double", "_Bool",
    "union", 0};
static const char *puncts[] = {"...", "<<=", ">>=", "##", "==", "!=", "<=", ">=", "&&", "||", "++", "--",
                               "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", 0};

/* FNV-1a: the hash of every name table here. */
static unsigned text_hash(const char *s, int len)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Whether the len characters at `at` spell the string s (no strlen: the lookups that call it
 * run for every token). */
static int spells(const char *at, int len, const char *s)
{
    for (int i = 0; i < len; i++)
        if (at[i] != s[i])
            return 0;
    return s[len] == 0;
}

/* Whether the identifier at s is a keyword: a hash table of them, made at the first call. */
static int is_keyword(const char *s, int len)
{
    static signed char slot[256];
    static int made;
    if (!made) {
        memset(slot, -1, sizeof slot);
        for (int i = 0; keywords[i]; i++) {
            unsigned h = text_hash(keywords[i], (int)strlen(keywords[i])) & 255;
            while (slot[h] >= 0)
                h = (h + 1) & 255;
            slot[h] = (signed char)i;
        }
        made = 1;
    }
    for (unsigned h = text_hash(s, len) & 255; slot[h] >= 0; h = (h + 1) & 255)
        if (spells(s, len, keywords[slot[h]]))
            return 1;
    return 0;
}

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int escape(const char **pp)
{
    const char *p = *pp;
    int c = *p++;
    if (c == '\\') {
        c = *p++;
        switch (c) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'a': c = 7; break;
        case 'b': c = 8; break;
        case 'f': c = 12; break;
        case 'v': c = 11; break;
        case 'x': /* \xhh...: as many hex digits as follow, the low byte kept */
            c = 0;
            while (is_digit(*p) || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F')) {
                c = (c * 16 + (is_digit(*p) ? *p - '0' : (*p | 32) - 'a' + 10)) & 0xff;
                p++;
            }
            break;
        default:
            if (c >= '0' && c <= '7') { /* \ooo: up to three octal digits */
                c -= '0';
                for (int i = 0; i < 2 && *p >= '0' && *p <= '7'; i++)
                    c = c * 8 + *p++ - '0';
                c &= 0xff;
            }
            break; /* \\ \' \" and the rest stand for themselves */
        }
    }
    *pp = p;
    return c;
}

/* The tokens of one file's text, each marked when it is the first on its line. */
static TokVec tokenize(const char *text)
{
    TokVec out = {0};
    const char *p = text;
    int bol = 1;
    for (;;) {
        if (*p == '\n') {
            bol = 1;
            p++;
            continue;
        }
        if (p[0] == '\\' && p[1] == '\n') { /* a continued line */
            p += 2;
            continue;
        }
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
            p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            if (!e)
                error_at(p, "unterminated comment");
            for (const char *q = p; q < e; q++)
                bol |= *q == '\n';
            p = e + 2;
            continue;
        }
        Token t = {0};
        t.at = p;
        t.bol = bol;
        bol = 0;
        if (!*p) {
            t.kind = T_EOF;
            vpush(&out, t);
            return out;
        }
        const char *q = p;
        int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X'), fp = 0;
        if (is_digit(*p) || (*p == '.' && is_digit(p[1]))) { /* a preprocessing number */
            for (q = p + 1; is_alpha(*q) || is_digit(*q) || *q == '.' ||
                            ((*q == '+' || *q == '-') && ((q[-1] | 32) == (hex ? 'p' : 'e')));
                 q++)
                fp |= *q == '.' || (!hex && (*q | 32) == 'e') || (hex && (*q | 32) == 'p');
            fp |= *p == '.';
        }
        if (fp) {
            /* Its bits, correctly rounded to its type by the runtime's integer-only strtod. */
            char *end;
            t.kind = T_NUM;
            t.is_float = 1;
            t.val = (long)__garm_strtofp_bits(p, &end, 0);
            if (*end == 'f' || *end == 'F') {
                t.val = (long)__garm_strtofp_bits(p, &end, 1);
                t.is_float = 2;
                end++;
            } else if (*end == 'l' || *end == 'L') {
                t.is_float = 3;
                end++;
            }
            if (end != q)
                error_at(p, "a malformed floating constant");
            t.len = (int)(end - p);
            p = end;
        } else if (is_digit(*p)) {
            char *end;
            t.kind = T_NUM;
            t.val = (long)strtoul(p, &end, 0);
            t.is_decimal = *p != '0';
            for (;; end++) {
                if (*end == 'l' || *end == 'L')
                    t.is_long = 1;
                else if (*end == 'u' || *end == 'U')
                    t.is_unsigned = 1;
                else
                    break;
            }
            t.len = (int)(end - p);
            p = end;
        } else if (is_alpha(*p)) {
            const char *s = p;
            while (is_alpha(*p) || is_digit(*p))
                p++;
            t.len = (int)(p - s);
            t.kind = T_IDENT;
            if (is_keyword(s, t.len))
                t.kind = T_KEYWORD;
        } else if (*p == '\'') {
            p++;
            t.kind = T_NUM;
            t.val = (signed char)escape(&p); /* plain char is signed */
            if (*p != '\'')
                error_at(p, "unterminated character constant");
            p++;
            t.len = (int)(p - t.at);
        } else if (*p == '"') {
            p++;
            /* At most as many bytes as characters up to the closing quote. */
            const char *e = p;
            while (*e && *e != '"' && *e != '\n')
                e += e[0] == '\\' && e[1] ? 2 : 1;
            char *buf = malloc(e - p + 1);
            int n = 0;
            while (*p != '"') {
                if (!*p || *p == '\n')
                    error_at(t.at, "unterminated string");
                buf[n++] = (char)escape(&p);
            }
            buf[n] = 0;
            p++;
            t.kind = T_STR;
            t.str = buf;
            t.str_len = n;
            t.len = (int)(p - t.at);
        } else {
            t.kind = T_PUNCT;
            t.len = 1;
            /* Every longer punctuator's second character is one of these. */
            for (int i = 0; p[1] && strchr(".<>#=&|+-", p[1]) && puncts[i]; i++) {
                int n = 0;
                while (puncts[i][n] && puncts[i][n] == p[n])
                    n++;
                if (!puncts[i][n]) {
                    t.len = n;
                    break;
                }
            }
            if (p[0] == '-' && p[1] == '>')
                t.len = 2;
            /* Any other character is a token of its own (skipped code may hold it); the
             * parser refuses it where it matters. */
            p += t.len;
        }
        vpush(&out, t);
    }
}

/* ---- the preprocessor ---- */

static long const_expr(void);

typedef struct Macro {
    char *name;
    int fnlike, nparams, variadic;
    char *params[32];
    Token *body;
    int nbody;
    int busy; /* being expanded: not again inside itself */
    struct Macro *next;
} Macro;

/* The macros defined so far, by a hash of their names. */
#define MACRO_BUCKETS 1024
static Macro *macros[MACRO_BUCKETS];

static const char *include_dirs[32];
static int ninclude_dirs;

static char *tok_text(Token *t)
{
    char *s = malloc(t->len + 1);
    memcpy(s, t->at, t->len);
    s[t->len] = 0;
    return s;
}

static int tok_is(Token *t, const char *s)
{
    return t->kind != T_STR && t->kind != T_EOF && spells(t->at, t->len, s);
}

static int is_name(Token *t) { return t->kind == T_IDENT || t->kind == T_KEYWORD; }

static Macro *find_macro(Token *t)
{
    if (!is_name(t))
        return 0;
    for (Macro *m = macros[text_hash(t->at, t->len) % MACRO_BUCKETS]; m; m = m->next)
        if (spells(t->at, t->len, m->name))
            return m;
    return 0;
}

static void undef(Token *t)
{
    for (Macro **m = &macros[text_hash(t->at, t->len) % MACRO_BUCKETS]; *m; m = &(*m)->next)
        if (spells(t->at, t->len, (*m)->name)) {
            *m = (*m)->next;
            return;
        }
}

/* A token made from text (a pasted token, a stringified argument): tokenized afresh. */
static Token retok(const char *text, const char *at)
{
    char *copy = strdup(text);
    TokVec v = tokenize(copy);
    if (v.n != 2)
        error_at(at, "pasting does not give one token");
    return v.v[0];
}

/* The spelling of tokens as one string literal (#arg). */
static Token stringify(Token *t, int n, const char *at)
{
    int cap = 16;
    for (int i = 0; i < n; i++)
        cap += t[i].len * 2 + 1;
    char *buf = malloc(cap), *q = buf;
    *q++ = '"';
    for (int i = 0; i < n; i++) {
        if (i && (t[i].at != t[i - 1].at + t[i - 1].len))
            *q++ = ' ';
        for (int k = 0; k < t[i].len; k++) {
            char c = t[i].at[k];
            if ((t[i].kind == T_STR || t[i].at[0] == '\'') && (c == '"' || c == '\\'))
                *q++ = '\\';
            *q++ = c;
        }
    }
    *q++ = '"';
    *q = 0;
    return retok(buf, at);
}

static void expand_list(Token *in, int n, TokVec *out);
static const char *expand_site; /* the token a top-level expansion started at */

/* Expands the token at in[*i] (and a function-like macro's arguments after it) into out. */
static void expand_one(Token *in, int n, int *i, TokVec *out)
{
    Token *t = &in[*i];
    Macro *m = find_macro(t);
    if (tok_is(t, "__LINE__") || tok_is(t, "__FILE__")) {
        /* Where the outermost macro call began (a macro's __LINE__ is its use's). */
        const char *site = expand_site ? expand_site : t->at;
        char buf[512];
        const char *name = src_name;
        int line = 1;
        for (int f = 0; f < nfiles; f++)
            if (site >= files[f].text && site <= files[f].text + files[f].len)
                line = line_of(&files[f], site, &name);
        if (tok_is(t, "__LINE__"))
            snprintf(buf, sizeof buf, "%d", line);
        else
            snprintf(buf, sizeof buf, "\"%s\"", name);
        Token r = retok(buf, t->at);
        r.at = t->at;
        r.len = t->len;
        vpush(out, r);
        (*i)++;
        return;
    }
    if (!m || m->busy || (m->fnlike && (*i + 1 >= n || !tok_is(&in[*i + 1], "(")))) {
        vpush(out, *t);
        (*i)++;
        return;
    }
    (*i)++;
    /* Arguments: comma-separated at depth 0 (the variadic one takes the rest). */
    int starts[33], ends[33], nargs = 0;
    if (m->fnlike) {
        (*i)++;
        int depth = 0, start = *i;
        for (;; (*i)++) {
            if (*i >= n || in[*i].kind == T_EOF)
                error_at(t->at, "unterminated macro call");
            Token *a = &in[*i];
            if (tok_is(a, "(") || tok_is(a, "[") || tok_is(a, "{"))
                depth++;
            else if (depth == 0 && tok_is(a, ")")) {
                if (nargs < 33 && (nargs > 0 || *i > start || m->nparams > 0)) {
                    starts[nargs] = start;
                    ends[nargs++] = *i;
                }
                (*i)++;
                break;
            } else if (tok_is(a, ")") || tok_is(a, "]") || tok_is(a, "}"))
                depth--;
            else if (depth == 0 && tok_is(a, ",") && !(m->variadic && nargs == m->nparams - 1)) {
                if (nargs == 32)
                    error_at(a->at, "too many macro arguments");
                starts[nargs] = start;
                ends[nargs++] = *i;
                start = *i + 1;
            }
        }
        if (nargs != m->nparams && !(m->variadic && nargs == m->nparams - 1))
            error_at(t->at, "wrong number of macro arguments");
        if (nargs < m->nparams) { /* an empty __VA_ARGS__ */
            starts[nargs] = ends[nargs] = ends[nargs - 1];
            nargs++;
        }
    }
    /* The body with parameters replaced: # stringifies, ## pastes, the rest gets the
     * argument expanded first. */
    TokVec body = {0};
    for (int k = 0; k < m->nbody; k++) {
        Token *b = &m->body[k];
        int param = -1;
        int hash = tok_is(b, "#") && m->fnlike && k + 1 < m->nbody;
        Token *pt = hash ? &m->body[k + 1] : b;
        for (int p = 0; p < m->nparams && is_name(pt); p++)
            if (spells(pt->at, pt->len, m->params[p]))
                param = p;
        if (hash && param >= 0) {
            Token st = stringify(&in[starts[param]], ends[param] - starts[param], b->at);
            vpush(&body, st);
            k++;
            continue;
        }
        if (tok_is(b, "##") && body.n > 0 && k + 1 < m->nbody) {
            Token *next = &m->body[k + 1];
            int np = -1;
            for (int p = 0; p < m->nparams && is_name(next); p++)
                if (spells(next->at, next->len, m->params[p]))
                    np = p;
            Token *rhs = next;
            int rn = 1;
            if (np >= 0) {
                rhs = &in[starts[np]];
                rn = ends[np] - starts[np];
            }
            k++;
            if (rn == 0)
                continue;
            Token *lhs = &body.v[body.n - 1];
            char *joined = malloc(lhs->len + rhs->len + 1);
            memcpy(joined, lhs->at, lhs->len);
            memcpy(joined + lhs->len, rhs->at, rhs->len);
            joined[lhs->len + rhs->len] = 0;
            body.v[body.n - 1] = retok(joined, b->at);
            for (int r = 1; r < rn; r++)
                vpush(&body, rhs[r]);
            continue;
        }
        if (param >= 0) {
            int pasting = k + 1 < m->nbody && tok_is(&m->body[k + 1], "##");
            if (pasting)
                for (int r = starts[param]; r < ends[param]; r++)
                    vpush(&body, in[r]);
            else
                expand_list(&in[starts[param]], ends[param] - starts[param], &body);
            continue;
        }
        vpush(&body, *b);
    }
    m->busy = 1;
    expand_list(body.v, body.n, out);
    m->busy = 0;
    free(body.v);
}

static void expand_list(Token *in, int n, TokVec *out)
{
    int i = 0;
    while (i < n)
        expand_one(in, n, &i, out);
}

static void preprocess_file(const char *path, const char *at, TokVec *out, int depth);

/* The value of an #if line's tokens. */
static long if_value(Token *line, int n, const char *at)
{
    TokVec pre = {0}, exp = {0};
    for (int i = 0; i < n; i++) {
        if (tok_is(&line[i], "defined")) {
            int paren = i + 1 < n && tok_is(&line[i + 1], "(");
            int k = i + 1 + paren;
            if (k >= n || !is_name(&line[k]))
                error_at(line[i].at, "defined needs a name");
            Token one = line[i];
            one.kind = T_NUM;
            one.val = find_macro(&line[k]) != 0;
            vpush(&pre, one);
            i = k + paren;
            continue;
        }
        vpush(&pre, line[i]);
    }
    expand_list(pre.v, pre.n, &exp);
    for (int i = 0; i < exp.n; i++)
        if (is_name(&exp.v[i])) { /* what is left of names is 0 */
            exp.v[i].kind = T_NUM;
            exp.v[i].val = 0;
        }
    Token eof = {0};
    eof.kind = T_EOF;
    eof.at = at;
    vpush(&exp, eof);
    Token *saved = toks;
    int saved_pos = pos;
    toks = exp.v;
    pos = 0;
    long v = const_expr();
    if (toks[pos].kind != T_EOF)
        error_at(toks[pos].at, "junk at the end of #if");
    toks = saved;
    pos = saved_pos;
    return v;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    char *d = malloc(slash - path + 1);
    memcpy(d, path, slash - path);
    d[slash - path] = 0;
    return d;
}

static int file_exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != 0;
}

/* Runs the directives of `in` (one file's tokens) and expands the rest into out. */
static void preprocess(Token *in, int n, const char *path, TokVec *out, int depth)
{
    /* #if nesting: whether this level is on, whether a branch of it was taken. */
    int on[64], taken[64], level = 0;
    int i = 0;
    while (i < n && in[i].kind != T_EOF) {
        int active = 1;
        for (int l = 0; l < level; l++)
            active &= on[l];
        if (!(tok_is(&in[i], "#") && in[i].bol)) {
            if (!active) {
                i++;
                continue;
            }
            /* Expansion stays within the line run up to the next directive. */
            int end = i;
            while (end < n && in[end].kind != T_EOF && !(tok_is(&in[end], "#") && in[end].bol))
                end++;
            while (i < end) {
                expand_site = in[i].at;
                expand_one(in, end, &i, out);
            }
            expand_site = 0;
            continue;
        }
        Token *hash = &in[i++];
        int end = i;
        while (end < n && in[end].kind != T_EOF && !in[end].bol)
            end++;
        Token *d = &in[i];
        Token *args = &in[i + 1];
        int nargs = end - i - 1;
        if (i == end) { /* a lone # */
            i = end;
            continue;
        }
        if (tok_is(d, "if") || tok_is(d, "ifdef") || tok_is(d, "ifndef")) {
            if (level == 64)
                error_at(d->at, "#if nested too deep");
            int v = 0;
            if (active) {
                if (tok_is(d, "if"))
                    v = if_value(args, nargs, d->at) != 0;
                else {
                    if (nargs < 1 || !is_name(args))
                        error_at(d->at, "#ifdef needs a name");
                    v = (find_macro(args) != 0) == tok_is(d, "ifdef");
                }
            }
            on[level] = v;
            taken[level++] = v || !active;
        } else if (tok_is(d, "elif")) {
            if (!level)
                error_at(d->at, "#elif without #if");
            int outer = 1;
            for (int l = 0; l < level - 1; l++)
                outer &= on[l];
            int v = !taken[level - 1] && outer && if_value(args, nargs, d->at) != 0;
            on[level - 1] = v;
            taken[level - 1] |= v;
        } else if (tok_is(d, "else")) {
            if (!level)
                error_at(d->at, "#else without #if");
            on[level - 1] = !taken[level - 1];
            taken[level - 1] = 1;
        } else if (tok_is(d, "endif")) {
            if (!level)
                error_at(d->at, "#endif without #if");
            level--;
        } else if (!active) {
            /* skipped */
        } else if (tok_is(d, "define")) {
            if (nargs < 1 || !is_name(args))
                error_at(d->at, "#define needs a name");
            Macro *m = calloc(1, sizeof(Macro));
            m->name = tok_text(args);
            int k = 1;
            /* A function-like macro's ( follows its name at once. */
            if (k < nargs && tok_is(&args[k], "(") && args[k].at == args[0].at + args[0].len) {
                m->fnlike = 1;
                k++;
                while (!tok_is(&args[k], ")")) {
                    if (k >= nargs)
                        error_at(d->at, "unterminated macro parameters");
                    if (m->nparams && !tok_is(&args[k++], ","))
                        error_at(args[k - 1].at, "expected ','");
                    if (m->nparams == 32)
                        error_at(args[k].at, "too many macro parameters");
                    if (tok_is(&args[k], "...")) {
                        m->variadic = 1;
                        m->params[m->nparams++] = "__VA_ARGS__";
                    } else if (is_name(&args[k]))
                        m->params[m->nparams++] = tok_text(&args[k]);
                    else
                        error_at(args[k].at, "expected a parameter name");
                    k++;
                }
                k++;
            }
            m->body = &args[k];
            m->nbody = nargs - k;
            undef(args);
            unsigned h = text_hash(args->at, args->len) % MACRO_BUCKETS;
            m->next = macros[h];
            macros[h] = m;
        } else if (tok_is(d, "undef")) {
            if (nargs >= 1)
                undef(args);
        } else if (tok_is(d, "include")) {
            if (depth > 32)
                error_at(d->at, "#include nested too deep");
            char name[512];
            if (nargs >= 1 && args[0].kind == T_STR) {
                char *dir = dir_of(path);
                snprintf(name, sizeof name, "%s/%s", dir, args[0].str);
                if (!file_exists(name)) {
                    snprintf(name, sizeof name, "%s", args[0].str);
                    if (!file_exists(name))
                        error_at(args[0].at, "included file not found");
                }
            } else if (nargs >= 3 && tok_is(&args[0], "<")) {
                char rel[256] = {0};
                int k = 1;
                for (; k < nargs && !tok_is(&args[k], ">"); k++)
                    if ((int)(strlen(rel) + args[k].len) < 255)
                        strncat(rel, args[k].at, args[k].len);
                name[0] = 0;
                for (int dI = 0; dI < ninclude_dirs; dI++) {
                    snprintf(name, sizeof name, "%s/%s", include_dirs[dI], rel);
                    if (file_exists(name))
                        break;
                    name[0] = 0;
                }
                if (!name[0])
                    error_at(args[0].at, "included file not found");
            } else {
                error_at(d->at, "#include expects \"FILE\" or <FILE>");
            }
            preprocess_file(strdup(name), hash->at, out, depth + 1);
        } else if (tok_is(d, "error")) {
            error_at(d->at, "#error");
        } else if (tok_is(d, "line")) {
            if (nargs < 1 || args[0].kind != T_NUM || (nargs > 1 && args[1].kind != T_STR))
                error_at(d->at, "#line needs a line number and maybe a file name");
            if (nline_marks == 256)
                error_at(d->at, "too many #line directives");
            const char *nl = d->at;
            while (*nl && *nl != '\n')
                nl++;
            line_marks[nline_marks++] = (LineMark){nl, (int)args[0].val,
                                                   nargs > 1 ? args[1].str : path};
        } else if (tok_is(d, "pragma")) {
            /* accepted, nothing to do */
        } else {
            error_at(d->at, "unknown directive");
        }
        i = end;
    }
    if (level)
        error_at(in[i < n ? i : n - 1].at, "#if without #endif");
}

static char *read_file(const char *path);

/* Adjacent string literals become one (translation phase 6). */
static void join_strings(TokVec *v)
{
    int out = 0;
    for (int i = 0; i < v->n; i++) {
        Token *t = &v->v[i];
        if (out && t->kind == T_STR && v->v[out - 1].kind == T_STR) {
            Token *p = &v->v[out - 1];
            char *s = xalloc(malloc(p->str_len + t->str_len + 1));
            memcpy(s, p->str, p->str_len);
            memcpy(s + p->str_len, t->str, t->str_len + 1);
            p->str = s;
            p->str_len += t->str_len;
            continue;
        }
        v->v[out++] = *t;
    }
    v->n = out;
}

/* -D and -U from the command line, as lines of directives. */
static char *cmdline_defs;

/* What every file sees defined before its first line: this compiler, the target. */
static const char predefined[] = "#define __garmcc__ 1\n"
                                 "#define __aarch64__ 1\n"
                                 "#define __LP64__ 1\n"
                                 "#define __STDC__ 1\n"
                                 "#define __STDC_VERSION__ 199901L\n"
                                 "#define __STDC_HOSTED__ 1\n"
                                 "#define __ORDER_LITTLE_ENDIAN__ 1234\n"
                                 "#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__\n";

static void preprocess_file(const char *path, const char *at, TokVec *out, int depth)
{
    if (nfiles == 256)
        error_at(at, "too many files");
    File *f = &files[nfiles++];
    f->name = path;
    f->text = read_file(path);
    f->len = (long)strlen(f->text);
    TokVec v = tokenize(f->text);
    preprocess(v.v, v.n, path, out, depth);
}

static Token *tok(void) { return &toks[pos]; }

static int is(const char *s)
{
    Token *t = tok();
    return (t->kind == T_PUNCT || t->kind == T_KEYWORD) && spells(t->at, t->len, s);
}

static int accept(const char *s)
{
    if (is(s)) {
        pos++;
        return 1;
    }
    return 0;
}

static void expect(const char *s)
{
    if (!accept(s)) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected '%s'", s);
        error_at(tok()->at, msg);
    }
}

static char *ident(void)
{
    Token *t = tok();
    if (t->kind != T_IDENT)
        error_at(t->at, "expected an identifier");
    pos++;
    char *s = malloc(t->len + 1);
    memcpy(s, t->at, t->len);
    s[t->len] = 0;
    return s;
}

/* ---- types ---- */

enum { TY_VOID, TY_CHAR, TY_SHORT, TY_INT, TY_LONG, TY_PTR, TY_ARRAY, TY_STRUCT, TY_FUNC, TY_FLOAT };

typedef struct Member {
    char *name;
    struct Type *ty;
    int offset;
    struct Member *next;
} Member;

typedef struct Type {
    int kind;
    int size;
    struct Type *base;
    int len;
    int is_unsigned;
    int align;
    Member *members; /* a struct's, in order */
    int complete;
    /* A bit-field's type: its width and lowest bit in the unit of its declared type (origin)
     * that its member's offset names. */
    int bits, bitpos, unit; /* unit: the bytes loaded and stored for it */
    struct Type *origin;
    struct Node *vla_len; /* a variable-length array's element count (an expression) */
    struct Var *vla_size; /* and the frame slot its declaration keeps its byte size in */
} Type;

/* Plain char is signed, as garm's clang builds have it (-fsigned-char: the same on the host's
 * JIT oracle), though AAPCS64 makes it unsigned. */
static Type ty_void = {TY_VOID, 1, 0, 0, 0, 1, 0, 1}, ty_char = {TY_CHAR, 1, 0, 0, 0, 1, 0, 1},
            ty_uchar = {TY_CHAR, 1, 0, 0, 1, 1, 0, 1},
            ty_schar = {TY_CHAR, 1, 0, 0, 0, 1, 0, 1}, ty_short = {TY_SHORT, 2, 0, 0, 0, 2, 0, 1},
            ty_ushort = {TY_SHORT, 2, 0, 0, 1, 2, 0, 1}, ty_int = {TY_INT, 4, 0, 0, 0, 4, 0, 1},
            ty_uint = {TY_INT, 4, 0, 0, 1, 4, 0, 1}, ty_long = {TY_LONG, 8, 0, 0, 0, 8, 0, 1},
            ty_ulong = {TY_LONG, 8, 0, 0, 1, 8, 0, 1};
/* Floating types are known to declarations (the headers have them); values of them are not
 * compiled yet. */
/* __int128: 16 bytes, 16-aligned; its values are addresses of 16-byte places, as a struct's. */
static Type ty_i128 = {TY_LONG, 16, 0, 0, 0, 16, 0, 1}, ty_u128 = {TY_LONG, 16, 0, 0, 1, 16, 0, 1};
/* Floating values are their bits in x0 (a float's zero-extended), moved to d0/s0 around each
 * operation. */
static Type ty_float = {TY_FLOAT, 4, 0, 0, 1, 4, 0, 1}, ty_double = {TY_FLOAT, 8, 0, 0, 0, 8, 0, 1},
            ty_ldouble = {TY_FLOAT, 16, 0, 0, 0, 16, 0, 1}, ty_bool = {TY_CHAR, 1, 0, 0, 1, 1, 0, 1};

static Type *ptr_to(Type *base)
{
    Type *t = calloc(1, sizeof(Type));
    t->kind = TY_PTR;
    t->size = 8;
    t->align = 8;
    t->is_unsigned = 1;
    t->base = base;
    return t;
}

static Type *array_of(Type *base, int len)
{
    Type *t = calloc(1, sizeof(Type));
    t->kind = TY_ARRAY;
    t->size = len < 0 ? 0 : base->size * len;
    t->align = base->align;
    t->base = base;
    t->len = len;
    return t;
}

/* A function returning `ret` (its parameters are not kept: calls pass what they are given). */
static Type *func_of(Type *ret)
{
    Type *t = calloc(1, sizeof(Type));
    t->kind = TY_FUNC;
    t->size = 1;
    t->align = 1;
    t->base = ret;
    t->complete = 1;
    return t;
}

static int is_func(Type *t) { return t->kind == TY_FUNC || (t->kind == TY_PTR && t->base->kind == TY_FUNC); }

/* Registers a value of type t takes as an argument (AAPCS64, no floating point): a struct of up
 * to 16 bytes one or two, a larger one goes by address, the rest one. */
static int arg_regs(Type *t)
{
    if (t->kind == TY_LONG && t->size == 16)
        return 2;
    return t->kind == TY_STRUCT && t->size <= 16 ? (t->size + 7) / 8 : 1;
}

/* Where AAPCS64 puts n arguments of types ty: reg[i], the first x register of the i-th (its v
 * register for a floating one), or -1 and then slot[i], its first 8-byte stack slot (once one
 * of a class is stacked, the rest of it are). Returns the stack slots used; *nreg, *nvreg: the
 * general and SIMD&FP registers used. */
static int arg_layout(Type **ty, int n, int *reg, int *slot, int *nreg, int *nvreg)
{
    int r = 0, s = 0, v = 0;
    for (int i = 0; i < n; i++) {
        int k = arg_regs(ty[i]);
        if (ty[i]->kind == TY_FLOAT) { /* v0-v7, then the stack */
            if (v < 8) {
                reg[i] = v++;
            } else {
                reg[i] = -1;
                slot[i] = s++;
            }
            continue;
        }
        if (ty[i]->kind == TY_LONG && ty[i]->size == 16) { /* an __int128: an even pair */
            r += r & 1;
            s += s & 1;
        }
        if (r + k <= 8) {
            reg[i] = r;
            r += k;
        } else {
            r = 8;
            reg[i] = -1;
            slot[i] = s;
            s += k;
        }
    }
    *nreg = r;
    *nvreg = v;
    return s;
}

static int is_integer(Type *t) { return t->kind >= TY_CHAR && t->kind <= TY_LONG; }
static int is_wide(Type *t) { return t && t->kind == TY_LONG && t->size == 16; }
static int is_flt(Type *t) { return t && t->kind == TY_FLOAT; }
static int is_arith(Type *t) { return is_integer(t) || is_flt(t); }
/* Whether a value of type `from` needs converting to be one of type `to`. */
static int needs_conv(Type *from, Type *to)
{
    if (!is_arith(from) || !is_arith(to))
        return 0;
    if (is_flt(from) || is_flt(to))
        return !is_flt(from) || !is_flt(to) || from->size != to->size;
    return is_wide(from) != is_wide(to);
}
/* Passed and returned as two x registers from an address: small structs, __int128. */
static int in_pair(Type *t) { return (t->kind == TY_STRUCT && t->size <= 16) || is_wide(t); }
static int is_pointer(Type *t) { return t->kind == TY_PTR || t->kind == TY_ARRAY; }

/* ---- the tree ---- */

enum {
    N_NUM, N_VAR, N_STR, N_ADD, N_SUB, N_MUL, N_DIV, N_MOD, N_SHL, N_SHR, N_AND, N_OR, N_XOR,
    N_EQ, N_NE, N_LT, N_LE, N_LOGAND, N_LOGOR, N_NOT, N_BITNOT, N_NEG, N_ADDR, N_DEREF,
    N_ASSIGN, N_COND, N_CALL, N_COMMA, N_CAST, N_PREINC, N_POSTINC, N_MEMBER,
    N_RETURN, N_IF, N_WHILE, N_DO, N_FOR, N_BLOCK, N_EXPR, N_BREAK, N_CONTINUE, N_NOP,
    N_SWITCH, N_CASE, N_ZERO, N_LABEL, N_GOTO, N_FUNCADDR, N_STMTEXPR, N_VASTART, N_VAARG, N_A64,
    N_OVERFLOW, N_OPASSIGN, N_OLDVAL, N_VLA
};

/* A name in a scope: a variable, a typedef, or an enum constant. */
typedef struct Var {
    char *name;
    Type *ty;
    int global;
    int offset; /* locals: below x29; globals: in the data */
    int is_typedef, is_enum;
    long val; /* an enum constant's */
    int file; /* 1 + the file it belongs to (typedefs, enum constants, statics); 0: program-wide */
    int from_lib; /* a library's global, typed by the first declaration that meets it */
    int pending;  /* an extern array of unknown length not defined yet: no place so far */
    int vla;      /* a variable-length array: its slot holds the address of its bytes */
    struct Var *next;
} Var;

/* A struct tag in a scope. */
typedef struct Tag {
    char *name;
    Type *ty;
    struct Tag *next;
} Tag;

typedef struct Node {
    int kind;
    Type *ty;
    struct Node *a, *b, *c, *d; /* operands; for/if parts */
    struct Node *next;          /* statements in a block, arguments of a call */
    long val;                   /* N_NUM; N_PREINC/N_POSTINC: the step */
    Var *var;
    char *name; /* N_CALL */
    Member *mem; /* N_MEMBER */
    int label, jump; /* N_CASE: its place and the branch to it */
    unsigned word;          /* N_A64: one instruction */
    const unsigned *words;  /* N_A64: a builtin's instructions (0-terminated after the first) */
    const char *at;
} Node;

static Node *node(int kind, const char *at)
{
    Node *n = calloc(1, sizeof(Node));
    n->kind = kind;
    n->at = at;
    return n;
}

/* Functions declared or defined so far, with what they return. */
typedef struct FuncDecl {
    char *name;
    Type *ret;
    /* Its parameters' types, once a prototype or definition gave them (arguments convert). */
    int proto, nparams, variadic;
    Type *params[16];
    struct FuncDecl *next;
} FuncDecl;
#define FUNC_BUCKETS 1024
static FuncDecl *fdecls[FUNC_BUCKETS]; /* by a hash of the name */
static Type *cur_ret;
static char *cur_func_name; /* __func__ */
/* In a variadic function: its named parameters' registers and where x0-x7 are saved. */
static int cur_variadic, cur_named_regs, cur_named_stack, va_area;
static int cur_named_vregs, vr_area; /* and q0-q7, saved for va_arg of floating types */

/* This file's static functions: their names and the program-wide names they get. */
typedef struct Alias {
    char *name, *internal;
    struct Alias *next;
} Alias;
static Alias *aliases;
static int file_no;
static int lib_files; /* the files a loaded library was made of: this program's are numbered on */

static char *internal_name(const char *name)
{
    for (Alias *a = aliases; a; a = a->next)
        if (!strcmp(a->name, name))
            return a->internal;
    return (char *)name;
}

static FuncDecl *find_func(const char *name);

/* A function's name and what it returns, known from here on (the first declaration counts). */
static void declare_func(char *name, Type *ret)
{
    if (find_func(name))
        return;
    FuncDecl *fd = calloc(1, sizeof(FuncDecl));
    fd->name = name;
    fd->ret = ret;
    unsigned h = text_hash(name, (int)strlen(name)) % FUNC_BUCKETS;
    fd->next = fdecls[h];
    fdecls[h] = fd;
}

static FuncDecl *find_func(const char *name)
{
    name = internal_name(name);
    for (FuncDecl *f = fdecls[text_hash(name, (int)strlen(name)) % FUNC_BUCKETS]; f; f = f->next)
        if (!strcmp(f->name, name))
            return f;
    return 0;
}

/* Locals innermost first; file-scope names by a hash of the name (each chain newest first). */
#define GLOBAL_BUCKETS 2048
static Var *locals, *globals[GLOBAL_BUCKETS];

static Var **global_chain(const char *name, int len)
{
    return &globals[text_hash(name, len) % GLOBAL_BUCKETS];
}

static void add_global(Var *v)
{
    Var **chain = global_chain(v->name, (int)strlen(v->name));
    v->next = *chain;
    *chain = v;
}
static Tag *tags;
static int frame_size, in_func;
static Node *cur_switch;

static Var *find_var_n(const char *name, int len)
{
    for (int g = 0; g < 2; g++)
        for (Var *v = g ? *global_chain(name, len) : locals; v; v = v->next)
            if ((!v->file || v->file == file_no + 1) && !v->from_lib && spells(name, len, v->name))
                return v;
    return 0;
}

static Var *find_var(const char *name) { return find_var_n(name, (int)strlen(name)); }

/* __builtin_va_list as AAPCS64 lays it out: the next stacked argument, the end of the saved
 * general registers, the end of the saved FP registers, and the (negative) offsets of the
 * next unread register in each save area. */
static Type *va_list_type(void);

/* The data image: globals and string literals. */
static unsigned char *data;
static int data_len, data_cap;

static int data_alloc(int size, int align)
{
    data_len = (data_len + align - 1) / align * align;
    if (data_len + size > data_cap) {
        while (data_len + size > data_cap)
            data_cap = data_cap ? data_cap * 2 : 4096;
        data = realloc(data, data_cap);
    }
    memset(data + data_len, 0, size);
    int at = data_len;
    data_len += size;
    return at;
}

/* The usual arithmetic conversions: char and short promote to int; then the larger rank, and
 * unsigned where either of that rank is. */
static Type *promote(Type *t)
{
    if (t->bits) /* a bit-field whose values all fit an int is one */
        return t->bits < 32 || (t->bits == 32 && !t->is_unsigned) ? &ty_int : t->origin;
    return t->kind == TY_CHAR || t->kind == TY_SHORT ? &ty_int : t;
}

static Type *arith(Type *a, Type *b)
{
    if (is_flt(a) || is_flt(b))
        return (is_flt(a) && a->size == 8) || (is_flt(b) && b->size == 8) ? &ty_double : &ty_float;
    a = promote(a);
    b = promote(b);
    if (is_wide(a) || is_wide(b))
        return (is_wide(a) && a->is_unsigned) || (is_wide(b) && b->is_unsigned) ? &ty_u128 : &ty_i128;
    if (a->kind == TY_LONG || b->kind == TY_LONG)
        return (a->kind == TY_LONG && a->is_unsigned) || (b->kind == TY_LONG && b->is_unsigned)
                   ? &ty_ulong
                   : &ty_long;
    return a->is_unsigned || b->is_unsigned ? &ty_uint : &ty_int;
}

static void add_type(Node *n);
static void add_type_of(Node *n);

static long eval(Node *n);

static Node *new_binary(int kind, Node *a, Node *b, const char *at)
{
    Node *n = node(kind, at);
    n->a = a;
    n->b = b;
    add_type(n);
    /* Constants fold, in their types (a division by zero is left to run). */
    if (a->kind == N_NUM && b->kind == N_NUM && is_integer(n->ty) && !is_wide(n->ty) && is_integer(a->ty) &&
        is_integer(b->ty) && kind != N_ASSIGN && kind != N_COMMA &&
        !((kind == N_DIV || kind == N_MOD) && !b->val)) {
        Node *c = node(N_NUM, at);
        c->val = eval(n);
        c->ty = n->ty;
        return c;
    }
    return n;
}

static Node *new_num(long v, const char *at)
{
    Node *n = node(N_NUM, at);
    n->val = v;
    n->ty = &ty_long;
    return n;
}

static Var *new_var(char *name, Type *ty, int global);

/* A frame place for an __int128 a node makes. */
static Var *wide_slot(const char *at)
{
    if (!in_func)
        error_at(at, "__int128 arithmetic outside a function (not yet)");
    return new_var("", &ty_i128, 0);
}

/* e converted to ty (an __int128 made from a narrower value gets its own place). */
static Node *cast_to(Node *e, Type *ty)
{
    add_type(e);
    Node *c = node(N_CAST, e->at);
    c->a = e;
    c->ty = ty;
    if (is_wide(ty) && !is_wide(e->ty) && in_func) /* (a static initialiser's is folded) */
        c->var = wide_slot(e->at);
    return c;
}

/* After typing a node: __int128 operands and results. Narrower operands are converted (casts
 * inserted), results get a place, division is refused. */
static void widen(Node *n)
{
    switch (n->kind) {
    case N_ADD: case N_SUB: case N_MUL: case N_AND: case N_OR: case N_XOR:
    case N_EQ: case N_NE: case N_LT: case N_LE: case N_DIV: case N_MOD: {
        if (is_pointer(n->a->ty) || is_pointer(n->b->ty))
            return;
        Type *t = arith(n->a->ty, n->b->ty);
        if (is_flt(t)) {
            if (n->kind == N_MOD || n->kind == N_AND || n->kind == N_OR || n->kind == N_XOR)
                error_at(n->at, "an integer operation on a floating value");
            if (needs_conv(n->a->ty, t))
                n->a = cast_to(n->a, t);
            if (needs_conv(n->b->ty, t))
                n->b = cast_to(n->b, t);
            return;
        }
        if (!is_wide(t))
            return;
        if (n->kind == N_DIV || n->kind == N_MOD)
            error_at(n->at, "division of __int128 (not yet)");
        if (!is_wide(n->a->ty))
            n->a = cast_to(n->a, t);
        if (!is_wide(n->b->ty))
            n->b = cast_to(n->b, t);
        break;
    }
    case N_ASSIGN:
        if (needs_conv(n->b->ty, n->a->ty))
            n->b = cast_to(n->b, n->a->ty);
        return;
    case N_SHL: case N_SHR: case N_BITNOT:
        if (is_flt(n->a->ty) || (n->b && is_flt(n->b->ty)))
            error_at(n->at, "an integer operation on a floating value");
        break;
    case N_NEG:
        break;
    case N_PREINC: case N_POSTINC:
        if (is_wide(n->ty))
            error_at(n->at, "++ and -- on __int128 (not yet)");
        return;
    default:
        return;
    }
    if (is_wide(n->ty) && !n->var)
        n->var = wide_slot(n->at);
}

static void add_type(Node *n)
{
    if (!n || n->ty)
        return;
    add_type_of(n);
    widen(n);
}

static void add_type_of(Node *n)
{
    switch (n->kind) {
    case N_ADD: case N_SUB: case N_MUL: case N_DIV: case N_MOD: case N_AND: case N_OR:
    case N_XOR:
        n->ty = is_pointer(n->a->ty) ? n->a->ty : arith(n->a->ty, n->b->ty);
        if (n->ty->kind == TY_ARRAY)
            n->ty = ptr_to(n->ty->base);
        break;
    case N_SHL: case N_SHR: case N_NEG: case N_BITNOT:
        n->ty = promote(n->a->ty);
        break;

    case N_EQ: case N_NE: case N_LT: case N_LE: case N_LOGAND: case N_LOGOR: case N_NOT:
        n->ty = &ty_int;
        break;
    case N_ASSIGN: case N_PREINC: case N_POSTINC:
        n->ty = n->a->ty;
        break;
    case N_COMMA:
        n->ty = n->b->ty;
        break;
    case N_COND:
        if (is_pointer(n->b->ty) || n->b->ty->kind == TY_STRUCT || n->b->ty->kind == TY_VOID)
            n->ty = n->b->ty;
        else if (is_pointer(n->c->ty))
            n->ty = n->c->ty; /* 0 or a pointer */
        else {
            /* Both arms converted to their common type. */
            n->ty = arith(n->b->ty, n->c->ty);
            for (int k = 0; k < 2; k++) {
                Node **arm = k ? &n->c : &n->b;
                if ((*arm)->ty != n->ty) {
                    Node *c = node(N_CAST, (*arm)->at);
                    c->a = *arm;
                    c->ty = n->ty;
                    *arm = c;
                }
            }
        }
        if (n->ty->kind == TY_ARRAY)
            n->ty = ptr_to(n->ty->base);
        break;
    case N_ADDR:
        n->ty = n->a->ty->kind == TY_FUNC ? n->a->ty : ptr_to(n->a->ty); /* &array: to the array */
        break;
    case N_DEREF:
        if (n->a->ty->kind == TY_FUNC || (n->a->ty->kind == TY_PTR && n->a->ty->base->kind == TY_FUNC)) {
            n->ty = n->a->ty; /* *f: the function again */
            break;
        }
        if (!is_pointer(n->a->ty))
            error_at(n->at, "dereferencing a value that is not a pointer");
        n->ty = n->a->ty->base;
        break;
    default:
        n->ty = &ty_long;
    }
}

/* p + i scales i by the pointee's size; p - q counts elements. */
static Node *new_add(Node *a, Node *b, const char *at)
{
    add_type(a);
    add_type(b);
    if (is_arith(a->ty) && is_arith(b->ty))
        return new_binary(N_ADD, a, b, at);
    if (is_pointer(a->ty) && is_pointer(b->ty))
        error_at(at, "adding two pointers");
    if (!is_pointer(a->ty)) {
        Node *t = a;
        a = b;
        b = t;
    }
    b = new_binary(N_MUL, b, new_num(a->ty->base->size, at), at);
    return new_binary(N_ADD, a, b, at);
}

static Node *new_sub(Node *a, Node *b, const char *at)
{
    add_type(a);
    add_type(b);
    if (is_arith(a->ty) && is_arith(b->ty))
        return new_binary(N_SUB, a, b, at);
    if (is_pointer(a->ty) && is_integer(b->ty)) {
        b = new_binary(N_MUL, b, new_num(a->ty->base->size, at), at);
        Node *n = new_binary(N_SUB, a, b, at);
        n->ty = a->ty->kind == TY_ARRAY ? ptr_to(a->ty->base) : a->ty;
        return n;
    }
    if (is_pointer(a->ty) && is_pointer(b->ty)) {
        Node *n = new_binary(N_SUB, a, b, at);
        n->ty = &ty_long;
        return new_binary(N_DIV, n, new_num(a->ty->base->size, at), at);
    }
    error_at(at, "invalid operands to -");
    return 0;
}

/* ---- the parser ---- */

static Node *expr(void);
static Node *assign(void);
static Node *stmt(void);
static Node *unary(void);

static int is_type_at(int i)
{
    Token *t = &toks[i];
    static const char *names[] = {"int",   "long",     "char",   "void",   "short",
                                  "unsigned", "signed", "const", "volatile", "static",
                                  "extern", "struct",  "enum",   "typedef", "float",
                                  "double", "_Bool", "union", 0};
    if (t->kind == T_IDENT && tok_is(t, "__builtin_va_list"))
        return 1;
    if (t->kind == T_IDENT) {
        /* What skip_attrs passes over may begin a declaration too. */
        static const char *quals[] = {"register", "auto", "inline", "__inline", "_Noreturn",
                                      "__extension__", "__int128", "__int128_t", "__uint128_t", 0};
        for (int k = 0; quals[k]; k++)
            if (spells(t->at, t->len, quals[k]))
                return 1;
        Var *v = find_var_n(t->at, t->len);
        return v && v->is_typedef;
    }
    if (t->kind != T_KEYWORD)
        return 0;
    for (int k = 0; names[k]; k++)
        if (spells(t->at, t->len, names[k]))
            return 1;
    return 0;
}

static int is_typename(void) { return is_type_at(pos); }

/* "(" followed by a type: a cast or sizeof(type). */
static int paren_type(void) { return is("(") && is_type_at(pos + 1); }

static int saw_typedef, saw_static, saw_extern;
static int saw_extern_tu; /* the file-scope declaration being read is extern */

/* Builtins that are a few instructions on their first operand (in x0, the result too), or
 * (kind) the checked arithmetic the parser makes a node of. */
enum { BUILTIN_WORDS, BUILTIN_EXPECT, BUILTIN_OVERFLOW, BUILTIN_CONST };
typedef struct Builtin {
    const char *name;
    int nargs, kind;
    const unsigned *words; /* BUILTIN_WORDS: the instructions, 0-terminated after the first */
    Type *ty;
    int op; /* BUILTIN_OVERFLOW: N_ADD, N_SUB or N_MUL */
} Builtin;

static const unsigned w_clz32[] = {0x5ac01000u, 0};             /* clz w0, w0 */
static const unsigned w_clz64[] = {0xdac01000u, 0};             /* clz x0, x0 */
static const unsigned w_ctz32[] = {0x5ac00000u, 0x5ac01000u, 0}; /* rbit, clz */
static const unsigned w_ctz64[] = {0xdac00000u, 0xdac01000u, 0};
static const unsigned w_cls32[] = {0x5ac01400u, 0};             /* cls w0, w0 */
static const unsigned w_cls64[] = {0xdac01400u, 0};
static const unsigned w_rev16[] = {0x5ac00400u, 0};             /* rev16 w0, w0 */
static const unsigned w_rev32[] = {0x5ac00800u, 0};             /* rev w0, w0 */
static const unsigned w_rev64[] = {0xdac00c00u, 0};             /* rev x0, x0 */
static const unsigned w_trap[] = {0xd4207d00u, 0};              /* brk #1000, as clang */
static const unsigned w_udf[] = {0, 0};                         /* udf #0 */
/* Population count without SIMD: pairs, nibbles, bytes, then the bytes summed into the top. */
#define POPCOUNT64                                                                          \
    0xd341fc01u, /* lsr x1, x0, #1 */ 0x9200f021u, /* and x1, x1, #0x5555555555555555 */    \
        0xcb010000u, /* sub x0, x0, x1 */ 0x9200e401u, /* and x1, x0, #0x3333333333333333 */ \
        0xd342fc00u, /* lsr x0, x0, #2 */ 0x9200e400u, /* and x0, x0, #0x3333333333333333 */ \
        0x8b010000u, /* add x0, x0, x1 */ 0x8b401000u, /* add x0, x0, x0, lsr #4 */          \
        0x9200cc00u, /* and x0, x0, #0x0f0f0f0f0f0f0f0f */ 0x8b002000u, /* add .., lsl #8 */ \
        0x8b004000u, /* add .., lsl #16 */ 0x8b008000u, /* add .., lsl #32 */                \
        0xd378fc00u /* lsr x0, x0, #56 */
static const unsigned w_pop64[] = {POPCOUNT64, 0};
static const unsigned w_pop32[] = {0x2a0003e0u /* mov w0, w0 */, POPCOUNT64, 0};
static const unsigned w_par64[] = {POPCOUNT64, 0x92400000u /* and x0, x0, #1 */, 0};
static const unsigned w_par32[] = {0x2a0003e0u, POPCOUNT64, 0x92400000u, 0};
/* ffs: the lowest set bit's number from 1, 0 for none. */
#define FFS64                                                                               \
    0xdac00001u, /* rbit x1, x0 */ 0xdac01021u, /* clz x1, x1 */ 0x91000421u, /* add x1, x1, #1 */ \
        0xf100001fu, /* cmp x0, #0 */ 0x9a9f1020u /* csel x0, x1, xzr, ne */
static const unsigned w_ffs64[] = {FFS64, 0};
/* Square root and absolute value of the bits in x0. */
static const unsigned w_sqrt[] = {0x9e670000u, 0x1e61c000u, 0x9e660000u, 0};  /* fmov d0, x0; fsqrt; fmov */
static const unsigned w_sqrtf[] = {0x1e270000u, 0x1e21c000u, 0x1e260000u, 0}; /* fmov s0, w0; fsqrt; fmov */
static const unsigned w_fabs[] = {0x9240f800u, 0};  /* and x0, x0, #0x7fffffffffffffff */
static const unsigned w_fabsf[] = {0x12007800u, 0}; /* and w0, w0, #0x7fffffff */
static const unsigned w_ffs32[] = {0x2a0003e0u, FFS64, 0};

static const Builtin *builtin_named(const char *name)
{
    static Builtin table[] = {
        {"__builtin_clz", 1, BUILTIN_WORDS, w_clz32, &ty_int, 0},
        {"__builtin_clzl", 1, BUILTIN_WORDS, w_clz64, &ty_int, 0},
        {"__builtin_clzll", 1, BUILTIN_WORDS, w_clz64, &ty_int, 0},
        {"__builtin_ctz", 1, BUILTIN_WORDS, w_ctz32, &ty_int, 0},
        {"__builtin_ctzl", 1, BUILTIN_WORDS, w_ctz64, &ty_int, 0},
        {"__builtin_ctzll", 1, BUILTIN_WORDS, w_ctz64, &ty_int, 0},
        {"__builtin_clrsb", 1, BUILTIN_WORDS, w_cls32, &ty_int, 0},
        {"__builtin_clrsbl", 1, BUILTIN_WORDS, w_cls64, &ty_int, 0},
        {"__builtin_clrsbll", 1, BUILTIN_WORDS, w_cls64, &ty_int, 0},
        {"__builtin_popcount", 1, BUILTIN_WORDS, w_pop32, &ty_int, 0},
        {"__builtin_popcountl", 1, BUILTIN_WORDS, w_pop64, &ty_int, 0},
        {"__builtin_popcountll", 1, BUILTIN_WORDS, w_pop64, &ty_int, 0},
        {"__builtin_parity", 1, BUILTIN_WORDS, w_par32, &ty_int, 0},
        {"__builtin_parityl", 1, BUILTIN_WORDS, w_par64, &ty_int, 0},
        {"__builtin_parityll", 1, BUILTIN_WORDS, w_par64, &ty_int, 0},
        {"__builtin_ffs", 1, BUILTIN_WORDS, w_ffs32, &ty_int, 0},
        {"__builtin_ffsl", 1, BUILTIN_WORDS, w_ffs64, &ty_int, 0},
        {"__builtin_ffsll", 1, BUILTIN_WORDS, w_ffs64, &ty_int, 0},
        {"__builtin_bswap16", 1, BUILTIN_WORDS, w_rev16, &ty_ushort, 0},
        {"__builtin_bswap32", 1, BUILTIN_WORDS, w_rev32, &ty_uint, 0},
        {"__builtin_bswap64", 1, BUILTIN_WORDS, w_rev64, &ty_ulong, 0},
        {"__builtin_trap", 0, BUILTIN_WORDS, w_trap, &ty_void, 0},
        {"__builtin_unreachable", 0, BUILTIN_WORDS, w_udf, &ty_void, 0},
        {"__builtin_sqrt", 1, BUILTIN_WORDS, w_sqrt, &ty_double, 0},
        {"__builtin_sqrtf", 1, BUILTIN_WORDS, w_sqrtf, &ty_float, 0},
        {"__builtin_fabs", 1, BUILTIN_WORDS, w_fabs, &ty_double, 0},
        {"__builtin_fabsf", 1, BUILTIN_WORDS, w_fabsf, &ty_float, 0},
        {"__builtin_inf", 0, BUILTIN_CONST, 0, &ty_double, 0},
        {"__builtin_huge_val", 0, BUILTIN_CONST, 0, &ty_double, 0},
        {"__builtin_inff", 0, BUILTIN_CONST, 0, &ty_float, 0},
        {"__builtin_huge_valf", 0, BUILTIN_CONST, 0, &ty_float, 0},
        {"__builtin_nan", 1, BUILTIN_CONST, 0, &ty_double, 1},
        {"__builtin_nanf", 1, BUILTIN_CONST, 0, &ty_float, 1},
        {"__builtin_expect", 2, BUILTIN_EXPECT, 0, &ty_long, 0},
        {"__builtin_add_overflow", 3, BUILTIN_OVERFLOW, 0, &ty_int, N_ADD},
        {"__builtin_sub_overflow", 3, BUILTIN_OVERFLOW, 0, &ty_int, N_SUB},
        {"__builtin_mul_overflow", 3, BUILTIN_OVERFLOW, 0, &ty_int, N_MUL},
    };
    for (int i = 0; i < (int)(sizeof table / sizeof table[0]); i++)
        if (!strcmp(table[i].name, name))
            return &table[i];
    return 0;
}
static int saw_naked; /* __attribute__((naked)) since the last function: no frame, no return */
static int saw_packed, saw_aligned; /* __attribute__((packed)), ((aligned(N))) on a struct */

/* What declarations may carry that changes nothing here: __attribute__((...)), restrict,
 * inline, _Noreturn, register, auto. */
static int skip_attrs(void)
{
    int any = 0;
    for (;;) {
        Token *t = tok();
        if (t->kind == T_IDENT && (tok_is(t, "restrict") || tok_is(t, "__restrict") ||
                                   tok_is(t, "inline") || tok_is(t, "__inline") ||
                                   tok_is(t, "_Noreturn") || tok_is(t, "register") ||
                                   tok_is(t, "auto") || tok_is(t, "__extension__"))) {
            pos++;
            any = 1;
            continue;
        }
        if (t->kind == T_IDENT && (tok_is(t, "__attribute__") || tok_is(t, "__asm__"))) {
            pos++;
            expect("(");
            for (int depth = 1; depth;) {
                if (tok()->kind == T_EOF)
                    error_at(t->at, "unterminated __attribute__");
                if (is("("))
                    depth++;
                if (is(")"))
                    depth--;
                if (tok_is(tok(), "naked") || tok_is(tok(), "__naked__"))
                    saw_naked = 1;
                if (tok_is(tok(), "packed") || tok_is(tok(), "__packed__"))
                    saw_packed = 1;
                if ((tok_is(tok(), "aligned") || tok_is(tok(), "__aligned__")) && tok_is(&toks[pos + 1], "(") &&
                    toks[pos + 2].kind == T_NUM)
                    saw_aligned = (int)toks[pos + 2].val;
                pos++;
            }
            any = 1;
            continue;
        }
        return any;
    }
}
static Type *struct_decl(void);
static Type *enum_decl(void);

/* Declaration specifiers: the type they name (and whether `typedef` was among them). */
static Type *base_type(void)
{
    int nlong = 0, nshort = 0, nchar = 0, nvoid = 0, sgn = 0, uns = 0, n = 0, tdef = 0, stat = 0;
    int ext = 0;
    int nfloat = 0, ndouble = 0, nbool = 0, n128 = 0;
    Type *other = 0;
    for (;;) {
        Token *t = tok();
        if (accept("static")) {
            stat = 1;
            continue;
        }
        if (accept("extern")) {
            ext = 1;
            continue;
        }
        if (accept("const") || accept("volatile") || skip_attrs())
            continue;
        if (accept("typedef")) {
            tdef = 1;
            continue;
        }
        if (other)
            break;
        if (accept("long")) nlong++;
        else if (accept("short")) nshort++;
        else if (accept("int")) ;
        else if (accept("char")) nchar++;
        else if (accept("void")) nvoid++;
        else if (accept("float")) nfloat++;
        else if (accept("double")) ndouble++;
        else if (accept("_Bool")) nbool++;
        else if (accept("signed")) sgn++;
        else if (accept("unsigned")) uns++;
        else if (!n && (is("struct") || is("union"))) { other = struct_decl(); continue; }
        else if (!n && accept("enum")) { other = enum_decl(); continue; }
        else if (t->kind == T_IDENT && tok_is(t, "__int128")) { pos++; n128++; }
        else if (!n && t->kind == T_IDENT && (tok_is(t, "__int128_t") || tok_is(t, "__uint128_t"))) {
            other = tok_is(t, "__int128_t") ? &ty_i128 : &ty_u128;
            pos++;
            continue;
        }
        else if (!n && t->kind == T_IDENT && tok_is(t, "__builtin_va_list")) {
            pos++;
            other = va_list_type();
            continue;
        } else if (!n && t->kind == T_IDENT && is_type_at(pos)) {
            pos++;
            other = find_var_n(t->at, t->len)->ty;
            continue;
        } else
            break;
        n++;
    }
    /* (After the loop: a struct's members are declarations of their own.) */
    saw_typedef = tdef;
    saw_static = stat;
    saw_extern = ext;
    if (other)
        return other;
    if (!n)
        error_at(tok()->at, "expected a type");
    if (nvoid)
        return &ty_void;
    if (nfloat)
        return &ty_float;
    if (ndouble)
        return nlong ? &ty_ldouble : &ty_double;
    if (nbool)
        return &ty_bool;
    if (nchar)
        return uns ? &ty_uchar : sgn ? &ty_schar : &ty_char;
    if (n128)
        return uns ? &ty_u128 : &ty_i128;
    if (nshort)
        return uns ? &ty_ushort : &ty_short;
    if (nlong)
        return uns ? &ty_ulong : &ty_long;
    return uns ? &ty_uint : &ty_int;
}

static Type *pointers(Type *t);
static Type *declarator_suffix(Type *ty);
static Type *declarator(Type *base, char **name, const char **at);
static Node *conditional(void);

/* Whether a (folded) expression is a constant. */
static int constant(Node *n)
{
    return n->kind == N_NUM || (n->kind == N_CAST && is_integer(n->ty) && constant(n->a));
}

static long static_addr(Node *n, char **func);

/* v as a value of type ty: wrapped to its width, extended by its signedness. */
static long fit(long v, Type *ty)
{
    if (!ty || !is_integer(ty) || ty->size >= 8)
        return v;
    if (ty == &ty_bool)
        return v != 0;
    int bits = 8 * ty->size;
    unsigned long m = (1UL << bits) - 1, u = (unsigned long)v & m;
    if (!ty->is_unsigned && (u >> (bits - 1)) & 1)
        u |= ~m;
    return (long)u;
}

/* Whether a binary operation compares, divides or shifts as unsigned. */
static int eval_unsigned(Node *n)
{
    if (n->kind == N_SHR)
        return promote(n->a->ty)->is_unsigned;
    return is_pointer(n->a->ty) || is_pointer(n->b->ty) || arith(n->a->ty, n->b->ty)->is_unsigned;
}

static long eval(Node *n);

/* Floating-point constant arithmetic on bits (fold.c: this file has no floating values). */
long cc_fp_from_int(long v, int is_unsigned, int size);
long cc_fp_to_int(long bits, int size, int is_unsigned);
long cc_fp_convert(long bits, int from, int to);
long cc_fp_arith(int op, long a, long b, int size);
int cc_fp_compare(int op, long a, long b, int size);

/* A floating constant expression's bits, as its type has them. */
static long fold_fp(Node *n)
{
    int size = n->ty->size;
    switch (n->kind) {
    case N_NUM: return n->val;
    case N_CAST:
        if (is_flt(n->a->ty))
            return cc_fp_convert(fold_fp(n->a), n->a->ty->size, size);
        return cc_fp_from_int(eval(n->a), n->a->ty->is_unsigned && n->a->ty->size == 8, size);
    case N_ADD: return cc_fp_arith('+', fold_fp(n->a), fold_fp(n->b), size);
    case N_SUB: return cc_fp_arith('-', fold_fp(n->a), fold_fp(n->b), size);
    case N_MUL: return cc_fp_arith('*', fold_fp(n->a), fold_fp(n->b), size);
    case N_DIV: return cc_fp_arith('/', fold_fp(n->a), fold_fp(n->b), size);
    case N_NEG: return cc_fp_arith('n', fold_fp(n->a), 0, size);
    case N_COND: return eval(n->a) ? fold_fp(n->b) : fold_fp(n->c);
    default: error_at(n->at, "not a constant expression"); return 0;
    }
}

/* A constant expression's value (enum values, case labels, array lengths, #if), computed in
 * its operands' types as the program would (a floating one's: its bits). */
static long eval(Node *n)
{
    if (is_flt(n->ty))
        return fold_fp(n);
    if (n->kind == N_CAST && is_flt(n->a->ty))
        return fit(cc_fp_to_int(fold_fp(n->a), n->a->ty->size, n->ty->is_unsigned), n->ty);
    if ((n->kind == N_EQ || n->kind == N_NE || n->kind == N_LT || n->kind == N_LE) &&
        is_flt(n->a->ty)) {
        int op = n->kind == N_EQ ? '=' : n->kind == N_NE ? '!' : n->kind == N_LT ? '<' : 'l';
        return cc_fp_compare(op, fold_fp(n->a), fold_fp(n->b), n->a->ty->size);
    }
    long a = 0, b = 0;
    if (n->kind != N_NUM && n->kind != N_COND && n->kind != N_LOGAND && n->kind != N_LOGOR &&
        n->kind != N_ADDR && n->a) {
        a = eval(n->a);
        if (n->b)
            b = eval(n->b);
    }
    unsigned long ua = (unsigned long)a, ub = (unsigned long)b;
    long v;
    switch (n->kind) {
    case N_NUM: return n->val;
    case N_ADD: v = (long)(ua + ub); break;
    case N_SUB: v = (long)(ua - ub); break;
    case N_MUL: v = (long)(ua * ub); break;
    case N_DIV:
    case N_MOD:
        if (!b)
            error_at(n->at, "division by zero in a constant expression");
        if (eval_unsigned(n))
            v = (long)(n->kind == N_DIV ? ua / ub : ua % ub);
        else if (b == -1)
            v = n->kind == N_DIV ? (long)(0 - ua) : 0; /* LONG_MIN / -1 wraps */
        else
            v = n->kind == N_DIV ? a / b : a % b;
        break;
    case N_SHL: v = (long)(ua << (b & 63)); break;
    case N_SHR: v = eval_unsigned(n) ? (long)(ua >> (b & 63)) : a >> (b & 63); break;
    case N_AND: v = a & b; break;
    case N_OR: v = a | b; break;
    case N_XOR: v = a ^ b; break;
    case N_EQ: return a == b;
    case N_NE: return a != b;
    case N_LT: return eval_unsigned(n) ? ua < ub : a < b;
    case N_LE: return eval_unsigned(n) ? ua <= ub : a <= b;
    case N_NEG: v = (long)(0 - ua); break;
    case N_NOT: return !a;
    case N_BITNOT: v = ~a; break;
    case N_LOGAND: return eval(n->a) && eval(n->b);
    case N_LOGOR: return eval(n->a) || eval(n->b);
    case N_COND: return eval(n->a) ? eval(n->b) : eval(n->c);
    case N_CAST: v = a; break;
    case N_ADDR: {
        char *func = 0;
        v = static_addr(n->a, &func);
        if (func)
            error_at(n->at, "not a constant expression");
        break;
    }
    default: error_at(n->at, "not a constant expression"); return 0;
    }
    return fit(v, n->ty);
}

static long const_expr(void) { return eval(conditional()); }

static Var *new_name(char *name, Type *ty)
{
    Var *v = calloc(1, sizeof(Var));
    v->name = name;
    v->ty = ty;
    v->global = !in_func;
    v->file = in_func ? 0 : file_no + 1;
    if (in_func) {
        v->next = locals;
        locals = v;
    } else {
        add_global(v);
    }
    return v;
}

/* struct or union (its members all at offset 0, its size the largest). */
static Type *struct_decl(void)
{
    int is_union = tok_is(tok(), "union");
    pos++;
    saw_packed = saw_aligned = 0;
    skip_attrs();
    char *tag = tok()->kind == T_IDENT ? ident() : 0;
    Type *ty = 0;
    if (tag)
        for (Tag *t = tags; t && !ty; t = t->next)
            if (!strcmp(t->name, tag))
                ty = t->ty;
    if (ty && !is("{"))
        return ty; /* the tag declared before */
    if (!ty || ty->complete) {
        ty = calloc(1, sizeof(Type));
        ty->kind = TY_STRUCT;
        ty->align = 1;
        if (tag) {
            Tag *t = calloc(1, sizeof(Tag));
            t->name = tag;
            t->ty = ty;
            t->next = tags;
            tags = t;
        }
    } /* else the definition of a tag declared before: that type, completed */
    if (!accept("{"))
        return ty; /* incomplete until defined */
    /* Laid out in bits (bit-fields share units of their declared type, never straddling one
     * of its alignment, as AAPCS64 has it); packed: every member at alignment 1. */
    int packed = saw_packed, struct_aligned = saw_aligned;
    long bit = 0, size = 0;
    Member head = {0}, *cur = &head;
    while (!accept("}")) {
        Type *b = base_type();
        do {
            char *name = 0;
            const char *at = tok()->at;
            Type *mt = is(":") ? b : declarator(b, &name, &at);
            if (mt->kind == TY_STRUCT && !mt->complete)
                error_at(at, "a member of incomplete type");
            int width = -1;
            if (accept(":")) {
                width = (int)const_expr();
                if (!is_integer(mt) || width < 0 || width > 8 * mt->size || (name && !width))
                    error_at(at, "a bit-field's width must fit its integer type");
            }
            int align = packed ? 1 : mt->align;
            long start = is_union ? 0 : bit;
            if (width >= 0) {
                int unit = 8 * mt->align;
                if (!width || (!packed && start / unit != (start + width - 1) / unit))
                    start = (start + unit - 1) / unit * unit;
                if (name) {
                    Member *m = calloc(1, sizeof(Member));
                    m->name = name;
                    Type *bt = calloc(1, sizeof(Type));
                    *bt = *mt;
                    bt->bits = width;
                    bt->origin = mt;
                    m->offset = (int)(start / unit * mt->align);
                    bt->unit = mt->size;
                    if (packed) { /* from the byte it starts in, as few bytes as hold it */
                        m->offset = (int)(start / 8);
                        bt->unit = 1;
                        while (bt->unit < 8 && 8 * bt->unit < start % 8 + width)
                            bt->unit *= 2;
                    }
                    bt->bitpos = (int)(start - 8L * m->offset);
                    if (bt->bitpos + width > 8 * bt->unit)
                        error_at(at, "a packed bit-field over more than 8 bytes (not yet)");
                    m->ty = bt;
                    cur = cur->next = m;
                    if (align > ty->align)
                        ty->align = align;
                }
                if (is_union) {
                    if ((width + 7) / 8 > size)
                        size = (width + 7) / 8;
                } else {
                    bit = start + width;
                }
                continue;
            }
            Member *m = calloc(1, sizeof(Member));
            m->name = name;
            m->ty = mt;
            cur = cur->next = m;
            long off = (start + 7) / 8;
            off = (off + align - 1) / align * align;
            m->offset = (int)off;
            long msize = mt->kind == TY_ARRAY && mt->len < 0 ? 0 : mt->size; /* a flexible array */
            if (is_union) {
                if (msize > size)
                    size = msize;
            } else {
                bit = 8 * (off + msize);
            }
            if (align > ty->align)
                ty->align = align;
        } while (accept(","));
        expect(";");
    }
    saw_packed = saw_aligned = 0;
    skip_attrs(); /* struct {...} __attribute__((packed)) comes too late to lay it out */
    if (struct_aligned > saw_aligned)
        saw_aligned = struct_aligned;
    if (saw_aligned > ty->align)
        ty->align = saw_aligned;
    saw_aligned = 0;
    if (!is_union)
        size = (bit + 7) / 8;
    ty->members = head.next;
    ty->size = (int)((size + ty->align - 1) / ty->align * ty->align);
    ty->complete = 1;
    return ty;
}

static Type *va_list_type(void)
{
    static Type *t;
    if (t)
        return t;
    t = calloc(1, sizeof(Type));
    t->kind = TY_STRUCT;
    t->size = 32;
    t->align = 8;
    t->complete = 1;
    static const char *names[] = {"__stack", "__gr_top", "__vr_top", "__gr_offs", "__vr_offs"};
    Member head = {0}, *cur = &head;
    for (int i = 0; i < 5; i++) {
        Member *m = calloc(1, sizeof(Member));
        m->name = (char *)names[i];
        m->ty = i < 3 ? ptr_to(&ty_void) : &ty_int;
        m->offset = i < 3 ? i * 8 : 24 + (i - 3) * 4;
        cur = cur->next = m;
    }
    t->members = head.next;
    return t;
}

static Type *enum_decl(void)
{
    if (tok()->kind == T_IDENT)
        ident();
    if (!accept("{"))
        return &ty_int;
    long val = 0;
    while (!accept("}")) {
        char *name = ident();
        if (accept("="))
            val = const_expr();
        Var *v = new_name(name, &ty_int);
        v->is_enum = 1;
        v->val = val++;
        if (!accept(",")) {
            expect("}");
            break;
        }
    }
    return &ty_int;
}

static Type *pointers(Type *t)
{
    for (;;) {
        skip_attrs();
        if (accept("const") || accept("volatile"))
            continue;
        if (!accept("*"))
            return t;
        t = ptr_to(t);
    }
}

/* The parameter list of a function type after its "(", skipped (calls pass what they are
 * given); `...` allowed. */
static void skip_params(void)
{
    for (int depth = 1; depth;) {
        if (tok()->kind == T_EOF)
            error_at(tok()->at, "unterminated parameter list");
        if (is("("))
            depth++;
        if (is(")"))
            depth--;
        pos++;
    }
}

/* Where the parameters of the function a declarator names begin (its "("), when the name is
 * followed by them: a definition's parameters are parsed from there. -1: none. */
static int name_params;
static int decl_end = -1; /* function(): where its declarator ends, when parenthesised */

/* A declarator after the base type, as C reads it inside out: pointers, then a name (none in an
 * abstract declarator) or a parenthesised declarator, then array and function suffixes, which
 * apply before what the parentheses say. */
static Type *declarator2(Type *base, char **name, const char **at, int abstract)
{
    Type *ty = pointers(base);
    Token *next = &toks[pos + 1];
    int nested = is("(") && (tok_is(next, "*") || tok_is(next, "(") || tok_is(next, "[") ||
                             tok_is(next, "^") || (next->kind == T_IDENT && !is_type_at(pos + 1)));
    if (nested) {
        /* What follows the parentheses first, then the declarator inside them. */
        int inner = ++pos;
        for (int depth = 1; depth; pos++) {
            if (tok()->kind == T_EOF)
                error_at(toks[inner].at, "unterminated declarator");
            depth += is("(") - is(")");
        }
        ty = declarator_suffix(ty);
        int end = pos;
        pos = inner;
        ty = declarator2(ty, name, at, abstract);
        expect(")");
        pos = end;
        skip_attrs();
        return ty;
    }
    *at = tok()->at;
    if (tok()->kind == T_IDENT) {
        *name = ident();
        name_params = is("(") ? pos : -1;
    } else if (abstract) {
        *name = 0;
    } else {
        *name = ident(); /* the error */
    }
    ty = declarator_suffix(ty);
    skip_attrs();
    return ty;
}

static Type *declarator(Type *base, char **name, const char **at)
{
    return declarator2(base, name, at, 0);
}

/* A type name's declarator (casts, sizeof, compound literals): no name. */
static Type *abstract_declarator(Type *base)
{
    char *name;
    const char *at;
    Type *ty = declarator2(base, &name, &at, 1);
    if (name)
        error_at(at, "a type name has no name");
    return ty;
}

static Var *new_var(char *name, Type *ty, int global);

/* A frame slot for a struct that registers fill in 8-byte words (a call's struct result, a
 * struct parameter): its size rounded up to 8 bytes, the rounding above the object. */
static Var *struct_slot(char *name, Type *ty)
{
    frame_size += (ty->size + 7) / 8 * 8 - ty->size;
    return new_var(name, ty, 0);
}

/* A call's arguments after its "(" (max: registers; a struct of up to 16 bytes takes two). A
 * struct result gets a frame slot for the call to leave it in. */
static void call_args(Node *n, int max)
{
    Node head = {0}, *cur = &head;
    int regs = 0;
    while (!accept(")")) {
        if (regs)
            expect(",");
        cur = cur->next = assign();
        add_type(cur);
        regs += arg_regs(cur->ty);
    }
    if (regs > max)
        error_at(n->at, "too many arguments for a system call");
    n->a = head.next;
    /* Arguments converted to their parameters' types; beyond them (or with no prototype) a
     * float goes as a double. */
    FuncDecl *fd = n->name ? find_func(n->name) : 0;
    int k = 0;
    for (Node **a = &n->a; *a; a = &(*a)->next, k++) {
        Node *next = (*a)->next;
        Type *want = fd && fd->proto && k < fd->nparams ? fd->params[k] : 0;
        if (want && needs_conv((*a)->ty, want))
            *a = cast_to(*a, want);
        else if (!want && is_flt((*a)->ty) && (*a)->ty->size == 4)
            *a = cast_to(*a, &ty_double);
        (*a)->next = next;
    }
    if (n->ty->kind == TY_STRUCT || is_wide(n->ty)) {
        if (!in_func)
            error_at(n->at, "a call outside a function");
        n->var = struct_slot("", n->ty);
    }
}

static Node *primary(void)
{
    Token *t = tok();
    if (accept("(")) {
        Node *n = expr();
        expect(")");
        return n;
    }
    if (is("sizeof") || tok_is(t, "_Alignof") || tok_is(t, "__alignof__")) {
        /* size_t values: of a type (abstract declarator: pointers and array lengths) or of an
         * expression's type, not evaluated. */
        int size = is("sizeof");
        pos++;
        Type *ty;
        if (paren_type()) {
            pos++;
            ty = abstract_declarator(base_type());
            expect(")");
        } else {
            Node *n = unary();
            add_type(n);
            ty = n->ty;
        }
        if (ty->vla_len) {
            if (!size || !ty->vla_size)
                error_at(t->at, "the size of a variable-length array type (not yet)");
            Node *v = node(N_VAR, t->at); /* its size, kept when its declaration ran */
            v->var = ty->vla_size;
            v->ty = &ty_ulong;
            return v;
        }
        Node *n = new_num(size ? ty->size : ty->align, t->at);
        n->ty = &ty_ulong;
        return n;
    }
    if (t->kind == T_NUM && t->is_float) {
        pos++;
        Node *n = new_num(t->val, t->at);
        n->ty = t->is_float == 2 ? &ty_float : t->is_float == 1 ? &ty_double : &ty_ldouble;
        return n;
    }
    if (t->kind == T_NUM) {
        pos++;
        Node *n = new_num(t->val, t->at);
        /* The first type of its list that holds the value (C99 6.4.4.1). */
        unsigned long v = (unsigned long)t->val;
        int u = t->is_unsigned, oct_hex = !t->is_decimal;
        if (!t->is_long && !u && v <= 0x7fffffffUL)
            n->ty = &ty_int;
        else if (!t->is_long && (u || oct_hex) && v <= 0xffffffffUL)
            n->ty = &ty_uint;
        else if (!u && v <= 0x7fffffffffffffffUL)
            n->ty = &ty_long;
        else
            n->ty = &ty_ulong;
        return n;
    }
    if (t->kind == T_STR) {
        pos++;
        Node *n = node(N_STR, t->at);
        n->val = data_alloc(t->str_len + 1, 1);
        memcpy(data + n->val, t->str, t->str_len + 1);
        n->ty = array_of(&ty_char, t->str_len + 1);
        return n;
    }
    if (t->kind == T_IDENT) {
        char *name = ident();
        Var *v = find_var(name);
        if (!strcmp(name, "__builtin_va_start") || !strcmp(name, "__builtin_va_end") ||
            !strcmp(name, "__builtin_va_arg") || !strcmp(name, "__builtin_va_copy")) {
            expect("(");
            Node *ap = assign();
            add_type(ap);
            if (ap->ty->kind != TY_STRUCT || ap->ty != va_list_type())
                error_at(t->at, "a va_list expected");
            Node *n;
            if (!strcmp(name, "__builtin_va_arg")) {
                expect(",");
                n = node(N_VAARG, t->at);
                n->ty = pointers(base_type());
                if (!is_integer(n->ty) && n->ty->kind != TY_PTR && !(is_flt(n->ty) && n->ty->size <= 8))
                    error_at(t->at, "va_arg of this type (not yet)");
            } else if (!strcmp(name, "__builtin_va_copy")) {
                expect(",");
                Node *src = assign();
                add_type(src);
                n = new_binary(N_ASSIGN, ap, src, t->at);
                expect(")");
                return n;
            } else if (!strcmp(name, "__builtin_va_start")) {
                if (!cur_variadic)
                    error_at(t->at, "va_start outside a variadic function");
                expect(",");
                assign(); /* the last named parameter */
                n = node(N_VASTART, t->at);
                n->ty = &ty_void;
            } else {
                n = new_num(0, t->at);
                n->ty = &ty_void;
            }
            n->a = ap;
            expect(")");
            return n;
        }
        const Builtin *bi = builtin_named(name);
        if (bi) {
            /* Its operands; the first goes to x0 for its instruction words. */
            expect("(");
            Node *n = node(N_A64, t->at);
            Node *args[3] = {0, 0, 0};
            for (int i = 0; i < bi->nargs; i++) {
                if (i)
                    expect(",");
                args[i] = assign();
                add_type(args[i]);
            }
            expect(")");
            if (bi->kind == BUILTIN_EXPECT)
                return args[0];
            if (bi->kind == BUILTIN_CONST) { /* infinity, or (op 1) a quiet NaN */
                Node *c = new_num(0, t->at);
                c->ty = bi->ty;
                c->val = bi->ty->size == 8 ? (bi->op ? 0x7ff8000000000000L : 0x7ff0000000000000L)
                                           : (bi->op ? 0x7fc00000L : 0x7f800000L);
                return c;
            }
            if (is_flt(bi->ty) && bi->nargs == 1 && needs_conv(args[0]->ty, bi->ty))
                args[0] = cast_to(args[0], bi->ty);
            if (bi->kind == BUILTIN_OVERFLOW) {
                Type *r = is_pointer(args[2]->ty) ? args[2]->ty->base : 0;
                if (!r || !is_integer(r))
                    error_at(t->at, "the result of a checked operation goes through a pointer to an integer");
                int u64 = (args[0]->ty->size == 8 && args[0]->ty->is_unsigned) ||
                          (args[1]->ty->size == 8 && args[1]->ty->is_unsigned);
                if (u64 && (!r->is_unsigned || bi->op == N_SUB))
                    error_at(t->at, "this checked operation on unsigned long (not yet)");
                n->kind = N_OVERFLOW;
                n->val = bi->op;
                n->a = args[0];
                n->b = args[1];
                n->c = args[2];
                n->ty = &ty_int;
                return n;
            }
            n->words = bi->words;
            n->a = args[0];
            n->ty = bi->ty;
            return n;
        }
        if ((!strcmp(name, "__func__") || !strcmp(name, "__FUNCTION__")) && !v) {
            /* The enclosing function's name, a static array of char. */
            const char *f = cur_func_name && in_func ? cur_func_name : "";
            const char *at2 = strchr(f, '@'); /* a static function's program-wide suffix */
            int len = at2 ? (int)(at2 - f) : (int)strlen(f);
            Node *n = node(N_STR, t->at);
            n->val = data_alloc(len + 1, 1);
            memcpy(data + n->val, f, len);
            n->ty = array_of(&ty_char, len + 1);
            return n;
        }
        if (!strcmp(name, "__builtin_a64")) {
            /* One instruction word as it stands, after its optional operand is put in x0;
             * its value is x0 after it. */
            expect("(");
            Node *n = node(N_A64, t->at);
            n->word = (unsigned)const_expr();
            if (accept(","))
                n->a = assign();
            expect(")");
            n->ty = &ty_long;
            return n;
        }
        static const char *libc_builtins[] = {"__builtin_memcpy", "__builtin_memset",
                                              "__builtin_memmove", "__builtin_memcmp",
                                              "__builtin_strlen", "__builtin_strcmp",
                                              "__builtin_abort", 0};
        for (int k = 0; libc_builtins[k]; k++)
            if (!strcmp(name, libc_builtins[k]))
                name = (char *)libc_builtins[k] + 10; /* the function itself */
        if (!v && is("(")) {
            /* A direct call (an undeclared function returns int, as C89 had it). */
            pos++;
            Node *n = node(N_CALL, t->at);
            n->name = internal_name(name);
            FuncDecl *fd = find_func(name);
            n->ty = !strcmp(name, "__syscall") ? &ty_long : fd ? fd->ret : &ty_int;
            call_args(n, strcmp(name, "__syscall") ? 1 << 20 : 7);
            return n;
        }
        if (!v && find_func(name)) {
            Node *n = node(N_FUNCADDR, t->at);
            n->name = internal_name(name);
            n->ty = func_of(find_func(name)->ret);
            return n;
        }
        if (!v || v->is_typedef)
            error_at(t->at, "undeclared identifier");
        if (v->is_enum) {
            Node *e = new_num(v->val, t->at);
            e->ty = &ty_int;
            return e;
        }
        Node *n = node(N_VAR, t->at);
        n->var = v;
        n->ty = v->ty;
        return n;
    }
    error_at(t->at, "expected an expression");
    return 0;
}

static void local_init(Node **cur, Node *target, Type *ty);
static int init_count(void);

/* An array of unknown length in a compound literal takes its length from the list ahead. */
static Type *complete_array_list(Type *ty)
{
    return ty->kind == TY_ARRAY && ty->len < 0 ? array_of(ty->base, init_count()) : ty;
}

static Node *postfix_of(Node *n);

static Node *postfix(void) { return postfix_of(primary()); }

/* Indexing, member access, calls and ++/-- after the operand n. */
static Node *postfix_of(Node *n)
{
    for (;;) {
        const char *at = tok()->at;
        add_type(n);
        if (is("(") && is_func(n->ty)) {
            /* A call through a function's address. */
            pos++;
            Node *c = node(N_CALL, at);
            c->b = n;
            Type *f = n->ty->kind == TY_FUNC ? n->ty : n->ty->base;
            c->ty = f->base;
            call_args(c, 1 << 20);
            n = c;
            continue;
        }
        if (accept("[")) {
            Node *i = expr();
            expect("]");
            Node *d = node(N_DEREF, at);
            d->a = new_add(n, i, at);
            add_type(d);
            n = d;
        } else if (accept(".") || accept("->")) {
            if (toks[pos - 1].len == 2) {
                Node *d = node(N_DEREF, at);
                d->a = n;
                add_type(n);
                add_type(d);
                n = d;
            }
            add_type(n);
            if (n->ty->kind != TY_STRUCT)
                error_at(at, "member access on something that is not a struct");
            const char *mat = tok()->at;
            char *name = ident();
            Member *m = n->ty->members;
            while (m && strcmp(m->name, name))
                m = m->next;
            if (!m)
                error_at(mat, "no such member");
            Node *mn = node(N_MEMBER, at);
            mn->a = n;
            mn->mem = m;
            mn->ty = m->ty;
            n = mn;
        } else if (accept("++") || accept("--")) {
            Node *p = node(N_POSTINC, at);
            p->a = n;
            add_type(n);
            p->val = toks[pos - 1].at[0] == '+' ? 1 : -1;
            if (is_pointer(n->ty))
                p->val *= n->ty->base->size;
            add_type(p);
            n = p;
        } else {
            return n;
        }
    }
}

static void global_init(int off, Type *ty);

/* An operator applied to the unary expression that follows. */
static Node *new_unary(int kind, const char *at)
{
    Node *n = node(kind, at);
    n->a = unary();
    add_type(n->a);
    add_type(n);
    return n;
}

static Node *unary(void)
{
    const char *at = tok()->at;
    if (accept("+"))
        return unary();
    if (accept("-"))
        return new_unary(N_NEG, at);
    if (accept("!"))
        return new_unary(N_NOT, at);
    if (accept("~"))
        return new_unary(N_BITNOT, at);
    if (accept("&"))
        return new_unary(N_ADDR, at);
    if (accept("*")) {
        Node *n = new_unary(N_DEREF, at);
        return is_func(n->ty) ? n->a : n; /* *f and **f call f */
    }
    if (accept("++") || accept("--")) {
        Node *n = node(N_PREINC, at);
        n->val = toks[pos - 1].at[0] == '+' ? 1 : -1;
        n->a = unary();
        add_type(n->a);
        if (is_pointer(n->a->ty))
            n->val *= n->a->ty->base->size;
        add_type(n);
        return n;
    }
    if (paren_type()) {
        pos++;
        Type *ty = abstract_declarator(base_type());
        expect(")");
        if (is("{")) {
            /* A compound literal: an unnamed local, zeroed, then initialised. */
            ty = complete_array_list(ty);
            if (!in_func) {
                /* At file scope: an unnamed object in the data, initialised there. */
                Var *v = calloc(1, sizeof(Var));
                v->name = "";
                v->ty = ty;
                v->global = 1;
                v->offset = data_alloc(ty->size, ty->align < 8 ? ty->align : 8);
                global_init(v->offset, ty);
                Node *var = node(N_VAR, at);
                var->var = v;
                var->ty = ty;
                return postfix_of(var);
            }
            Var *v = ty->kind == TY_STRUCT ? struct_slot("", ty) : new_var("", ty, 0);
            Node *var = node(N_VAR, at);
            var->var = v;
            var->ty = ty;
            Node head = {0}, *cur = &head;
            Node *z = node(N_ZERO, at);
            z->a = var;
            cur = cur->next = z;
            local_init(&cur, var, ty);
            Node *n = node(N_STMTEXPR, at);
            n->a = node(N_BLOCK, at);
            n->a->a = head.next;
            n->b = var;
            n->ty = ty;
            return postfix_of(n);
        }
        return cast_to(unary(), ty);
    }
    return postfix();
}

typedef struct {
    const char *op;
    int kind, prec;
} Binop;

static const Binop binops[] = {
    {"||", N_LOGOR, 1}, {"&&", N_LOGAND, 2}, {"|", N_OR, 3},   {"^", N_XOR, 4},
    {"&", N_AND, 5},    {"==", N_EQ, 6},     {"!=", N_NE, 6},  {"<", N_LT, 7},
    {"<=", N_LE, 7},    {">", -N_LT, 7},     {">=", -N_LE, 7}, {"<<", N_SHL, 8},
    {">>", N_SHR, 8},   {"+", N_ADD, 9},     {"-", N_SUB, 9},  {"*", N_MUL, 10},
    {"/", N_DIV, 10},   {"%", N_MOD, 10},    {0, 0, 0}};

static Node *binary(int min_prec)
{
    Node *n = unary();
    for (;;) {
        const Binop *op = 0;
        for (const Binop *b = binops; b->op; b++)
            if (is(b->op) && b->prec >= min_prec) {
                op = b;
                break;
            }
        if (!op)
            return n;
        const char *at = tok()->at;
        pos++;
        Node *r = binary(op->prec + 1);
        if (op->kind == N_ADD)
            n = new_add(n, r, at);
        else if (op->kind == N_SUB)
            n = new_sub(n, r, at);
        else if (op->kind < 0) /* a > b is b < a */
            n = new_binary(-op->kind, r, n, at);
        else {
            add_type(n);
            add_type(r);
            n = new_binary(op->kind, n, r, at);
        }
    }
}

static Node *conditional(void)
{
    Node *c = binary(1);
    const char *at = tok()->at;
    if (!accept("?"))
        return c;
    Node *n = node(N_COND, at);
    n->a = c;
    n->b = expr();
    expect(":");
    n->c = conditional();
    add_type(n->b);
    add_type(n->c);
    add_type(n);
    return n;
}

static Node *assign(void)
{
    Node *n = conditional();
    const char *at = tok()->at;
    if (accept("="))
        return new_binary(N_ASSIGN, n, assign(), at);
    static const char *ops[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", 0};
    static const int kinds[] = {N_ADD, N_SUB, N_MUL, N_DIV, N_MOD, N_AND, N_OR, N_XOR, N_SHL, N_SHR};
    for (int i = 0; ops[i]; i++)
        if (accept(ops[i])) {
            /* a op= b: a's address once, in a frame slot; the operation on its value there
             * (N_OLDVAL), with the conversions a op b has. */
            Node *r = assign();
            add_type(n);
            if (!in_func)
                error_at(at, "an assignment outside a function");
            Node *old = node(N_OLDVAL, at);
            old->ty = n->ty;
            old->var = new_var("", &ty_long, 0);
            Node *v = kinds[i] == N_ADD ? new_add(old, r, at)
                      : kinds[i] == N_SUB ? new_sub(old, r, at)
                                          : new_binary(kinds[i], old, r, at);
            if (needs_conv(v->ty, n->ty))
                v = cast_to(v, n->ty);
            Node *a = node(N_OPASSIGN, at);
            a->a = n;
            a->b = v;
            a->var = old->var;
            a->ty = n->ty;
            return a;
        }
    return n;
}

static Node *expr(void)
{
    Node *n = assign();
    const char *at = tok()->at;
    while (accept(","))
        n = new_binary(N_COMMA, n, assign(), at);
    add_type(n);
    return n;
}

static int decl_static; /* the global being declared is static: its file's alone */
/* The block being read: the slot keeping sp from before its first variable-length array. */
static Var *block_sp;

static Var *new_var(char *name, Type *ty, int global)
{
    int file = global && decl_static ? file_no + 1 : 0;
    if (global)
        for (Var *g = *global_chain(name, (int)strlen(name)); g; g = g->next)
            if (!g->is_typedef && !g->is_enum && !strcmp(g->name, name) &&
                (g->file == file || g->file == file_no + 1) &&
                (g->ty->size == ty->size || g->ty->kind == TY_ARRAY || g->from_lib)) {
                if (g->from_lib) {
                    g->ty = ty;
                    g->from_lib = 0;
                }
                if (g->pending) { /* its definition: its place now */
                    g->ty = ty;
                    g->offset = data_alloc(ty->size, ty->align < 8 ? ty->align : 8);
                    g->pending = 0;
                    g->global = 1;
                }
                /* Declared again (extern, or in another file): one object; an array's
                 * length may come with its definition. */
                if (g->ty->kind == TY_ARRAY && g->ty->len < 0 && ty->kind == TY_ARRAY && ty->len >= 0)
                    error_at(tok()->at, "an array declared without its length before (not yet)");
                return g;
            }
    Var *v = calloc(1, sizeof(Var));
    v->name = name;
    v->ty = ty;
    v->global = global;
    v->file = file;
    if (ty->kind == TY_STRUCT && !ty->complete)
        error_at(tok()->at, "a variable of incomplete type");
    if (global) {
        v->offset = data_alloc(ty->size, ty->align < 8 ? ty->align : 8);
        add_global(v);
    } else {
        int align = ty->kind == TY_ARRAY || ty->align > 8 ? 8 : ty->align;
        frame_size = (frame_size + ty->size + align - 1) / align * align;
        v->offset = frame_size;
        v->next = locals;
        locals = v;
    }
    return v;
}

static Type *declarator_suffix(Type *ty)
{
    if (accept("[")) {
        while (accept("static") || accept("const") || accept("volatile") || skip_attrs())
            ;
        if (is("]")) { /* the length from the initialiser */
            pos++;
            return array_of(declarator_suffix(ty), -1);
        }
        if (is("*") && tok_is(&toks[pos + 1], "]")) { /* [*] in a prototype */
            pos += 2;
            return array_of(declarator_suffix(ty), -1);
        }
        Node *e = assign();
        add_type(e);
        expect("]");
        Type *base = declarator_suffix(ty);
        if (constant(e))
            return array_of(base, (int)eval(e));
        /* A variable-length array: its length known when its declaration runs. */
        if (!in_func || !is_integer(e->ty))
            error_at(e->at, "an array length that is not a constant");
        if (base->vla_len)
            error_at(e->at, "an array of variable-length arrays (not yet)");
        Type *t = array_of(base, 0);
        t->vla_len = e;
        return t;
    }
    if (accept("(")) { /* a function: its parameters matter only to a definition */
        skip_params();
        return func_of(declarator_suffix(ty));
    }
    return ty;
}

/* The elements an array of unknown length gets from the initialiser ahead: a string's bytes
 * and its NUL, or one past the last element its brace list names (in order, or by [N]). */
static int init_count(void)
{
    Token *t = tok();
    if (t->kind == T_STR)
        return t->str_len + 1;
    if (!is("{"))
        error_at(t->at, "an array of unknown length needs an initialiser");
    int save = pos, depth = 0, idx = 0, count = 0, item = 0;
    for (int i = pos;; i++) {
        Token *k = &toks[i];
        if (k->kind == T_EOF)
            error_at(t->at, "unterminated initialiser");
        if (item) { /* the first token of a top-level item */
            item = 0;
            if (tok_is(k, "}"))
                break; /* after a trailing comma */
            int designated = tok_is(k, "[");
            if (designated) {
                pos = i + 1;
                idx = (int)const_expr();
                i = pos; /* its "]", passed over */
            }
            if (idx + 1 > count)
                count = idx + 1;
            if (designated)
                continue;
        }
        if (k->kind != T_PUNCT || k->len != 1)
            continue;
        char c = k->at[0];
        if (c == '{' || c == '(' || c == '[') {
            item = ++depth == 1;
        } else if (c == '}' || c == ')' || c == ']') {
            if (--depth == 0)
                break;
        } else if (c == ',' && depth == 1) {
            idx++;
            item = 1;
        }
    }
    pos = save;
    return count;
}

/* An array declared with [] takes its length from the initialiser ahead (after its "="). */
static Type *complete_array(Type *ty, const char *at)
{
    if (ty->kind != TY_ARRAY || ty->len >= 0)
        return ty;
    if (!is("="))
        error_at(at, "an array of unknown length needs an initialiser");
    pos++;
    ty = array_of(ty->base, init_count());
    pos--;
    return ty;
}

/* The items of a brace list for an array or a struct of type ty: each(ctx, i, m) for the
 * i-th (m: the struct's member, 0 in an array). */
static int init_depth; /* brace lists being read: inside one, a sub-object's braces may go */
static int chain_pending; /* a designator chain goes on into the sub-object being initialised */

static void brace_list(Type *ty, void (*each)(void *ctx, int i, Member *m), void *ctx)
{
    /* Without its braces (inside a list), a sub-object takes the items it needs and leaves
     * the rest, and any designator, to the list around it. */
    int braced = accept("{");
    if (!braced && !init_depth)
        expect("{");
    init_depth++;
    Member *m = ty->kind == TY_STRUCT ? ty->members : 0;
    for (int i = 0, first = 1;; i++, first = 0) {
        if (braced) {
            if (accept("}"))
                break;
            if (!first)
                expect(",");
            if (accept("}"))
                break;
        } else {
            if (ty->kind == TY_ARRAY ? i >= ty->len : !m)
                break;
            if (!first) {
                Token *next = &toks[pos + 1];
                if (!is(",") || tok_is(next, "}") || tok_is(next, ".") || tok_is(next, "["))
                    break;
                pos++;
            } else if (is("}")) {
                break;
            }
        }
        /* A designator: the member or element the next items start from (one of a chain,
         * .a.b or [i].x, names a sub-object whose own list goes on without braces). */
        const char *at = tok()->at;
        if (!braced && !(first && chain_pending)) {
            /* none here: they belong to the list around */
        } else if (ty->kind == TY_STRUCT && accept(".")) {
            char *name = ident();
            for (m = ty->members; m && strcmp(m->name, name); m = m->next)
                ;
            if (!m)
                error_at(at, "no such member");
            chain_pending = is(".") || is("[");
            if (!chain_pending)
                expect("=");
        } else if (ty->kind == TY_ARRAY && accept("[")) {
            i = (int)const_expr();
            expect("]");
            chain_pending = is(".") || is("[");
            if (!chain_pending)
                expect("=");
            if (i < 0)
                error_at(at, "a negative array index");
        } else if (chain_pending) {
            error_at(at, "a designator of something that is not a struct or an array");
        }
        if (ty->kind == TY_ARRAY ? i >= ty->len : !m)
            error_at(at, "too many initialisers");
        each(ctx, i, m);
        if (m)
            m = m->next;
    }
    init_depth--;
}

/* Whether the struct initialiser ahead, inside a list, is its members without their braces
 * (not one expression of a struct type): a look at the expression's type. */
static int elided_struct(void)
{
    if (chain_pending)
        return 1;
    if (is("{") || !init_depth)
        return 0;
    int save = pos;
    Node *e = assign();
    add_type(e);
    pos = save;
    return e->ty->kind != TY_STRUCT;
}

static void local_init(Node **cur, Node *target, Type *ty);
static void global_init(int off, Type *ty);

typedef struct LocalCtx {
    Node **cur;
    Node *target;
    const char *at;
} LocalCtx;

/* One item of a local's brace list: the element or member, initialised in turn. */
static void local_item(void *p, int i, Member *m)
{
    LocalCtx *c = p;
    Node *el;
    if (!m) {
        el = node(N_DEREF, c->at);
        el->a = new_add(c->target, new_num(i, c->at), c->at);
        add_type(el);
    } else {
        el = node(N_MEMBER, c->at);
        el->a = c->target;
        el->mem = m;
        el->ty = m->ty;
    }
    local_init(c->cur, el, el->ty);
}

/* Assignments that initialise `target` (of type ty) from the initialiser ahead, appended at
 * *cur: brace lists for arrays and structs (nested), a string for a char array, else an
 * expression. What a list leaves out stays zero (the whole object was zeroed first). */
static void local_init(Node **cur, Node *target, Type *ty)
{
    const char *at = tok()->at;
    if (ty->kind == TY_ARRAY && ty->base->kind == TY_CHAR && tok()->kind == T_STR) {
        Token *t = tok();
        pos++;
        for (int i = 0; i < t->str_len && i < ty->len; i++) {
            Node *el = node(N_DEREF, at);
            el->a = new_add(target, new_num(i, at), at);
            add_type(el);
            Node *e = node(N_EXPR, at);
            e->a = new_binary(N_ASSIGN, el, new_num((unsigned char)t->str[i], at), at);
            *cur = (*cur)->next = e;
        }
        return;
    }
    if (ty->kind == TY_ARRAY || (ty->kind == TY_STRUCT && (is("{") || elided_struct()))) {
        LocalCtx ctx = {cur, target, at};
        brace_list(ty, local_item, &ctx);
        return;
    }
    int braced = accept("{");
    Node *e = node(N_EXPR, at);
    e->a = new_binary(N_ASSIGN, target, assign(), at);
    *cur = (*cur)->next = e;
    if (braced)
        expect("}");
}

/* A local declaration: its initialisers become assignments. */
static Node *declaration(void)
{
    Type *base = base_type();
    int is_typedef = saw_typedef, is_static = saw_static, is_extern = saw_extern;
    Node head = {0}, *cur = &head;
    int first = 1;
    while (!accept(";")) {
        if (!first)
            expect(",");
        first = 0;
        char *name;
        const char *at;
        Type *ty = declarator(base, &name, &at);
        if (is_typedef) {
            new_name(name, ty)->is_typedef = 1;
            continue;
        }
        if (ty->kind == TY_FUNC) { /* a function declared in a block */
            declare_func(internal_name(name), ty->base);
            continue;
        }
        if (ty->vla_len) {
            /* Its bytes below sp when the declaration runs (sp as it was is kept, for the
             * block's end); the variable holds their address. */
            if (is_static || accept("="))
                error_at(at, "a variable-length array with static storage or an initialiser");
            Var *v = new_var(name, &ty_long, 0);
            v->ty = ty;
            v->vla = 1;
            ty->vla_size = new_var("", &ty_ulong, 0);
            Node *a = node(N_VLA, at);
            a->val = !block_sp;
            if (!block_sp)
                block_sp = new_var("", &ty_long, 0);
            a->a = ty->vla_len;
            a->var = v;
            a->b = node(N_NUM, at); /* carries the slot that keeps sp */
            a->b->var = block_sp;
            cur = cur->next = a;
            continue;
        }
        if (is_extern) {
            /* The program's object of that name, seen in this block under it. */
            int was = in_func;
            in_func = 0;
            Var *g = new_var(name, ty, 1);
            in_func = was;
            Var *v = calloc(1, sizeof(Var));
            *v = *g;
            v->next = locals;
            locals = v;
            continue;
        }
        ty = complete_array(ty, at);
        if (is_static) {
            /* In the data, zeroed, seen only in this scope. */
            Var *v = calloc(1, sizeof(Var));
            v->name = name;
            v->ty = ty;
            v->global = 1;
            v->offset = data_alloc(ty->size, ty->align < 8 ? ty->align : 8);
            v->next = locals;
            locals = v;
            if (accept("="))
                global_init(v->offset, ty);
            continue;
        }
        if (ty->kind == TY_VOID)
            error_at(at, "a variable of type void");
        Var *v = new_var(name, ty, 0);
        if (accept("=")) {
            Node *lhs = node(N_VAR, at);
            lhs->var = v;
            lhs->ty = v->ty;
            if (ty->kind == TY_ARRAY || ty->kind == TY_STRUCT) {
                Node *z = node(N_ZERO, at);
                z->a = lhs;
                cur = cur->next = z;
            }
            local_init(&cur, lhs, ty);
        }
    }
    Node *b = node(N_BLOCK, 0);
    b->a = head.next;
    return b;
}

static Node *compound(void)
{
    Node head = {0}, *cur = &head;
    Var *scope = locals;
    Tag *tscope = tags;
    Var *outer_sp = block_sp;
    block_sp = 0;
    while (!accept("}")) {
        if (tok()->kind == T_EOF)
            error_at(tok()->at, "expected '}'");
        cur = cur->next = is_typename() ? declaration() : stmt();
    }
    locals = scope;
    tags = tscope;
    Node *n = node(N_BLOCK, 0);
    n->a = head.next;
    n->var = block_sp; /* its variable-length arrays go at its end */
    block_sp = outer_sp;
    return n;
}

static Node *stmt(void)
{
    const char *at = tok()->at;
    if (accept("return")) {
        Node *n = node(N_RETURN, at);
        if (!accept(";")) {
            n->a = expr();
            if (needs_conv(n->a->ty, cur_ret))
                n->a = cast_to(n->a, cur_ret);
            expect(";");
        }
        return n;
    }
    if (accept("if")) {
        Node *n = node(N_IF, at);
        expect("(");
        n->a = expr();
        expect(")");
        n->b = stmt();
        if (accept("else"))
            n->c = stmt();
        return n;
    }
    if (accept("while")) {
        Node *n = node(N_WHILE, at);
        expect("(");
        n->a = expr();
        expect(")");
        n->b = stmt();
        return n;
    }
    if (accept("do")) {
        Node *n = node(N_DO, at);
        n->b = stmt();
        expect("while");
        expect("(");
        n->a = expr();
        expect(")");
        expect(";");
        return n;
    }
    if (accept("for")) {
        Node *n = node(N_FOR, at);
        Var *scope = locals;
        expect("(");
        if (is_typename())
            n->c = declaration();
        else if (!accept(";")) {
            n->c = node(N_EXPR, at);
            n->c->a = expr();
            expect(";");
        }
        if (!accept(";")) {
            n->a = expr();
            expect(";");
        }
        if (!accept(")")) {
            n->d = expr();
            expect(")");
        }
        n->b = stmt();
        locals = scope;
        return n;
    }
    if (accept("switch")) {
        Node *n = node(N_SWITCH, at);
        expect("(");
        n->a = expr();
        expect(")");
        Node *outer = cur_switch;
        cur_switch = n;
        n->b = stmt();
        cur_switch = outer;
        return n;
    }
    if (is("case") || is("default")) {
        if (!cur_switch)
            error_at(at, "case or default outside a switch");
        Node *n = node(N_CASE, at);
        if (accept("case")) {
            n->val = const_expr();
            n->d = cur_switch->d;
            cur_switch->d = n;
        } else {
            pos++;
            if (cur_switch->c)
                error_at(at, "a second default");
            cur_switch->c = n;
        }
        expect(":");
        return n;
    }
    if (accept("break")) {
        expect(";");
        return node(N_BREAK, at);
    }
    if (accept("goto")) {
        Node *n = node(N_GOTO, at);
        n->name = ident();
        expect(";");
        return n;
    }
    if (tok()->kind == T_IDENT && toks[pos + 1].kind == T_PUNCT && toks[pos + 1].len == 1 &&
        toks[pos + 1].at[0] == ':') {
        Node *n = node(N_LABEL, at);
        n->name = ident();
        pos++;
        return n;
    }
    if (accept("continue")) {
        expect(";");
        return node(N_CONTINUE, at);
    }
    if (accept("{"))
        return compound();
    if (accept(";"))
        return node(N_NOP, at);
    Node *n = node(N_EXPR, at);
    n->a = expr();
    expect(";");
    return n;
}

/* ---- code ---- */

static unsigned *code;
static int ncode, cap_code;

static void emit(unsigned w)
{
    if (ncode == cap_code) {
        cap_code = cap_code ? cap_code * 2 : 4096;
        code = realloc(code, cap_code * 4);
    }
    code[ncode++] = w;
}

/* Calls to patch once every function's place is known. */
typedef struct Fixup {
    int at;
    char *name;
    const char *src;
    int adr; /* ADR x0 of the function, not BL */
} Fixup;
static Fixup *fixups;
static int nfix, cap_fix;

static void add_fixup(int at, char *name, const char *at_src, int adr)
{
    fixups = grow(fixups, nfix, &cap_fix, sizeof(Fixup));
    fixups[nfix++] = (Fixup){at, name, at_src, adr};
}

typedef struct Func {
    char *name;
    int at, end; /* its words: code[at..end) */
    int idx;     /* its place in code order (link) */
    int live;    /* reachable from _start (link) */
    struct Func *next;
} Func;
static Func *funcs;

#define TEXT_BASE 0x400000L
#define DATA_BASE 0x10000000L

/* x0 = v, by MOVZ/MOVK (MOVN for small negatives). */
static void load_imm(int rd, long v)
{
    if (v < 0 && v >= -65536) {
        emit(0x92800000u | ((unsigned)(~v & 0xffff) << 5) | rd);
        return;
    }
    emit(0xd2800000u | ((unsigned)(v & 0xffff) << 5) | rd);
    for (int s = 1; s < 4; s++) {
        unsigned part = (unsigned)((unsigned long)v >> (16 * s)) & 0xffff;
        if (part)
            emit(0xf2800000u | (s << 21) | (part << 5) | rd);
    }
}

/* xd = x29 - off: the address of a frame slot. */
static void frame_addr(int rd, int off)
{
    int base = 29;
    if (off >> 12) {
        emit(0xd1400000u | ((unsigned)(off >> 12) << 10) | (29 << 5) | (unsigned)rd); /* sub xd, x29, #hi, lsl 12 */
        base = rd;
    }
    emit(0xd1000000u | ((unsigned)(off & 0xfff) << 10) | ((unsigned)base << 5) | (unsigned)rd); /* sub xd, base, #lo */
}

static void push(void) { emit(0xf81f0fe0u); }          /* str x0, [sp, #-16]! */
static void pop(int rd) { emit(0xf84107e0u | rd); }     /* ldr xd, [sp], #16 */

static int depth_loop;
/* A function's labels and the gotos to patch once all are placed. */
static Node *fn_labels[1024], *fn_gotos[1024];
static int nlabels, ngotos;
static int *breaks, nbreaks, *conts, nconts;
static int ret_fixups[4096], nret;
/* The frame slot holding x8 (a large struct result's place) in a function returning one. */
static int ret_slot;

static void gen_expr(Node *n);
static void gen_stmt(Node *n);

/* The address of an lvalue in x0. */
static void add_var_fixup(int at, Var *v, const char *src);

static void gen_addr(Node *n)
{
    if (n->kind == N_VAR) {
        if (n->var->vla) {
            frame_addr(0, n->var->offset);
            emit(0xf9400000u); /* ldr x0, [x0] */
            return;
        }
        if (n->var->pending) {
            add_var_fixup(ncode, n->var, n->at);
            emit(0xd2800000u); /* movz x0, #lo */
            emit(0xf2a00000u); /* movk x0, #hi, lsl #16 */
            return;
        }
        if (n->var->global) {
            load_imm(0, DATA_BASE + n->var->offset);
        } else {
            frame_addr(0, n->var->offset);
        }
        return;
    }
    if (n->kind == N_DEREF) {
        gen_expr(n->a);
        return;
    }
    if (n->kind == N_STR) {
        load_imm(0, DATA_BASE + n->val);
        return;
    }
    if (n->kind == N_STMTEXPR) {
        gen_stmt(n->a);
        gen_addr(n->b);
        return;
    }
    if (n->ty && n->ty->kind == TY_STRUCT &&
        (n->kind == N_CALL || n->kind == N_ASSIGN || n->kind == N_COND || n->kind == N_COMMA)) {
        gen_expr(n); /* a struct's value is its address */
        return;
    }
    if (n->kind == N_FUNCADDR) {
        add_fixup(ncode, n->name, n->at, 1);
        emit(0x10000000u); /* adr x0, function */
        return;
    }
    if (n->kind == N_MEMBER) {
        gen_addr(n->a);
        if (n->mem->offset > 0xfff) {
            load_imm(1, n->mem->offset);
            emit(0x8b010000u); /* add x0, x0, x1 */
        } else if (n->mem->offset) {
            emit(0x91000000u | ((unsigned)n->mem->offset << 10)); /* add x0, x0, #off */
        }
        return;
    }
    error_at(n->at, "not an lvalue");
}

/* x0 = *(type *)x0. */
static void load(Type *ty)
{
    if (ty->kind == TY_FLOAT && ty->size > 8)
        error_at(0, "long double values (not yet)");
    if (ty->kind == TY_ARRAY || ty->kind == TY_STRUCT || ty->kind == TY_FUNC || is_wide(ty))
        return; /* an array (a struct, a function, an __int128) is its address */
    if (ty->bits) { /* its unit, then its bits */
        emit(ty->unit == 1 ? 0x39400000u : ty->unit == 2 ? 0x79400000u : ty->unit == 4 ? 0xb9400000u : 0xf9400000u); /* ldr x0, [x0] */
        unsigned p = (unsigned)ty->bitpos, hi = p + (unsigned)ty->bits - 1;
        emit((ty->is_unsigned ? 0xd3400000u : 0x93400000u) | (p << 16) | (hi << 10)); /* ubfx / sbfx x0, x0, #p, #bits */
        return;
    }
    int u = ty->is_unsigned;
    if (ty->size == 1)
        emit(u ? 0x39400000u : 0x39800000u); /* ldrb w0 / ldrsb x0, [x0] */
    else if (ty->size == 2)
        emit(u ? 0x79400000u : 0x79800000u); /* ldrh w0 / ldrsh x0, [x0] */
    else if (ty->size == 4)
        emit(u ? 0xb9400000u : 0xb9800000u); /* ldr w0 / ldrsw x0, [x0] */
    else
        emit(0xf9400000u); /* ldr x0, [x0] */
}

/* *(type *)x1 = x0. */
static void store(Type *ty)
{
    if (is_wide(ty)) { /* from the place x0 names; the value is then the target's */
        emit(0xa9400c02u); /* ldp x2, x3, [x0] */
        emit(0xa9000c22u); /* stp x2, x3, [x1] */
        emit(0xaa0103e0u); /* mov x0, x1 */
        return;
    }
    if (ty->bits) { /* into its unit, the other bits kept */
        int sz = ty->unit;
        emit(sz == 1 ? 0x39400024u : sz == 2 ? 0x79400024u : sz == 4 ? 0xb9400024u : 0xf9400024u); /* ldr x4, [x1] */
        emit(0xb3400004u | ((unsigned)((64 - ty->bitpos) & 63) << 16) | ((unsigned)(ty->bits - 1) << 10)); /* bfi x4, x0, #p, #bits */
        emit(sz == 1 ? 0x39000024u : sz == 2 ? 0x79000024u : sz == 4 ? 0xb9000024u : 0xf9000024u); /* str x4, [x1] */
        return;
    }
    if (ty->size == 1)
        emit(0x39000020u); /* strb w0, [x1] */
    else if (ty->size == 2)
        emit(0x79000020u); /* strh w0, [x1] */
    else if (ty->size == 4)
        emit(0xb9000020u); /* str w0, [x1] */
    else
        emit(0xf9000020u); /* str x0, [x1] */
}

static void cset(unsigned cond) { emit(0x9a9f07e0u | ((cond ^ 1) << 12)); } /* cset x0, cond */

/* Narrows x0 to `ty` as a conversion does. */
static void narrow(Type *ty)
{
    int u = ty->is_unsigned;
    if (is_wide(ty))
        return;
    if (ty == &ty_bool) { /* any nonzero value is 1 */
        emit(0xf100001fu); /* cmp x0, #0 */
        cset(1);           /* ne */
        return;
    }
    if (ty->bits) {
        emit((u ? 0xd3400000u : 0x93400000u) | ((unsigned)(ty->bits - 1) << 10)); /* ubfx / sbfx x0, x0, #0, #bits */
        return;
    }
    if (ty->kind == TY_CHAR)
        emit(u ? 0x92401c00u : 0x93401c00u); /* and x0, x0, #0xff / sxtb x0, w0 */
    else if (ty->kind == TY_SHORT)
        emit(u ? 0x92403c00u : 0x93403c00u); /* and x0, x0, #0xffff / sxth x0, w0 */
    else if (ty->kind == TY_INT)
        emit(u ? 0x2a0003e0u : 0x93407c00u); /* mov w0, w0 / sxtw x0, w0 */
}


static int label_here(void) { return ncode; }

/* A branch to patch: returns its index. */
static int branch(unsigned op)
{
    emit(op);
    return ncode - 1;
}

static void patch(int at, int target)
{
    int off = target - at;
    unsigned w = code[at];
    if ((w & 0x7e000000u) == 0x34000000u || (w & 0xff000010u) == 0x54000000u) /* cbz, b.cond */
        code[at] = (w & 0xff00001fu) | ((unsigned)(off & 0x7ffff) << 5);
    else if ((w & 0x7e000000u) == 0x36000000u) /* tbz/tbnz */
        code[at] = (w & 0xfff8001fu) | ((unsigned)(off & 0x3fff) << 5);
    else /* b */
        code[at] = (w & 0xfc000000u) | (unsigned)(off & 0x3ffffff);
}

/* Copies `size` bytes from [x0] to [x1] (both move on; x2, x3 used). */
static void copy_bytes(int size)
{
    load_imm(2, size);
    int top = label_here();
    emit(0x38401403u);               /* ldrb w3, [x0], #1 */
    emit(0x38001423u);               /* strb w3, [x1], #1 */
    emit(0xf1000442u);               /* subs x2, x2, #1 */
    patch(branch(0x54000001u), top); /* b.ne top */
}

/* After a call: a struct result is the address of its frame slot (a small one arrives in x0
 * and x1 and is stored there first). */
static void fp_out(Type *t);

static void call_result(Node *n)
{
    if (is_flt(n->ty)) { /* in s0/d0 */
        fp_out(n->ty);
        return;
    }
    if (n->ty->kind != TY_STRUCT && !is_wide(n->ty))
        return;
    if (n->ty->size <= 16) {
        frame_addr(9, n->var->offset);
        emit(0xf9000120u);                                                    /* str x0, [x9] */
        if (n->ty->size > 8)
            emit(0xf9000521u); /* str x1, [x9, #8] */
    }
    frame_addr(0, n->var->offset);
}

/* A local scalar within 256 bytes of x29: one ldur/stur reaches it (the common case, kept
 * out of the general address-then-load path). */
static int near_local(Node *n)
{
    return n->kind == N_VAR && !n->var->global && !n->var->pending && n->var->offset <= 256 &&
           (is_integer(n->ty) || n->ty->kind == TY_PTR || (is_flt(n->ty) && n->ty->size <= 8)) &&
           n->ty != &ty_bool && !is_wide(n->ty);
}

/* ldur (loading) or stur xd at x29 - off, for a scalar of type ty. */
static void local_access_rd(Type *ty, int off, int loading, int rd)
{
    unsigned imm = ((unsigned)-off & 0x1ff) << 12, op;
    int u = ty->is_unsigned || ty->kind == TY_PTR;
    if (ty->size == 1)
        op = loading ? (u ? 0x38400000u : 0x38800000u) : 0x38000000u; /* ldurb / ldursb x / sturb */
    else if (ty->size == 2)
        op = loading ? (u ? 0x78400000u : 0x78800000u) : 0x78000000u; /* ldurh / ldursh x / sturh */
    else if (ty->size == 4)
        op = loading ? (u ? 0xb8400000u : 0xb8800000u) : 0xb8000000u; /* ldur w / ldursw / stur w */
    else
        op = loading ? 0xf8400000u : 0xf8000000u; /* ldur / stur x */
    emit(op | imm | (29 << 5) | (unsigned)rd);
}

static void local_access(Type *ty, int off, int loading) { local_access_rd(ty, off, loading, 0); }

/* log2 of v when it is a power of two (above 1), else -1. */
static int shift_of(long v)
{
    for (int k = 1; k < 63; k++)
        if (v == 1L << k)
            return k;
    return -1;
}

/* Whether a binary operation has a small constant on the right that its immediate form takes
 * (x0 op= imm: nothing but x0 used). */
static int immediate_op(Node *n)
{
    if (!n->b || n->b->kind != N_NUM || n->b->val < 0 || n->b->val >= 4096 || is_wide(n->ty) ||
        is_wide(n->a->ty) || is_flt(n->ty) || is_flt(n->a->ty) || is_flt(n->b->ty))
        return 0;
    switch (n->kind) {
    case N_ADD: case N_SUB: case N_EQ: case N_NE: case N_LT: case N_LE: return 1;
    case N_SHL: case N_SHR: return n->b->val < 64;
    case N_MUL: return shift_of(n->b->val) > 0;
    default: return 0;
    }
}

/* Whether n's value can be made in x0 leaving x1 alone: then a binary operation needs no stack
 * slot for its left operand. */
static int leaves_x1(Node *n)
{
    if (is_wide(n->ty))
        return 0;
    if (n->kind == N_NUM || near_local(n) ||
        (n->kind == N_VAR && n->var->global && !n->var->pending && is_integer(n->ty)))
        return 1;
    if (n->kind == N_CAST)
        return is_integer(n->ty) && !is_wide(n->a->ty) && leaves_x1(n->a);
    return immediate_op(n) && leaves_x1(n->a);
}

static void gen_truth(Node *n);
static void fp_in(Type *t, int vd, int rn);

static int is_compare(Node *n)
{
    return (n->kind == N_EQ || n->kind == N_NE || n->kind == N_LT || n->kind == N_LE) &&
           !is_wide(n->a->ty) && !is_wide(n->b->ty) && !is_flt(n->a->ty) && !is_flt(n->b->ty);
}

/* A binary operation's operands: a in x1, b in x0 (without a stack slot when b leaves x1
 * alone); as 32-bit unsigned values when the operation is on unsigned int. */
static void gen_operands(Node *n, int uint_op)
{
    gen_expr(n->a);
    if (leaves_x1(n->b)) {
        emit(0xaa0003e1u); /* mov x1, x0 */
        gen_expr(n->b);
    } else {
        push();
        gen_expr(n->b);
        pop(1);
    }
    if (uint_op) {
        emit(0x2a0003e0u); /* mov w0, w0 */
        emit(0x2a0103e1u); /* mov w1, w1 */
    }
}

/* A comparison's operands compared (flags set, nothing else); the condition code for true. */
static int gen_compare(Node *n)
{
    int ptr = is_pointer(n->a->ty) || is_pointer(n->b->ty);
    int uint_op = !ptr && arith(n->a->ty, n->b->ty) == &ty_uint;
    int uns = ptr || arith(n->a->ty, n->b->ty)->is_unsigned;
    int cond = n->kind == N_EQ ? 0 : n->kind == N_NE ? 1 : n->kind == N_LT ? (uns ? 3 : 11) : (uns ? 9 : 13);
    if (immediate_op(n)) {
        gen_expr(n->a);
        if (uint_op)
            emit(0x2a0003e0u); /* mov w0, w0 */
        emit(0xf100001fu | ((unsigned)n->b->val << 10)); /* cmp x0, #imm */
        return cond;
    }
    gen_operands(n, uint_op);
    emit(0xeb00003fu); /* cmp x1, x0 */
    return cond;
}

/* A branch, to be patched, taken when the condition n is false (zero). */
static int branch_if_false(Node *n)
{
    if (is_compare(n))
        return branch(0x54000000u | (unsigned)(gen_compare(n) ^ 1)); /* b.!cond */
    gen_truth(n);
    return branch(0xb4000000u); /* cbz x0 */
}

/* A condition's value in x0, zero or not (an __int128's two halves or'ed). */
static void gen_truth(Node *n)
{
    gen_expr(n);
    if (is_wide(n->ty)) {
        emit(0xa9400801u); /* ldp x1, x2, [x0] */
        emit(0xaa020020u); /* orr x0, x1, x2 */
    } else if (is_flt(n->ty)) { /* -0.0 is false, NaN true */
        fp_in(n->ty, 0, 0);
        emit(n->ty->size == 8 ? 0x1e602008u : 0x1e202008u); /* fcmp d0/s0, #0.0 */
        cset(1);                                           /* ne */
    }
}

/* s0/d0 = the float or double bits in x<rn> (fmov). */
static void fp_in(Type *t, int vd, int rn)
{
    emit((t->size == 8 ? 0x9e670000u : 0x1e270000u) | ((unsigned)rn << 5) | (unsigned)vd);
}

/* x0 = the bits of s0/d0. */
static void fp_out(Type *t)
{
    emit(t->size == 8 ? 0x9e660000u : 0x1e260000u);
}

/* x0 converted from type `from` to `to`, one of them floating. */
static void gen_fp_cast(Type *from, Type *to, const char *at)
{
    if (is_wide(from) || is_wide(to) || from->size > 8 || to->size > 8 || is_pointer(from) ||
        is_pointer(to) || to->kind == TY_STRUCT || from->kind == TY_STRUCT)
        error_at(at, "this conversion of a floating value (not yet)");
    if (to->kind == TY_VOID)
        return;
    if (is_flt(from) && is_flt(to)) {
        if (from->size != to->size) {
            fp_in(from, 0, 0);
            emit(to->size == 8 ? 0x1e22c000u : 0x1e624000u); /* fcvt d0, s0 / fcvt s0, d0 */
            fp_out(to);
        }
        return;
    }
    if (is_flt(to)) { /* from an integer, kept as its 64-bit extension */
        unsigned op = to->size == 8 ? 0x9e620000u : 0x9e220000u; /* scvtf d0/s0, x0 */
        emit(op | (from->is_unsigned && from->size == 8 ? 0x10000u : 0));      /* ucvtf */
        fp_out(to);
        return;
    }
    fp_in(from, 0, 0);
    if (to == &ty_bool) {
        emit(from->size == 8 ? 0x1e602008u : 0x1e202008u); /* fcmp #0.0 */
        cset(1);
        return;
    }
    unsigned op = from->size == 8 ? 0x9e780000u : 0x9e380000u; /* fcvtzs x0, d0/s0 */
    emit(op | (to->is_unsigned ? 0x10000u : 0));                /* fcvtzu */
    narrow(to);
}

/* A floating operation or comparison: a in s0/d0, b in s1/d1 (both of one type). */
static void gen_fp(Node *n)
{
    Type *t = n->a->ty;
    unsigned dbl = t->size == 8 ? 0x400000u : 0; /* the type bit: double */
    gen_operands(n, 0);
    fp_in(t, 0, 1);
    fp_in(t, 1, 0);
    switch (n->kind) {
    case N_ADD: emit(0x1e212800u | dbl); break; /* fadd */
    case N_SUB: emit(0x1e213800u | dbl); break; /* fsub */
    case N_MUL: emit(0x1e210800u | dbl); break; /* fmul */
    case N_DIV: emit(0x1e211800u | dbl); break; /* fdiv */
    case N_EQ: case N_NE: case N_LT: case N_LE:
        emit(0x1e212000u | dbl); /* fcmp s0/d0, s1/d1: unordered is none of eq, mi, ls */
        cset(n->kind == N_EQ ? 0 : n->kind == N_NE ? 1 : n->kind == N_LT ? 4 : 9); /* eq ne mi ls */
        return;
    default:
        error_at(n->at, "this operation on a floating value");
    }
    fp_out(n->ty);
}

/* x6:x7 into n's place; x0 its address. */
static void wide_result(Node *n)
{
    frame_addr(0, n->var->offset);
    emit(0xa9001c06u); /* stp x6, x7, [x0] */
}

static void gen_expr(Node *n);

/* An __int128 operation: a's halves in x2:x3, b's in x4:x5 (a shift's count in x4). */
static void gen_wide(Node *n)
{
    gen_operands(n, 0);
    emit(0xa9400c22u); /* ldp x2, x3, [x1] */
    if (n->kind == N_SHL || n->kind == N_SHR)
        emit(0xaa0003e4u); /* mov x4, x0 */
    else
        emit(0xa9401404u); /* ldp x4, x5, [x0] */
    int u = n->kind == N_LT || n->kind == N_LE ? n->a->ty->is_unsigned : n->ty->is_unsigned;
    switch (n->kind) {
    case N_ADD: emit(0xab040046u); emit(0x9a050067u); break; /* adds x6, x2, x4; adc x7, x3, x5 */
    case N_SUB: emit(0xeb040046u); emit(0xda050067u); break; /* subs; sbc */
    case N_MUL:
        emit(0x9b047c46u); /* mul x6, x2, x4 */
        emit(0x9bc47c47u); /* umulh x7, x2, x4 */
        emit(0x9b051c47u); /* madd x7, x2, x5, x7 */
        emit(0x9b041c67u); /* madd x7, x3, x4, x7 */
        break;
    case N_AND: emit(0x8a040046u); emit(0x8a050067u); break;
    case N_OR: emit(0xaa040046u); emit(0xaa050067u); break;
    case N_XOR: emit(0xca040046u); emit(0xca050067u); break;
    case N_SHL:
        emit(0x9ac42067u); /* lsl x7, x3, x4 */
        emit(0x2a2403e8u); /* mvn w8, w4 */
        emit(0xd341fc49u); /* lsr x9, x2, #1 */
        emit(0x9ac82529u); /* lsr x9, x9, x8: what crosses into the high half */
        emit(0xaa0900e7u); /* orr x7, x7, x9 */
        emit(0x9ac42046u); /* lsl x6, x2, x4 */
        emit(0xf27a009fu); /* tst x4, #64 */
        emit(0x9a8710c7u); /* csel x7, x6, x7, ne */
        emit(0x9a8613e6u); /* csel x6, xzr, x6, ne */
        break;
    case N_SHR:
        emit(0x9ac42446u); /* lsr x6, x2, x4 */
        emit(0x2a2403e8u); /* mvn w8, w4 */
        emit(0xd37ff869u); /* lsl x9, x3, #1 */
        emit(0x9ac82129u); /* lsl x9, x9, x8: what crosses into the low half */
        emit(0xaa0900c6u); /* orr x6, x6, x9 */
        emit(u ? 0x9ac42467u : 0x9ac42867u); /* lsr / asr x7, x3, x4 */
        emit(0xf27a009fu); /* tst x4, #64 */
        emit(0x9a8610e6u); /* csel x6, x7, x6, ne */
        if (u) {
            emit(0x9a8713e7u); /* csel x7, xzr, x7, ne */
        } else {
            emit(0x937ffc69u); /* asr x9, x3, #63 */
            emit(0x9a871127u); /* csel x7, x9, x7, ne */
        }
        break;
    case N_EQ: case N_NE:
        emit(0xca040046u); /* eor x6, x2, x4 */
        emit(0xca050067u); /* eor x7, x3, x5 */
        emit(0xaa0700c6u); /* orr x6, x6, x7 */
        emit(0xf10000dfu); /* cmp x6, #0 */
        cset(n->kind == N_EQ ? 0 : 1);
        return;
    case N_LT: /* a - b as 128 bits: its flags */
        emit(0xeb04005fu); /* cmp x2, x4 */
        emit(0xfa05007fu); /* sbcs xzr, x3, x5 */
        cset(u ? 3 : 11);  /* lo / lt */
        return;
    case N_LE: /* !(b < a) */
        emit(0xeb02009fu); /* cmp x4, x2 */
        emit(0xfa0300bfu); /* sbcs xzr, x5, x3 */
        cset(u ? 2 : 10);  /* hs / ge */
        return;
    default:
        error_at(n->at, "this operation on __int128 (not yet)");
    }
    wide_result(n);
}

static void gen_expr(Node *n)
{
    add_type(n);
    switch (n->kind) {
    case N_NUM:
        load_imm(0, n->val);
        return;
    case N_VAR:
        if (near_local(n)) {
            local_access(n->ty, n->var->offset, 1);
            return;
        }
        gen_addr(n);
        load(n->ty);
        return;
    case N_MEMBER: {
        /* A scalar member: one load at its offset from the object's address. */
        Type *t = n->ty;
        int off = n->mem->offset, sz = t->size;
        if ((is_integer(t) || t->kind == TY_PTR) && !t->bits && !is_wide(t) && t != &ty_bool &&
            off > 0 && off % sz == 0 && off / sz < 4096) {
            gen_addr(n->a);
            unsigned imm = (unsigned)(off / sz) << 10;
            int u = t->is_unsigned || t->kind == TY_PTR;
            if (sz == 1)
                emit((u ? 0x39400000u : 0x39800000u) | imm); /* ldrb w0 / ldrsb x0, [x0, #off] */
            else if (sz == 2)
                emit((u ? 0x79400000u : 0x79800000u) | imm); /* ldrh / ldrsh */
            else if (sz == 4)
                emit((u ? 0xb9400000u : 0xb9800000u) | imm); /* ldr w0 / ldrsw */
            else
                emit(0xf9400000u | imm); /* ldr x0, [x0, #off] */
            return;
        }
        gen_addr(n);
        load(n->ty);
        return;
    }
    case N_STR:
        gen_addr(n);
        load(n->ty);
        return;
    case N_DEREF:
        gen_expr(n->a);
        load(n->ty);
        return;
    case N_ADDR:
        gen_addr(n->a);
        return;
    case N_ASSIGN:
        if (n->a->ty->kind == TY_ARRAY)
            error_at(n->at, "assigning to an array");
        if (n->a->ty->kind == TY_STRUCT) {
            if (n->b->ty->kind != TY_STRUCT || n->b->ty->size != n->a->ty->size)
                error_at(n->at, "assigning something else to a struct");
            /* A byte copy from the source's address to the target's; the value is the target. */
            gen_addr(n->a);
            push();
            gen_expr(n->b);
            pop(1);
            emit(0xaa0103e4u); /* mov x4, x1 */
            copy_bytes(n->a->ty->size);
            emit(0xaa0403e0u); /* mov x0, x4 */
            return;
        }
        if (near_local(n->a)) {
            gen_expr(n->b);
            narrow(n->a->ty);
            local_access(n->a->ty, n->a->var->offset, 0);
            return;
        }
        gen_addr(n->a);
        push();
        gen_expr(n->b);
        narrow(n->a->ty);
        pop(1);
        store(n->a->ty);
        return;
    case N_OPASSIGN:
        gen_addr(n->a);
        frame_addr(1, n->var->offset);
        emit(0xf9000020u); /* str x0, [x1] */
        gen_expr(n->b);
        narrow(n->a->ty);
        frame_addr(1, n->var->offset);
        emit(0xf9400021u); /* ldr x1, [x1] */
        store(n->a->ty);
        return;
    case N_OLDVAL:
        frame_addr(0, n->var->offset);
        emit(0xf9400000u); /* ldr x0, [x0] */
        load(n->ty);
        return;
    case N_PREINC:
    case N_POSTINC: {
        Type *t = n->a->ty;
        int near = near_local(n->a) && !is_flt(t);
        if (near) { /* the local's value straight from its slot, and back */
            local_access(t, n->a->var->offset, 1);
        } else {
            gen_addr(n->a);
            emit(0xaa0003e1u); /* mov x1, x0 */
            load(t);
        }
        emit(0xaa0003e2u); /* mov x2, x0 (the old value) */
        if (is_flt(t)) { /* x +/- 1.0 */
            load_imm(3, cc_fp_from_int(n->val, 0, t->size));
            fp_in(t, 1, 3);
            fp_in(t, 0, 0);
            emit(0x1e212800u | (t->size == 8 ? 0x400000u : 0)); /* fadd */
            fp_out(t);
        } else if (n->val > 0 && n->val < 4096) {
            emit(0x91000000u | ((unsigned)n->val << 10)); /* add x0, x0, #step */
        } else if (n->val < 0 && n->val > -4096) {
            emit(0xd1000000u | ((unsigned)-n->val << 10)); /* sub x0, x0, #-step */
        } else {
            load_imm(3, n->val);
            emit(0x8b030000u); /* add x0, x0, x3 */
        }
        narrow(t);
        if (near)
            local_access(t, n->a->var->offset, 0);
        else
            store(t);
        if (n->kind == N_POSTINC)
            emit(0xaa0203e0u); /* mov x0, x2 */
        return;
    }
    case N_NEG:
        if (is_flt(n->ty)) {
            gen_expr(n->a);
            fp_in(n->ty, 0, 0);
            emit(n->ty->size == 8 ? 0x1e614000u : 0x1e214000u); /* fneg */
            fp_out(n->ty);
            return;
        }
        if (is_wide(n->ty)) {
            gen_expr(n->a);
            emit(0xa9400c02u); /* ldp x2, x3, [x0] */
            emit(0xeb0203e6u); /* negs x6, x2 */
            emit(0xda0303e7u); /* ngc x7, x3 */
            wide_result(n);
            return;
        }
        gen_expr(n->a);
        emit(0xcb0003e0u); /* neg x0, x0 */
        narrow(n->ty);
        return;
    case N_NOT:
        gen_truth(n->a);
        emit(0xf100001fu); /* cmp x0, #0 */
        cset(0);           /* eq */
        return;
    case N_BITNOT:
        if (is_wide(n->ty)) {
            gen_expr(n->a);
            emit(0xa9400c02u); /* ldp x2, x3, [x0] */
            emit(0xaa2203e6u); /* mvn x6, x2 */
            emit(0xaa2303e7u); /* mvn x7, x3 */
            wide_result(n);
            return;
        }
        gen_expr(n->a);
        emit(0xaa2003e0u); /* mvn x0, x0 */
        narrow(n->ty);
        return;
    case N_CAST:
        gen_expr(n->a);
        if (is_flt(n->ty) || is_flt(n->a->ty)) {
            gen_fp_cast(n->a->ty, n->ty, n->at);
            return;
        }
        if (is_wide(n->ty) && !is_wide(n->a->ty)) { /* widened by the source's signedness */
            int u = n->a->ty->is_unsigned || is_pointer(n->a->ty);
            emit(u ? 0xd2800001u : 0x937ffc01u); /* mov x1, #0 / asr x1, x0, #63 */
            frame_addr(2, n->var->offset);
            emit(0xa9000440u); /* stp x0, x1, [x2] */
            emit(0xaa0203e0u); /* mov x0, x2 */
            return;
        }
        if (is_wide(n->a->ty) && !is_wide(n->ty)) {
            if (n->ty == &ty_bool) {
                emit(0xa9400801u); /* ldp x1, x2, [x0] */
                emit(0xaa020020u); /* orr x0, x1, x2 */
            } else {
                emit(0xf9400000u); /* ldr x0, [x0]: the low half */
            }
        }
        narrow(n->ty);
        return;
    case N_COMMA:
        gen_expr(n->a);
        gen_expr(n->b);
        return;
    case N_LOGAND:
    case N_LOGOR: {
        gen_truth(n->a);
        int j = branch(n->kind == N_LOGAND ? 0xb4000000u : 0xb5000000u); /* cbz/cbnz x0 */
        gen_truth(n->b);
        patch(j, label_here());
        emit(0xf100001fu); /* cmp x0, #0 */
        cset(1);           /* ne */
        return;
    }
    case N_COND: {
        int j = branch_if_false(n->a);
        gen_expr(n->b);
        int e = branch(0x14000000u);
        patch(j, label_here());
        gen_expr(n->c);
        patch(e, label_here());
        return;
    }
    case N_FUNCADDR:
        gen_addr(n);
        return;
    case N_A64:
        if (n->a)
            gen_expr(n->a);
        if (n->words) {
            emit(n->words[0]);
            for (int i = 1; n->words[i]; i++)
                emit(n->words[i]);
        } else {
            emit(n->word);
        }
        return;
    case N_OVERFLOW: {
        /* x3 = a op b as 64 bits (operands are their types' 64-bit extensions), w4 = whether
         * that overflowed, then whether the result type holds it; *c = x3. */
        Type *r = n->c->ty->base;
        int uns = (n->a->ty->size == 8 && n->a->ty->is_unsigned) ||
                  (n->b->ty->size == 8 && n->b->ty->is_unsigned);
        gen_expr(n->a);
        push();
        gen_expr(n->b);
        push();
        gen_expr(n->c);
        pop(1);
        pop(2);
        if (n->val == N_MUL) {
            emit(0x9b017c43u);                     /* mul x3, x2, x1 */
            emit(uns ? 0x9bc17c45u : 0x9b417c45u); /* umulh / smulh x5, x2, x1 */
            emit(uns ? 0xf10000bfu : 0xeb83fcbfu); /* cmp x5, #0 / cmp x5, x3, asr #63 */
            emit(0x1a9f07e4u);                     /* cset w4, ne */
        } else {
            emit(n->val == N_ADD ? 0xab010043u : 0xeb010043u); /* adds / subs x3, x2, x1 */
            emit(uns ? 0x1a9f37e4u : 0x1a9f77e4u);             /* cset w4, cs / vs */
        }
        if (r->size == 8 && r->is_unsigned && !uns) {
            emit(0xf100007fu); /* cmp x3, #0 */
            emit(0x1a9fa7e5u); /* cset w5, lt */
            emit(0x2a050084u); /* orr w4, w4, w5 */
        } else if (r->size < 8) {
            if (r->is_unsigned)
                emit(0xd340fc65u | ((unsigned)(8 * r->size) << 16)); /* lsr x5, x3, #bits */
            else
                emit(r->size == 1 ? 0x93401c65u : r->size == 2 ? 0x93403c65u : 0x93407c65u); /* sxt x5, x3 */
            emit(r->is_unsigned ? 0xf10000bfu : 0xeb0300bfu); /* cmp x5, #0 / cmp x5, x3 */
            emit(0x1a9f07e5u);                                /* cset w5, ne */
            emit(0x2a050084u);                                /* orr w4, w4, w5 */
        }
        emit(r->size == 1 ? 0x39000003u : r->size == 2 ? 0x79000003u : r->size == 4 ? 0xb9000003u : 0xf9000003u); /* str x3, [x0] */
        emit(0x2a0403e0u); /* mov w0, w4 */
        return;
    }
    case N_STMTEXPR:
        gen_stmt(n->a);
        gen_expr(n->b);
        return;
    case N_VASTART:
        gen_addr(n->a);
        emit(0x910003a1u | ((unsigned)(16 + 8 * cur_named_stack) << 10)); /* add x1, x29, #16 + named */
        emit(0xf9000001u);                                                          /* str x1, [x0] */
        frame_addr(1, va_area - 64);
        emit(0xf9000401u);                                                          /* str x1, [x0, #8] */
        frame_addr(1, vr_area - 128);
        emit(0xf9000801u);                                                          /* str x1, [x0, #16] */
        load_imm(1, -(8 - cur_named_regs) * 8);
        emit(0xb9001801u);                                                          /* str w1, [x0, #24] */
        load_imm(1, -(8 - cur_named_vregs) * 16);
        emit(0xb9001c01u);                                                          /* str w1, [x0, #28] */
        return;
    case N_VAARG: {
        /* The next general (or FP: 16-byte) register saved, else the next stacked argument. */
        int flt = is_flt(n->ty);
        gen_addr(n->a);
        emit(0xaa0003e2u); /* mov x2, x0 */
        emit(flt ? 0xb9801c41u : 0xb9801841u); /* ldrsw x1, [x2, #28 / #24] */
        int to_stack = branch(0xb6f80001u); /* tbz x1, #63, stack */
        emit(flt ? 0xf9400843u : 0xf9400443u); /* ldr x3, [x2, #16 / #8] */
        emit(0x8b010060u); /* add x0, x3, x1 */
        emit(flt ? 0x91004021u : 0x91002021u); /* add x1, x1, #16 / #8 */
        emit(flt ? 0xb9001c41u : 0xb9001841u); /* str w1, [x2, #28 / #24] */
        int done = branch(0x14000000u);
        patch(to_stack, label_here());
        emit(0xf9400040u); /* ldr x0, [x2] */
        emit(0x91002003u); /* add x3, x0, #8 */
        emit(0xf9000043u); /* str x3, [x2] */
        patch(done, label_here());
        load(n->ty);
        return;
    }
    case N_CALL: {
        int argc = 0;
        for (Node *a = n->a; a; a = a->next)
            argc++;
        Type **arg_ty = xalloc(malloc((argc + 1) * sizeof(Type *)));
        int *reg = xalloc(malloc((argc + 1) * sizeof(int)));
        int *slot = xalloc(malloc((argc + 1) * sizeof(int)));
        int *pushed = xalloc(malloc((argc + 1) * sizeof(int)));
        int syscall = n->name && !strcmp(n->name, "__syscall");
        argc = 0;
        for (Node *a = n->a; a; a = a->next) {
            add_type(a);
            arg_ty[argc++] = a->ty;
        }
        int nreg, nvreg, stacked = arg_layout(arg_ty, argc, reg, slot, &nreg, &nvreg);
        /* Arguments evaluated in order onto the stack, but for register ones that need no
         * evaluating (constants, strings, near locals): those go straight to their registers
         * last. pushed[i]: its place among the pushed, -1 for those. */
        int npushed = 0, i = 0;
        for (Node *a = n->a; a; a = a->next, i++) {
            int direct = !syscall && reg[i] >= 0 && !in_pair(a->ty) && !is_flt(a->ty) &&
                         (a->kind == N_NUM || a->kind == N_STR || near_local(a));
            pushed[i] = direct ? -1 : npushed++;
            if (!direct) {
                gen_expr(a);
                push();
            }
        }
        if (syscall) {
            for (int k = argc - 1; k >= 0; k--)
                pop(k);
            emit(0xaa0003e8u); /* mov x8, x0 */
            for (int k = 1; k < argc; k++)
                emit(0xaa0003e0u | (k << 16) | (k - 1)); /* mov x(k-1), xk */
            emit(0xd4000001u);                            /* svc #0 */
            return;
        }
        if (n->b) {
            gen_expr(n->b);
            emit(0xaa0003e9u); /* mov x9, x0 */
        }
        /* The stacked arguments below the evaluated ones (each 16 bytes up there), then the
         * register ones loaded from where they were pushed. */
        int area = (stacked * 8 + 15) / 16 * 16, temps = 16 * npushed;
        if (area)
            emit(0xd1000000u | ((unsigned)area << 10) | (31 << 5) | 31); /* sub sp, sp, #area */
        for (int k = 0; k < argc; k++) {
            if (reg[k] >= 0)
                continue;
            unsigned at = (unsigned)(area + 16 * (npushed - 1 - pushed[k]));
            emit(0xf94003eau | ((at / 8) << 10)); /* ldr x10, [sp, #at] */
            if (in_pair(arg_ty[k])) {
                for (int w = 0; w < arg_regs(arg_ty[k]); w++) {
                    emit(0xf940014bu | ((unsigned)w << 10));                  /* ldr x11, [x10, #8w] */
                    emit(0xf90003ebu | ((unsigned)(slot[k] + w) << 10));      /* str x11, [sp, #8slot] */
                }
            } else {
                emit(0xf90003eau | ((unsigned)slot[k] << 10)); /* str x10, [sp, #8slot] */
            }
        }
        for (int k = 0; k < argc; k++) {
            if (reg[k] < 0 || pushed[k] < 0)
                continue;
            unsigned at = (unsigned)(area + 16 * (npushed - 1 - pushed[k]));
            if (is_flt(arg_ty[k])) {
                emit(0xf94003eau | ((at / 8) << 10)); /* ldr x10, [sp, #at] */
                fp_in(arg_ty[k], reg[k], 10);         /* fmov d/s(r), x10 */
            } else if (in_pair(arg_ty[k])) {
                emit(0xf94003eau | ((at / 8) << 10)); /* ldr x10, [sp, #at] */
                if (arg_regs(arg_ty[k]) == 2)
                    emit(0xf9400540u | (reg[k] + 1)); /* ldr x(r+1), [x10, #8] */
                emit(0xf9400140u | reg[k]);           /* ldr xr, [x10] */
            } else {
                emit(0xf94003e0u | ((at / 8) << 10) | reg[k]); /* ldr xr, [sp, #at] */
            }
        }
        i = 0;
        for (Node *a = n->a; a; a = a->next, i++) {
            if (pushed[i] >= 0)
                continue;
            if (a->kind == N_NUM)
                load_imm(reg[i], a->val);
            else if (a->kind == N_STR)
                load_imm(reg[i], DATA_BASE + a->val);
            else
                local_access_rd(a->ty, a->var->offset, 1, reg[i]);
        }
        free(arg_ty);
        free(reg);
        free(slot);
        free(pushed);
        /* The evaluated arguments are spent: the stacked ones move up over them, so a call
         * holds no more stack than its stacked arguments (deep recursion needs that). */
        for (int k = area / 8 - 1; k >= 0; k--) {
            emit(0xf94003eau | ((unsigned)k << 10));                    /* ldr x10, [sp, #8k] */
            emit(0xf90003eau | ((unsigned)(temps / 8 + k) << 10));      /* str x10, [sp, #temps + 8k] */
        }
        if (temps)
            emit(0x91000000u | ((unsigned)temps << 10) | (31 << 5) | 31); /* add sp, sp, #temps */
        if (n->ty->kind == TY_STRUCT && n->ty->size > 16) {
            /* x8: where a large struct result goes. */
            frame_addr(8, n->var->offset);
        }
        if (n->b) {
            emit(0xd63f0120u); /* blr x9 */
        } else {
            add_fixup(ncode, n->name, n->at, 0);
            emit(0x94000000u); /* bl */
        }
        if (area)
            emit(0x91000000u | ((unsigned)area << 10) | (31 << 5) | 31); /* add sp, sp, #area */
        call_result(n);
        return;
    }
    default:
        break;
    }
    /* Binary operators: a in x1, b in x0, both converted to their common type (only a
     * negative int meeting an unsigned int needs it: every other value is kept as its type's
     * 64-bit extension). */
    if (is_wide(n->ty) || (is_wide(n->a->ty) && n->b && is_wide(n->b->ty))) {
        gen_wide(n);
        return;
    }
    if (is_flt(n->ty) || (n->b && is_flt(n->a->ty) && is_flt(n->b->ty))) {
        gen_fp(n);
        return;
    }
    if (is_compare(n)) {
        cset((unsigned)gen_compare(n));
        return;
    }
    int uint_op = n->kind != N_SHL && n->kind != N_SHR && !is_pointer(n->a->ty) &&
                  !is_pointer(n->b->ty) && arith(n->a->ty, n->b->ty) == &ty_uint;
    if (immediate_op(n)) {
        /* A small constant on the right: its immediate form. */
        /* (Comparisons are gen_compare's; a multiply by a power of two is a shift.) */
        unsigned imm = (unsigned)(n->kind == N_MUL ? shift_of(n->b->val) : n->b->val);
        gen_expr(n->a);
        if (uint_op)
            emit(0x2a0003e0u); /* mov w0, w0 */
        switch (n->kind) {
        case N_ADD: emit(0x91000000u | (imm << 10)); break; /* add x0, x0, #imm */
        case N_SUB: emit(0xd1000000u | (imm << 10)); break; /* sub x0, x0, #imm */
        case N_SHL: case N_MUL:
            emit(0xd3400000u | (((64 - imm) & 63) << 16) | ((63 - imm) << 10)); /* lsl x0, x0, #imm */
            break;
        default: /* N_SHR */
            emit((n->ty->is_unsigned ? 0xd3400000u : 0x93400000u) | (imm << 16) | (63u << 10)); /* lsr / asr */
            break;
        }
        if (!is_pointer(n->ty))
            narrow(n->ty);
        return;
    }
    gen_operands(n, uint_op);
    switch (n->kind) {
    case N_ADD: emit(0x8b000020u); break;            /* add x0, x1, x0 */
    case N_SUB: emit(0xcb000020u); break;            /* sub x0, x1, x0 */
    case N_MUL: emit(0x9b007c20u); break;            /* mul x0, x1, x0 */
    case N_DIV: emit(n->ty->is_unsigned ? 0x9ac00820u : 0x9ac00c20u); break; /* udiv/sdiv */
    case N_MOD:
        emit(n->ty->is_unsigned ? 0x9ac00822u : 0x9ac00c22u); /* udiv/sdiv x2, x1, x0 */
        emit(0x9b008440u); /* msub x0, x2, x0, x1 */
        break;
    case N_AND: emit(0x8a000020u); break;            /* and x0, x1, x0 */
    case N_OR: emit(0xaa000020u); break;             /* orr x0, x1, x0 */
    case N_XOR: emit(0xca000020u); break;            /* eor x0, x1, x0 */
    case N_SHL: emit(0x9ac02020u); break;            /* lsl x0, x1, x0 */
    case N_SHR:
        emit(n->ty->is_unsigned ? 0x9ac02420u : 0x9ac02820u); /* lsr / asr x0, x1, x0 */
        break;
    default:
        error_at(n->at, "unsupported expression");
    }
    if (!is_pointer(n->ty))
        narrow(n->ty);
}

static void gen_stmt(Node *n);

/* The statements of a list, in order. */
static void gen_block(Node *n)
{
    for (; n; n = n->next)
        gen_stmt(n);
}

static void gen_stmt(Node *n)
{
    switch (n->kind) {
    case N_NOP:
        break;
    case N_EXPR:
        gen_expr(n->a);
        break;
    case N_RETURN:
        if (n->a) {
            gen_expr(n->a);
            if (is_integer(cur_ret))
                narrow(cur_ret);
            if (is_wide(cur_ret))
                emit(0xa9400400u); /* ldp x0, x1, [x0] */
            if (is_flt(cur_ret))
                fp_in(cur_ret, 0, 0); /* in s0/d0 */
            if (cur_ret->kind == TY_STRUCT) {
                if (n->a->ty->kind != TY_STRUCT || n->a->ty->size != cur_ret->size)
                    error_at(n->at, "returning something else from a struct function");
                if (cur_ret->size <= 16) {
                    if (cur_ret->size > 8)
                        emit(0xf9400401u); /* ldr x1, [x0, #8] */
                    emit(0xf9400000u);     /* ldr x0, [x0] */
                } else {
                    /* Into the caller's x8, saved in the frame at entry. */
                    frame_addr(9, ret_slot);
                    emit(0xf9400121u); /* ldr x1, [x9] */
                    copy_bytes(cur_ret->size);
                    frame_addr(9, ret_slot);
                    emit(0xf9400120u); /* ldr x0, [x9] */
                }
            }
        }
        if (nret == (int)(sizeof ret_fixups / sizeof ret_fixups[0]))
            error_at(n->at, "too many returns in one function");
        ret_fixups[nret++] = branch(0x14000000u);
        break;
    case N_BLOCK:
        gen_block(n->a);
        if (n->var) { /* its variable-length arrays end with it */
            frame_addr(1, n->var->offset);
            emit(0xf9400021u); /* ldr x1, [x1] */
            emit(0x9100003fu); /* mov sp, x1 */
        }
        break;
    case N_VLA: {
        Type *ty = n->var->ty;
        gen_expr(n->a);
        load_imm(1, ty->base->size);
        emit(0x9b017c00u); /* mul x0, x0, x1 */
        frame_addr(1, ty->vla_size->offset);
        emit(0xf9000020u); /* str x0, [x1] */
        emit(0x91003c00u); /* add x0, x0, #15 */
        emit(0x927cec00u); /* and x0, x0, #~15 */
        if (n->val) { /* the block's first: sp before it, for the block's end */
            frame_addr(1, n->b->var->offset);
            emit(0x910003e2u); /* mov x2, sp */
            emit(0xf9000022u); /* str x2, [x1] */
        }
        emit(0x910003e2u); /* mov x2, sp */
        emit(0xcb000042u); /* sub x2, x2, x0 */
        emit(0x9100005fu); /* mov sp, x2 */
        frame_addr(1, n->var->offset);
        emit(0xf9000022u); /* str x2, [x1] */
        break;
    }
    case N_IF: {
        int j = branch_if_false(n->a);
        gen_stmt(n->b);
        if (n->c) {
            int e = branch(0x14000000u);
            patch(j, label_here());
            gen_stmt(n->c);
            patch(e, label_here());
        } else {
            patch(j, label_here());
        }
        break;
    }
    case N_WHILE: case N_DO: case N_FOR: {
        int *ob = breaks, onb = nbreaks, *oc = conts, onc = nconts;
        int bl[256], cl[256];
        breaks = bl;
        conts = cl;
        nbreaks = nconts = 0;
        if (n->kind == N_FOR && n->c)
            gen_stmt(n->c);
        int top = label_here(), exit_j = -1;
        if (n->kind != N_DO && n->a)
            exit_j = branch_if_false(n->a);
        gen_stmt(n->b);
        int cont = label_here();
        if (n->kind == N_FOR && n->d)
            gen_expr(n->d);
        if (n->kind == N_DO) {
            gen_truth(n->a);
            patch(branch(0xb5000000u), top); /* cbnz x0, top */
        } else {
            patch(branch(0x14000000u), top);
        }
        int out = label_here();
        if (exit_j >= 0)
            patch(exit_j, out);
        for (int i = 0; i < nbreaks; i++)
            patch(breaks[i], out);
        for (int i = 0; i < nconts; i++)
            patch(conts[i], cont);
        breaks = ob;
        nbreaks = onb;
        conts = oc;
        nconts = onc;
        break;
    }
    case N_SWITCH: {
        gen_expr(n->a);
        for (Node *c = n->d; c; c = c->d) {
            load_imm(1, c->val);
            emit(0xeb01001fu);            /* cmp x0, x1 */
            c->jump = branch(0x54000000u); /* b.eq */
        }
        int dflt = branch(0x14000000u);
        int *ob = breaks, onb = nbreaks, bl[256];
        breaks = bl;
        nbreaks = 0;
        gen_stmt(n->b);
        int end = label_here();
        for (Node *c = n->d; c; c = c->d)
            patch(c->jump, c->label);
        patch(dflt, n->c ? n->c->label : end);
        for (int i = 0; i < nbreaks; i++)
            patch(breaks[i], end);
        breaks = ob;
        nbreaks = onb;
        break;
    }
    case N_CASE:
        n->label = label_here();
        break;
    case N_LABEL:
        if (nlabels == 1024)
            error_at(n->at, "too many labels");
        for (int i = 0; i < nlabels; i++)
            if (!strcmp(fn_labels[i]->name, n->name))
                error_at(n->at, "a label defined twice");
        n->label = label_here();
        fn_labels[nlabels++] = n;
        break;
    case N_GOTO:
        if (ngotos == 1024)
            error_at(n->at, "too many gotos");
        n->jump = branch(0x14000000u);
        fn_gotos[ngotos++] = n;
        break;
    case N_ZERO: {
        /* The object's bytes, zeroed one by one in a loop (x0 the address, x1 the count). */
        int size = n->a->ty->size;
        gen_addr(n->a);
        load_imm(1, size);
        int top = label_here();
        emit(0x3800141fu); /* strb wzr, [x0], #1 */
        emit(0xf1000421u); /* subs x1, x1, #1 */
        patch(branch(0x54000001u), top); /* b.ne top */
        break;
    }
    case N_BREAK:
    case N_CONTINUE:
        if (n->kind == N_BREAK ? !breaks : !conts)
            error_at(n->at, "break or continue outside a loop");
        if (nbreaks == 256 || nconts == 256)
            error_at(n->at, "too many breaks in one loop");
        if (n->kind == N_BREAK)
            breaks[nbreaks++] = branch(0x14000000u);
        else
            conts[nconts++] = branch(0x14000000u);
        break;
    default:
        error_at(n->at, "unsupported statement");
    }
}

static void function(Type *ret, char *name, const char *at, int is_static)
{
    if (is_static && internal_name(name) == name) {
        /* Internal linkage: a name of its own in the program ("f@2": file 2's f). */
        Alias *a = calloc(1, sizeof(Alias));
        a->name = name;
        a->internal = malloc(strlen(name) + 16);
        sprintf(a->internal, "%s@%d", name, file_no);
        a->next = aliases;
        aliases = a;
    }
    name = internal_name(name);
    declare_func(name, ret);
    cur_func_name = name;
    cur_ret = ret;
    cur_variadic = 0;
    locals = 0;
    frame_size = 0;
    in_func = 1;
    Var *params[64];
    int np = 0;
    if (!accept(")")) {
        if (is("void") && toks[pos + 1].len == 1 && toks[pos + 1].at[0] == ')') {
            pos += 2;
        } else {
            int variadic = 0;
            do {
                if (accept("...")) {
                    variadic = 1;
                    break;
                }
                Type *base = base_type();
                char *pname;
                const char *pat;
                Type *ty;
                if (is(",") || is(")")) { /* a prototype's unnamed parameter */
                    ty = base;
                    pname = "";
                } else {
                    ty = declarator(base, &pname, &pat);
                }
                if (ty->kind == TY_ARRAY)
                    ty = ptr_to(ty->base);
                else if (ty->kind == TY_FUNC)
                    ty = ptr_to(ty); /* a function parameter is a pointer to one */
                if (np == 64)
                    error_at(tok()->at, "more than 64 parameters");
                params[np++] = ty->kind == TY_STRUCT ? struct_slot(pname, ty) : new_var(pname, ty, 0);
            } while (accept(","));
            expect(")");
            skip_attrs();
            cur_variadic = variadic;
        }
    }
    FuncDecl *fdp = find_func(name);
    if (fdp && !fdp->proto && np <= 16) {
        fdp->proto = 1;
        fdp->nparams = np;
        fdp->variadic = cur_variadic;
        for (int i = 0; i < np; i++)
            fdp->params[i] = params[i]->ty;
    }
    skip_attrs();
    if (decl_end >= 0)
        pos = decl_end; /* past the rest of a parenthesised declarator */
    int naked = saw_naked;
    saw_naked = 0;
    if (accept(";") || is(",")) {
        in_func = 0;
        return; /* a prototype */
    }
    expect("{");
    ret_slot = ret->kind == TY_STRUCT && ret->size > 16 ? new_var("", &ty_long, 0)->offset : 0;
    Type *pty[64];
    int preg[64], pslot[64];
    for (int i = 0; i < np; i++)
        pty[i] = params[i]->ty;
    cur_named_stack = arg_layout(pty, np, preg, pslot, &cur_named_regs, &cur_named_vregs);
    if (cur_variadic) {
        va_area = new_var("", array_of(&ty_long, 8), 0)->offset;
        vr_area = new_var("", array_of(&ty_long, 16), 0)->offset;
    }
    for (Func *g = funcs; g; g = g->next)
        if (!strcmp(g->name, name))
            error_at(at, "a function defined twice");
    Func *f = calloc(1, sizeof(Func));
    f->name = name;
    f->at = ncode;
    f->next = funcs;
    funcs = f;
    Node *body = compound();
    in_func = 0;
    if (naked) {
        /* Only its __builtin_a64 words: no frame, no parameters kept, no return added. */
        gen_stmt(body);
        f->end = ncode;
        return;
    }
    int frame = (frame_size + 15) / 16 * 16;
    emit(0xa9bf7bfdu); /* stp x29, x30, [sp, #-16]! */
    emit(0x910003fdu); /* mov x29, sp */
    if (frame > 0xffffff)
        error_at(at, "frame too large");
    if (frame >> 12)
        emit(0xd1400000u | ((unsigned)(frame >> 12) << 10) | (31 << 5) | 31); /* sub sp, sp, #hi, lsl 12 */
    emit(0xd1000000u | ((unsigned)(frame & 0xfff) << 10) | (31 << 5) | 31); /* sub sp, sp, #lo */
    if (cur_variadic) {
        /* x0-x7 into the save area va_arg reads (named ones too: va_start skips them). */
        frame_addr(9, va_area);
        for (int r = 0; r < 8; r += 2)
            emit(0xa9000000u | ((unsigned)(r / 2 * 2) << 15) | ((r + 1) << 10) | (9 << 5) | r); /* stp xr, xr+1, [x9, #8r] */
        frame_addr(9, vr_area);
        for (int q = 0; q < 8; q += 2)
            emit(0xad000000u | ((unsigned)q << 15) | ((unsigned)(q + 1) << 10) | (9 << 5) | (unsigned)q); /* stp q, q+1, [x9, #16q] */
    }
    /* Parameters into their slots: each from its register(s); a struct of up to 16 bytes
     * from two, a larger one's address first, its bytes copied after (the copy uses x0-x3). */
    if (ret_slot) {
        frame_addr(9, ret_slot);
        emit(0xf9000128u);                                               /* str x8, [x9] */
    }
    for (int i = 0; i < np; i++) {
        Type *pt = params[i]->ty;
        frame_addr(9, params[i]->offset);
        int size = pt->kind == TY_STRUCT || is_wide(pt) ? 8 : pt->size;
        unsigned op = size == 1   ? 0x39000000u
                      : size == 2 ? 0x79000000u
                      : size == 4 ? 0xb9000000u
                                  : 0xf9000000u;
        int r = preg[i];
        if (is_flt(pt) && r >= 0) {
            emit((pt->size == 8 ? 0xfd000120u : 0xbd000120u) | (unsigned)r); /* str d/s(r), [x9] */
            continue;
        }
        if (r < 0) {
            /* A stacked one: its words from the caller's frame, above x29's pair. */
            for (int w = 0; w < arg_regs(pt); w++) {
                emit(0xf94003aau | ((unsigned)(2 + pslot[i] + w) << 10)); /* ldr x10, [x29, #16 + 8slot] */
                emit((w ? 0xf9000000u | (1u << 10) : op) | (9 << 5) | 10);  /* str x10 / w10 ..., [x9, #8w] */
            }
            continue;
        }
        emit(op | (9 << 5) | r); /* strb/str wr/xr, [x9] */
        if (arg_regs(pt) == 2)
            emit(0xf9000520u | (r + 1)); /* str x(r+1), [x9, #8] */
    }
    for (int i = 0; i < np; i++)
        if (params[i]->ty->kind == TY_STRUCT && params[i]->ty->size > 16) {
            frame_addr(1, params[i]->offset);
            emit(0xf9400020u); /* ldr x0, [x1] */
            copy_bytes(params[i]->ty->size);
        }
    nret = 0;
    nlabels = ngotos = 0;
    gen_stmt(body);
    for (int i = 0; i < ngotos; i++) {
        int j = 0;
        while (j < nlabels && strcmp(fn_labels[j]->name, fn_gotos[i]->name))
            j++;
        if (j == nlabels)
            error_at(fn_gotos[i]->at, "goto to an undefined label");
        patch(fn_gotos[i]->jump, fn_labels[j]->label);
    }
    load_imm(0, 0); /* falling off main returns 0 */
    for (int i = 0; i < nret; i++)
        patch(ret_fixups[i], label_here());
    emit(0x910003bfu); /* mov sp, x29 */
    emit(0xa8c17bfdu); /* ldp x29, x30, [sp], #16 */
    emit(0xd65f03c0u); /* ret */
    f->end = ncode;
}

static void global_init(int off, Type *ty);

/* Pointers in data to functions: link writes their addresses (plus the addend already there)
 * once every function has its place. */
typedef struct DataReloc {
    int off;
    char *name;
    const char *src;
} DataReloc;
static DataReloc *data_relocs;
static int ndata_relocs, cap_data_relocs;

static void add_data_reloc(int off, char *name, const char *src)
{
    data_relocs = grow(data_relocs, ndata_relocs, &cap_data_relocs, sizeof(DataReloc));
    data_relocs[ndata_relocs++] = (DataReloc){off, name, src};
}

static long static_value(Node *n, char **func);

/* The address of an object a program can know before it runs: a global's, its members' and
 * elements', a string's, a function's (then *func names it, the result is the addend). */
static long static_addr(Node *n, char **func)
{
    switch (n->kind) {
    case N_VAR:
        if (n->var->pending)
            error_at(n->at, "the address of an extern array before its definition (not yet)");
        if (n->var->global)
            return DATA_BASE + n->var->offset;
        break;
    case N_STR: return DATA_BASE + n->val;
    case N_MEMBER: return static_addr(n->a, func) + n->mem->offset;
    case N_DEREF: return static_value(n->a, func);
    case N_FUNCADDR: *func = n->name; return 0;
    default: break;
    }
    error_at(n->at, "not a constant address");
    return 0;
}

/* A static initialiser's value: a constant expression, or an address (static_addr) with a
 * constant added or taken away. */
static long static_value(Node *n, char **func)
{
    switch (n->kind) {
    case N_ADDR: return static_addr(n->a, func);
    case N_STR: case N_FUNCADDR: return static_addr(n, func);
    case N_VAR:
        if (n->ty->kind == TY_ARRAY)
            return static_addr(n, func);
        break;
    case N_CAST:
        if (is_arith(n->ty) && is_arith(n->a->ty))
            return eval(n); /* a conversion between numbers */
        return static_value(n->a, func);
    case N_ADD:
        if (is_pointer(n->ty))
            return static_value(n->a, func) + eval(n->b);
        break;
    case N_SUB:
        if (is_pointer(n->ty) && is_integer(n->b->ty))
            return static_value(n->a, func) - eval(n->b);
        break;
    default: break;
    }
    return eval(n);
}

typedef struct GlobalCtx {
    int off;
    Type *ty;
} GlobalCtx;

/* One item of a global's brace list: the element's or member's bytes. */
static void global_item(void *p, int i, Member *m)
{
    GlobalCtx *c = p;
    if (m)
        global_init(c->off + m->offset, m->ty);
    else
        global_init(c->off + i * c->ty->base->size, c->ty->base);
}

/* The bytes at data + off for the initialiser ahead, of type ty: brace lists for arrays and
 * structs (nested; what they leave out stays zero), a string for a char array, a string's or a
 * global's address for a pointer, else a constant expression. */
static void global_init(int off, Type *ty)
{
    Token *t = tok();
    if (t->kind == T_STR && ty->kind == TY_ARRAY && ty->base->kind == TY_CHAR) {
        pos++;
        memcpy(data + off, t->str, t->str_len < ty->size ? t->str_len : ty->size);
        return;
    }
    if (ty->kind == TY_ARRAY || ty->kind == TY_STRUCT) {
        GlobalCtx ctx = {off, ty};
        brace_list(ty, global_item, &ctx);
        return;
    }
    int braced = accept("{");
    Node *e = assign();
    add_type(e);
    if (needs_conv(e->ty, ty))
        e = cast_to(e, ty);
    char *func = 0;
    long val = static_value(e, &func);
    if (func) {
        if (ty->size != 8)
            error_at(e->at, "a function's address in less than a pointer");
        add_data_reloc(off, func, e->at);
    }
    memcpy(data + off, &val, ty->size < 8 ? ty->size : 8);
    if (is_wide(ty)) { /* the high half: the value's sign, as its own type has it */
        long hi = val < 0 && !e->ty->is_unsigned ? -1 : 0;
        memcpy(data + off + 8, &hi, 8);
    }
    if (braced)
        expect("}");
}

static void global_var(Type *ty, char *name, const char *at, int is_static, int is_extern)
{
    if (is_extern && ty->kind == TY_ARRAY && ty->len < 0 && !is("=")) {
        /* extern T a[]: its place comes with its definition; code addresses it through
         * words patched then. */
        Var *v = find_var(name);
        if (v && v->global)
            return;
        v = new_name(name, ty);
        v->file = is_static ? file_no + 1 : 0;
        v->pending = 1;
        return;
    }
    ty = complete_array(ty, at);
    decl_static = is_static;
    Var *v = new_var(name, ty, 1);
    decl_static = 0;
    if (accept("="))
        global_init(v->offset, ty);
}

#define START_WORDS 5

/* _start's words, filled in by link once it knows what the program has. */
static void start_code(void)
{
    for (int i = 0; i < START_WORDS; i++)
        emit(0);
}

/* One file's declarations and functions, appended to the program. */
static void translation_unit(void)
{
    while (tok()->kind != T_EOF) {
        saw_naked = 0;
        Type *base = base_type();
        int is_typedef = saw_typedef, is_static = saw_static;
        saw_extern_tu = saw_extern;
        if (accept(";"))
            continue; /* struct or enum declared alone */
        for (;;) {
            int start = pos;
            Type *ty = pointers(base);
            const char *at = tok()->at;
            char *name;
            if (is("(")) { /* a parenthesised declarator */
                pos = start;
                name_params = -1;
                ty = declarator(base, &name, &at);
                if (!is_typedef && ty->kind == TY_FUNC && name_params >= 0) {
                    /* A function returning what the rest says: its parameters are parsed
                     * again where they are, its body (or ;) after the whole declarator. */
                    decl_end = pos;
                    pos = name_params + 1;
                    function(ty->base, name, at, is_static);
                    decl_end = -1;
                    if (!accept(","))
                        break;
                    continue;
                }
            } else {
                name = ident();
                if (!is_typedef && accept("(")) {
                    function(ty, name, at, is_static);
                    if (!accept(","))
                        break;
                    continue;
                }
                ty = declarator_suffix(ty);
                skip_attrs();
            }
            if (is_typedef) {
                new_name(name, ty)->is_typedef = 1;
                if (accept(";"))
                    break;
                expect(",");
                continue;
            }
            global_var(ty, name, at, is_static, saw_extern_tu);
            if (accept(";"))
                break;
            expect(",");
        }
    }
}

/* Code that addresses an extern array defined after it: a movz/movk pair per use. */
typedef struct VarFixup {
    int at;
    Var *var;
    const char *src;
} VarFixup;
static VarFixup *var_fixups;
static int nvar_fixups, cap_var_fixups;

static void add_var_fixup(int at, Var *v, const char *src)
{
    var_fixups = grow(var_fixups, nvar_fixups, &cap_var_fixups, sizeof(VarFixup));
    var_fixups[nvar_fixups++] = (VarFixup){at, v, src};
}

/* Every such pair, now that every array has its place (before link moves code). */
static void patch_var_fixups(void)
{
    for (int i = 0; i < nvar_fixups; i++) {
        VarFixup *f = &var_fixups[i];
        if (f->var->pending)
            error_at(f->src, "an extern array never defined");
        unsigned long a = DATA_BASE + (unsigned long)f->var->offset;
        code[f->at] |= (unsigned)(a & 0xffff) << 5;
        code[f->at + 1] |= (unsigned)((a >> 16) & 0xffff) << 5;
    }
    nvar_fixups = 0;
}

/* Function names to places in funcs (open addressing; a program's names are few thousand). */
static Func **fn_table;
static int fn_cap;

static Func *func_named(const char *name)
{
    for (unsigned h = text_hash(name, (int)strlen(name)) & (fn_cap - 1); fn_table[h]; h = (h + 1) & (fn_cap - 1))
        if (!strcmp(fn_table[h]->name, name))
            return fn_table[h];
    return 0;
}

/* The program's final text: _start, then every function reachable from it (as a linker
 * keeps only the archive members a program uses, so the runtime's unused parts cost nothing
 * and may call what is not there), every call and function address patched. */
static void link(void)
{
    int nf = 0;
    for (Func *f = funcs; f; f = f->next)
        nf++;
    fn_cap = 16;
    while (fn_cap < 2 * nf)
        fn_cap *= 2;
    fn_table = xalloc(calloc(fn_cap, sizeof(Func *)));
    /* In the order of their code: funcs is newest first. */
    Func **fa = xalloc(malloc((nf + 1) * sizeof(Func *)));
    int k = nf;
    for (Func *f = funcs; f; f = f->next) {
        fa[--k] = f;
        f->idx = k;
        unsigned h = text_hash(f->name, (int)strlen(f->name)) & (fn_cap - 1);
        while (fn_table[h])
            h = (h + 1) & (fn_cap - 1);
        fn_table[h] = f;
    }
    /* _start: the runtime's __garm_start(sp) when the program has one (it unpacks the stack,
     * runs main and exits), else main(argc, argv), then exit with its result. */
    Func *entry = func_named("__garm_start");
    if (entry) {
        code[0] = 0x910003e0u; /* mov x0, sp */
        code[1] = 0x94000000u; /* bl __garm_start */
        code[2] = 0;           /* udf #0: it never returns */
    } else {
        entry = func_named("main");
        if (!entry) {
            fprintf(stderr, "cc: no function main\n");
            exit(1);
        }
        code[0] = 0xf94003e0u; /* ldr x0, [sp] */
        code[1] = 0x910023e1u; /* add x1, sp, #8 */
        code[2] = 0x94000000u; /* bl main */
        code[3] = 0xd2800ba8u; /* mov x8, #93 */
        code[4] = 0xd4000001u; /* svc #0 */
    }
    add_fixup(code[0] == 0x910003e0u ? 1 : 2, entry->name, src, 0);
    /* Each function's fixups are one run of the list (both in code order; _start's is last). */
    int *lo = xalloc(calloc(nf + 1, sizeof(int))), *hi = xalloc(calloc(nf + 1, sizeof(int)));
    Func **target = xalloc(calloc(nfix, sizeof(Func *)));
    for (int i = 0, j = 0; i < nf; i++) {
        while (j < nfix - 1 && fixups[j].at < fa[i]->at)
            j++;
        lo[i] = j;
        while (j < nfix - 1 && fixups[j].at < fa[i]->end)
            j++;
        hi[i] = j;
    }
    for (int i = 0; i < nfix; i++)
        target[i] = func_named(fixups[i].name);
    /* Reachable functions, from _start's fixup. */
    int *work = xalloc(malloc((nf + 1) * sizeof(int))), nwork = 0;
    char *used = xalloc(calloc(nfix, 1));
    used[nfix - 1] = 1;
    entry->live = 1;
    work[nwork++] = entry->idx;
    for (int i = 0; i < ndata_relocs; i++) {
        Func *f = func_named(data_relocs[i].name);
        if (!f) {
            report_at(data_relocs[i].src, "the address of an undefined function");
            exit(1);
        }
        if (!f->live) {
            f->live = 1;
            work[nwork++] = f->idx;
        }
    }
    while (nwork) {
        int i = work[--nwork];
        for (int j = lo[i]; j < hi[i]; j++) {
            used[j] = 1;
            if (target[j] && !target[j]->live) {
                target[j]->live = 1;
                work[nwork++] = target[j]->idx;
            }
        }
    }
    /* Every function called from live code and defined nowhere, once each, then the failure. */
    int undefined = 0;
    for (int i = 0; i < nfix; i++) {
        if (!used[i] || target[i])
            continue;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = used[j] && !target[j] && !strcmp(fixups[j].name, fixups[i].name);
        if (!seen) {
            char msg[300];
            const char *at = strchr(fixups[i].name, '@');
            snprintf(msg, sizeof msg, "call to an undefined function '%.*s'",
                     at ? (int)(at - fixups[i].name) : (int)strlen(fixups[i].name), fixups[i].name);
            report_at(fixups[i].src, msg);
            undefined++;
        }
    }
    if (undefined)
        exit(1);
    /* Live functions move down over the dead ones (their own branches are relative). */
    int out = START_WORDS;
    for (int i = 0; i < nf; i++) {
        if (!fa[i]->live)
            continue;
        int delta = fa[i]->at - out, len = fa[i]->end - fa[i]->at;
        memmove(code + out, code + fa[i]->at, len * 4);
        for (int j = lo[i]; j < hi[i]; j++)
            fixups[j].at -= delta;
        fa[i]->at = out;
        fa[i]->end = out + len;
        out += len;
    }
    ncode = out;
    for (int i = 0; i < ndata_relocs; i++) {
        long v;
        memcpy(&v, data + data_relocs[i].off, 8);
        v += TEXT_BASE + 4L * func_named(data_relocs[i].name)->at;
        memcpy(data + data_relocs[i].off, &v, 8);
    }
    for (int i = 0; i < nfix; i++) {
        if (!used[i])
            continue;
        int off = target[i]->at - fixups[i].at;
        if (fixups[i].adr) {
            int bytes = off * 4;
            code[fixups[i].at] |= ((unsigned)(bytes & 3) << 29) | ((unsigned)((bytes >> 2) & 0x7ffff) << 5);
        } else {
            code[fixups[i].at] |= (unsigned)(off & 0x3ffffff);
        }
    }
}

/* ---- the ELF file ---- */

static void put(unsigned char *b, int at, unsigned long v, int n)
{
    for (int i = 0; i < n; i++)
        b[at + i] = (unsigned char)(v >> (8 * i));
}

static void write_elf(const char *path)
{
    int text_off = 0x1000, text_len = ncode * 4;
    int data_off = (text_off + text_len + 0xfff) & ~0xfff;
    int total = data_off + data_len;
    unsigned char *f = calloc(1, total + 1);
    memcpy(f, "\177ELF", 4);
    f[4] = 2; /* 64-bit */
    f[5] = 1; /* little-endian */
    f[6] = 1;
    put(f, 16, 2, 2);   /* ET_EXEC */
    put(f, 18, 183, 2); /* EM_AARCH64 */
    put(f, 20, 1, 4);
    put(f, 24, TEXT_BASE, 8); /* entry: _start, the first instruction */
    put(f, 32, 64, 8);        /* program headers */
    put(f, 52, 64, 2);
    put(f, 54, 56, 2);
    put(f, 56, 2, 2);
    put(f, 58, 64, 2);
    /* PT_LOAD text, R+X */
    unsigned char *ph = f + 64;
    put(ph, 0, 1, 4);
    put(ph, 4, 5, 4);
    put(ph, 8, text_off, 8);
    put(ph, 16, TEXT_BASE, 8);
    put(ph, 24, TEXT_BASE, 8);
    put(ph, 32, text_len, 8);
    put(ph, 40, text_len, 8);
    put(ph, 48, 0x1000, 8);
    /* PT_LOAD data, R+W */
    ph += 56;
    put(ph, 0, 1, 4);
    put(ph, 4, 6, 4);
    put(ph, 8, data_off, 8);
    put(ph, 16, DATA_BASE, 8);
    put(ph, 24, DATA_BASE, 8);
    put(ph, 32, data_len, 8);
    put(ph, 40, data_len ? data_len : 1, 8);
    put(ph, 48, 0x1000, 8);
    memcpy(f + text_off, code, ncode * 4L); /* little-endian here as in the file */
    memcpy(f + data_off, data, data_len);
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(f, 1, total, out) != (size_t)total || fclose(out) != 0) {
        fprintf(stderr, "cc: cannot write %s\n", path);
        exit(1);
    }
    /* An executable, as a linker leaves it: fchmodat(AT_FDCWD, path, 0755, 0). */
    __syscall6(53, -100, (long)path, 0755, 0, 0, 0);
}

static char *read_file(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "cc: cannot open %s\n", path);
        exit(1);
    }
    int cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    for (;;) {
        size_t want = (size_t)(cap - n - 1);
        got = fread(buf + n, 1, want, in);
        n += (int)got;
        /* fread fills its request unless at the end: a short one saves one more read(2). */
        if (got < want)
            break;
        buf = realloc(buf, cap *= 2);
    }
    fclose(in);
    buf[n] = 0;
    return buf;
}

/* ---- libraries: a compiled set of files kept for later programs ----
 *
 * A library is this compiler's state after its files: the words of their code (after
 * _start's), their data, functions, calls to patch and the program-wide globals. A program
 * loads it before its own files, so every address it compiled stays right and nothing needs
 * relocating; link keeps only what the program reaches. */

#define LIB_MAGIC "garm-cc-library 3\n"

static void lib_int(FILE *f, long v) { fwrite(&v, 8, 1, f); }

/* Zero bytes up to a multiple of 8 after n bytes: every number and block stays 8-aligned in
 * the file, so reading it copies by words. */
static void lib_pad(FILE *f, long n)
{
    static const char zeros[8];
    fwrite(zeros, 1, (8 - n % 8) % 8, f);
}

static void lib_str(FILE *f, const char *s)
{
    lib_int(f, (long)strlen(s));
    fwrite(s, 1, strlen(s), f);
    lib_pad(f, (long)strlen(s));
}

/* The names a library's records use, each written once (calls name a few functions many
 * times): a table and a hash of it. */
static char **lib_names;
static int nlib_names, cap_lib_names, *lib_name_slots, cap_lib_slots;

static int lib_name(char *name)
{
    if (2 * (nlib_names + 1) > cap_lib_slots) {
        cap_lib_slots = cap_lib_slots ? cap_lib_slots * 2 : 1024;
        free(lib_name_slots);
        lib_name_slots = xalloc(malloc(cap_lib_slots * sizeof(int)));
        for (int i = 0; i < cap_lib_slots; i++)
            lib_name_slots[i] = -1;
        for (int i = 0; i < nlib_names; i++) {
            unsigned h = text_hash(lib_names[i], (int)strlen(lib_names[i])) & (cap_lib_slots - 1);
            while (lib_name_slots[h] >= 0)
                h = (h + 1) & (cap_lib_slots - 1);
            lib_name_slots[h] = i;
        }
    }
    unsigned h = text_hash(name, (int)strlen(name)) & (cap_lib_slots - 1);
    for (; lib_name_slots[h] >= 0; h = (h + 1) & (cap_lib_slots - 1))
        if (!strcmp(lib_names[lib_name_slots[h]], name))
            return lib_name_slots[h];
    lib_names = grow(lib_names, nlib_names, &cap_lib_names, sizeof(char *));
    lib_names[nlib_names] = name;
    lib_name_slots[h] = nlib_names;
    return nlib_names++;
}

static void write_library(const char *path)
{
    for (Func *fn = funcs; fn; fn = fn->next)
        lib_name(fn->name);
    for (int i = 0; i < nfix; i++)
        lib_name(fixups[i].name);
    for (int i = 0; i < ndata_relocs; i++)
        lib_name(data_relocs[i].name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cc: cannot write %s\n", path);
        exit(1);
    }
    fwrite(LIB_MAGIC, 1, strlen(LIB_MAGIC), f);
    lib_pad(f, (long)strlen(LIB_MAGIC));
    lib_int(f, file_no + 1);
    lib_int(f, ncode);
    fwrite(code, 4, ncode, f);
    lib_pad(f, ncode * 4L);
    lib_int(f, data_len);
    fwrite(data, 1, data_len, f);
    lib_pad(f, data_len);
    lib_int(f, nlib_names);
    for (int i = 0; i < nlib_names; i++)
        lib_str(f, lib_names[i]);
    int n = 0;
    for (Func *fn = funcs; fn; fn = fn->next)
        n++;
    lib_int(f, n);
    for (Func *fn = funcs; fn; fn = fn->next) {
        lib_int(f, lib_name(fn->name));
        lib_int(f, fn->at);
        lib_int(f, fn->end);
    }
    lib_int(f, nfix);
    for (int i = 0; i < nfix; i++) {
        lib_int(f, lib_name(fixups[i].name));
        lib_int(f, fixups[i].at);
        lib_int(f, fixups[i].adr);
    }
    lib_int(f, ndata_relocs);
    for (int i = 0; i < ndata_relocs; i++) {
        lib_int(f, lib_name(data_relocs[i].name));
        lib_int(f, data_relocs[i].off);
    }
    n = 0;
    for (int b = 0; b < GLOBAL_BUCKETS; b++)
        for (Var *v = globals[b]; v; v = v->next)
            n += !v->file && !v->is_typedef && !v->is_enum;
    lib_int(f, n);
    for (int b = 0; b < GLOBAL_BUCKETS; b++)
        for (Var *v = globals[b]; v; v = v->next)
            if (!v->file && !v->is_typedef && !v->is_enum) {
                lib_str(f, v->name);
                lib_int(f, v->offset);
                lib_int(f, v->ty->size);
            }
    if (fclose(f) != 0) {
        fprintf(stderr, "cc: cannot write %s\n", path);
        exit(1);
    }
}

/* Reading a library: a cursor over its bytes, every read checked against the end. */
static unsigned char *lib_at, *lib_end;
static const char *lib_path;

static void lib_bytes(void *to, long n)
{
    if (n < 0 || n > lib_end - lib_at) {
        fprintf(stderr, "cc: %s: not a library of this compiler (damaged)\n", lib_path);
        exit(1);
    }
    memcpy(to, lib_at, n);
    lib_at += n;
}

static long lib_get(void)
{
    if (lib_end - lib_at < 8)
        lib_bytes(0, -1);
    long v = *(const long *)lib_at; /* (unaligned loads are fine on both AArch64 and x86-64) */
    lib_at += 8;
    return v;
}

/* A name from the library's table, by its index. */
static char *lib_get_name(char **names, long n)
{
    long i = lib_get();
    if (i < 0 || i >= n)
        lib_bytes(0, -1);
    return names[i];
}

/* Past the zero bytes that keep the next item 8-aligned after n bytes. */
static void lib_skip_pad(long n)
{
    char pad[8];
    lib_bytes(pad, (8 - n % 8) % 8);
}

static char *lib_get_str(void)
{
    long n = lib_get();
    if (n < 0 || n > 4096)
        lib_bytes(0, -1);
    char *s = xalloc(malloc(n + 1));
    lib_bytes(s, n);
    s[n] = 0;
    lib_skip_pad(n);
    return s;
}

static void read_library(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "cc: cannot open %s\n", path);
        exit(1);
    }
    long cap = 1 << 16, n = 0;
    unsigned char *buf = xalloc(malloc(cap));
    size_t got;
    for (;;) {
        size_t want = (size_t)(cap - n);
        got = fread(buf + n, 1, want, in);
        n += (long)got;
        if (got < want)
            break;
        buf = xalloc(realloc(buf, cap *= 2));
    }
    fclose(in);
    lib_path = path;
    lib_at = buf;
    lib_end = buf + n;
    char magic[sizeof LIB_MAGIC];
    lib_bytes(magic, strlen(LIB_MAGIC));
    if (memcmp(magic, LIB_MAGIC, strlen(LIB_MAGIC))) {
        fprintf(stderr, "cc: %s: not a library of this compiler\n", path);
        exit(1);
    }
    lib_skip_pad((long)strlen(LIB_MAGIC));
    lib_files = (int)lib_get();
    long words = lib_get();
    if (words < START_WORDS || words > (1L << 24))
        lib_bytes(0, -1);
    cap_code = (int)words + 4096;
    code = xalloc(malloc(cap_code * 4L));
    lib_bytes(code, words * 4);
    lib_skip_pad(words * 4);
    ncode = (int)words;
    long len = lib_get();
    if (len < 8 || len > (1L << 28))
        lib_bytes(0, -1);
    int at = data_alloc((int)len - data_len, 1);
    unsigned char first[8]; /* the word no object has */
    lib_bytes(first, 8);
    lib_bytes(data + at, len - 8);
    lib_skip_pad(len);
    long nnames = lib_get();
    if (nnames < 0 || nnames > (1L << 20))
        lib_bytes(0, -1);
    char **names = xalloc(malloc((nnames + 1) * sizeof(char *)));
    for (long i = 0; i < nnames; i++)
        names[i] = lib_get_str();
    long nf = lib_get();
    Func head = {0}, *last = &head;
    for (long i = 0; i < nf; i++) { /* in the file's order, which is funcs' */
        Func *fn = xalloc(calloc(1, sizeof(Func)));
        fn->name = lib_get_name(names, nnames);
        fn->at = (int)lib_get();
        fn->end = (int)lib_get();
        if (fn->at < START_WORDS || fn->end < fn->at || fn->end > ncode)
            lib_bytes(0, -1);
        last = last->next = fn;
    }
    funcs = head.next;
    long nfx = lib_get();
    for (long i = 0; i < nfx; i++) {
        char *name = lib_get_name(names, nnames);
        int at = (int)lib_get();
        if (at < 0 || at >= ncode)
            lib_bytes(0, -1);
        add_fixup(at, name, 0, (int)lib_get());
    }
    long nrel = lib_get();
    for (long i = 0; i < nrel; i++) {
        char *name = lib_get_name(names, nnames);
        int off = (int)lib_get();
        if (off < 0 || off + 8 > data_len)
            lib_bytes(0, -1);
        add_data_reloc(off, name, 0);
    }
    long ng = lib_get();
    for (long i = 0; i < ng; i++) {
        Var *v = xalloc(calloc(1, sizeof(Var)));
        v->name = lib_get_str();
        v->offset = (int)lib_get();
        v->ty = array_of(&ty_char, (int)lib_get());
        v->global = 1;
        v->from_lib = 1;
        if (v->offset < 0 || v->offset + v->ty->size > data_len)
            lib_bytes(0, -1);
        add_global(v);
    }
}

int main(int argc, char **argv)
{
    const char *out = "a.out", *library = 0;
    const char *sources[64];
    int nsources = 0, make_library = 0;
    src_name = 0;
    for (int i = 1; i < argc; i++) {
        int n = (int)strlen(argv[i]);
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--library"))
            make_library = 1;
        else if (!strncmp(argv[i], "-D", 2) || !strncmp(argv[i], "-U", 2)) {
            /* -DNAME, -DNAME=VALUE, -UNAME: lines every file sees after the predefined ones. */
            int undefine = argv[i][1] == 'U';
            const char *d = argv[i][2] ? argv[i] + 2 : (i + 1 < argc ? argv[++i] : "");
            const char *eq = strchr(d, '=');
            int len = eq ? (int)(eq - d) : (int)strlen(d);
            int have = cmdline_defs ? (int)strlen(cmdline_defs) : 0;
            cmdline_defs = xalloc(realloc(cmdline_defs, have + strlen(d) + 16));
            if (undefine)
                sprintf(cmdline_defs + have, "#undef %.*s\n", len, d);
            else
                sprintf(cmdline_defs + have, "#define %.*s %s\n", len, d, eq ? eq + 1 : "1");
        }
        else if (n > 4 && !strcmp(argv[i] + n - 4, ".lib"))
            library = argv[i];
        else if (!strncmp(argv[i], "-I", 2) && ninclude_dirs < 32)
            include_dirs[ninclude_dirs++] = argv[i][2] ? argv[i] + 2 : (i + 1 < argc ? argv[++i] : ".");
        else if (nsources < 64)
            sources[nsources++] = argv[i];
    }
    if (!nsources) {
        fprintf(stderr, "usage: cc [-I DIR] [-D NAME[=VALUE]] [-U NAME]... FILE.c... [LIBRARY.lib] "
                        "[-o OUT]\n       cc --library [-I DIR]... FILE.c... -o LIBRARY.lib\n");
        return 2;
    }
    data_alloc(8, 8); /* no object at address DATA_BASE + 0 */
    if (library)
        read_library(library);
    else
        start_code();
    /* Each file on its own (its macros, tags and typedefs stay in it); functions and globals
     * meet in one program. */
    for (int k = 0; k < nsources; k++) {
        src_name = sources[k];
        memset(macros, 0, sizeof macros);
        TokVec pre = {0};
        TokVec ptoks = tokenize(predefined);
        preprocess(ptoks.v, ptoks.n, "<built-in>", &pre, 0);
        if (cmdline_defs) {
            TokVec dtoks = tokenize(cmdline_defs);
            preprocess(dtoks.v, dtoks.n, "<command line>", &pre, 0);
        }
        tags = 0;
        aliases = 0;
        file_no = lib_files + k;
        TokVec all = {0};
        int first = nfiles;
        preprocess_file(src_name, 0, &all, 0);
        if (k == 0)
            src = files[0].text;
        join_strings(&all);
        Token eof = {0};
        eof.kind = T_EOF;
        eof.at = files[first].text + files[first].len;
        vpush(&all, eof);
        toks = all.v;
        pos = 0;
        translation_unit();
    }
    patch_var_fixups();
    if (make_library) {
        write_library(out);
        return 0;
    }
    link();
    write_elf(out);
    return 0;
}

/* stdiofiles.c: stdio on files in the directory argv[1]: fopen modes, fprintf/fputs/fwrite,
 * fgets/fread/fgetc/ungetc, fseek/ftell/rewind, read-write switching with "r+", append, tmpfile,
 * remove, and the errors (a missing file, writing a read-only stream). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    char path[256], buf[128];
    snprintf(path, sizeof path, "%s/stdio.txt", argc > 1 ? argv[1] : "/tmp");

    FILE *f = fopen(path, "w");
    fprintf(f, "line %d: %s\n", 1, "hello");
    fputs("line 2: world\n", f);
    fwrite("line 3: bytes\n", 1, 14, f);
    printf("ftell after writing %ld\n", ftell(f));
    printf("fclose %d\n", fclose(f));

    f = fopen(path, "r");
    while (fgets(buf, sizeof buf, f))
        printf("read [%s]", buf);
    printf("eof %d error %d\n", feof(f), ferror(f));
    rewind(f);
    int c = fgetc(f);
    ungetc(c, f);
    printf("fread %zu: [%.6s]\n", fread(buf, 1, 6, f), buf);
    printf("ftell %ld\n", ftell(f));
    fseek(f, -6, SEEK_END);
    printf("tail [%s]", fgets(buf, sizeof buf, f));
    printf("write to a read stream: %zu error %d\n", fwrite("x", 1, 1, f), ferror(f));
    fclose(f);

    f = fopen(path, "r+");
    fseek(f, 5, SEEK_SET);
    fputs("ONE", f);
    fseek(f, 0, SEEK_SET);
    printf("after r+ [%s]", fgets(buf, sizeof buf, f));
    fclose(f);

    f = fopen(path, "a");
    fputs("line 4: appended\n", f);
    fclose(f);
    f = fopen(path, "r");
    fseek(f, 0, SEEK_END);
    printf("size %ld\n", ftell(f));
    fclose(f);

    FILE *t = tmpfile();
    fprintf(t, "scratch %d\n", 42);
    rewind(t);
    printf("tmpfile [%s]", fgets(buf, sizeof buf, t));
    fclose(t);

    printf("remove %d\n", remove(path));
    errno = 0;
    printf("fopen missing %s errno %d\n", fopen(path, "r") ? "opened" : "NULL", errno);
    printf("bad mode %s errno %d\n", fopen(path, "q") ? "opened" : "NULL", errno);
    return 0;
}

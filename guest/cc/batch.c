/* batch.c: compile and run many C programs with garm's C compiler, spread over the instances
 * of one garm run (each takes the programs whose number modulo GARM_INSTANCES is its
 * GARM_INSTANCE), so the GPU runs many compilers at once.
 *
 * Usage: batch CC OUTDIR LIB [-I DIR]... -- FILE.c...
 * For each FILE (its name without .c is NAME): CC [-I DIR]... FILE LIB -o OUTDIR/NAME.elf, its
 * diagnostics into OUTDIR/NAME.err; then OUTDIR/NAME.elf run with its output and errors into
 * OUTDIR/NAME.out; the compiler's and the program's exit statuses into OUTDIR/NAME.status
 * ("cc N run M", M -1 when it did not compile). Exits 0 when every job was run. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv[0] with stdout and stderr into `log`; its exit status (128 + signal if killed). */
static int run(char **argv, const char *log)
{
    pid_t pid = fork();
    if (pid < 0)
        return -2;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(126);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execve(argv[0], argv, environ);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return -2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: batch CC OUTDIR LIB [-I DIR]... -- FILE.c...\n");
        return 2;
    }
    const char *cc = argv[1], *outdir = argv[2], *lib = argv[3];
    int first = 4;
    while (first < argc && strcmp(argv[first], "--"))
        first++;
    if (first == argc) {
        fprintf(stderr, "batch: no -- before the files\n");
        return 2;
    }
    int nflags = first - 4;
    const char *inst = getenv("GARM_INSTANCE"), *insts = getenv("GARM_INSTANCES");
    int me = inst ? atoi(inst) : 0, n = insts ? atoi(insts) : 1;
    for (int k = first + 1; k < argc; k++) {
        if ((k - first - 1) % n != me)
            continue;
        char name[256], elf[512], err[512], out[512], st[512];
        snprintf(name, sizeof name, "%s", base_name(argv[k]));
        char *dot = strrchr(name, '.');
        if (dot)
            *dot = 0;
        snprintf(elf, sizeof elf, "%s/%s.elf", outdir, name);
        snprintf(err, sizeof err, "%s/%s.err", outdir, name);
        snprintf(out, sizeof out, "%s/%s.out", outdir, name);
        snprintf(st, sizeof st, "%s/%s.status", outdir, name);
        char *ccv[64];
        int c = 0;
        ccv[c++] = (char *)cc;
        for (int f = 0; f < nflags && c < 56; f++)
            ccv[c++] = argv[4 + f];
        ccv[c++] = argv[k];
        ccv[c++] = (char *)lib;
        ccv[c++] = "-o";
        ccv[c++] = elf;
        ccv[c] = 0;
        int cs = run(ccv, err), rs = -1;
        if (cs == 0) {
            char *rv[2] = {elf, 0};
            rs = run(rv, out);
        }
        FILE *f = fopen(st, "w");
        if (!f)
            return 1;
        fprintf(f, "cc %d run %d\n", cs, rs);
        fclose(f);
    }
    return 0;
}

/* savefile.c: writes argv[2] to the file argv[1] (created), and says how many bytes: what an
 * embedder without host mounts (the web page) hands back to its user as a download. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    FILE *f = fopen(argv[1], "w");
    if (!f)
        return 1;
    size_t n = fwrite(argv[2], 1, strlen(argv[2]), f);
    fclose(f);
    printf("wrote %zu bytes to %s\n", n, argv[1]);
    return 0;
}

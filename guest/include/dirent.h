/* dirent.h: directory streams over getdents64. */
#ifndef _DIRENT_H
#define _DIRENT_H
struct dirent {
    unsigned long d_ino;
    unsigned char d_type;
    char d_name[256];
};
typedef struct __garm_dir DIR;
DIR *opendir(const char *path);
struct dirent *readdir(DIR *d);
int closedir(DIR *d);
#endif

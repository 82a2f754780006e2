/* echo_client.c: connects to 127.0.0.1:PORT, sends LINES lines and checks each echo, then
 * shuts its side down and expects end of file. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: echo_client PORT LINES\n");
        return 2;
    }
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) {
        printf("socket: %s\n", strerror(errno));
        return 1;
    }
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(atoi(argv[1]));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        printf("connect: %s\n", strerror(errno));
        return 1;
    }
    struct sockaddr_in peer;
    socklen_t pl = sizeof peer;
    getpeername(s, (struct sockaddr *)&peer, &pl);
    int lines = atoi(argv[2]);
    for (int i = 0; i < lines; i++) {
        char msg[64], back[64];
        int len = snprintf(msg, sizeof msg, "line %d from the guest\n", i);
        if (write(s, msg, len) != len) {
            printf("write: %s\n", strerror(errno));
            return 1;
        }
        int got = 0;
        while (got < len) {
            ssize_t r = read(s, back + got, len - got);
            if (r <= 0) {
                printf("read: %ld %s\n", (long)r, strerror(errno));
                return 1;
            }
            got += r;
        }
        if (memcmp(msg, back, len) != 0) {
            printf("echo differs at line %d\n", i);
            return 1;
        }
    }
    shutdown(s, SHUT_WR);
    char c;
    ssize_t r = read(s, &c, 1);
    printf("client ok: %d lines echoed, peer port %s, then %s\n", lines,
           ntohs(peer.sin_port) == atoi(argv[1]) ? "matches" : "differs",
           r == 0 ? "end of file" : "more data");
    close(s);
    return 0;
}

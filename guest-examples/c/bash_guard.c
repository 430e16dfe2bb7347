/* The dangerous-bash guard in C (wasi-libc): reads the PreToolUse payload from stdin and
 * blocks (exit 2, reason on stderr) a bash call whose command contains `rm -rf /`.
 * Build: clang --target=wasm32-wasi -O2 -o bash-guard-c.wasm bash_guard.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *DANGEROUS[] = {"rm -rf /", "rm -rf ~", "mkfs", "git push --force", NULL};

int main(void) {
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += n;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    if (!buf) return 1;
    buf[len] = '\0';
    if (!strstr(buf, "\"toolName\":\"bash\"")) return 0;
    for (const char **p = DANGEROUS; *p; p++) {
        if (strstr(buf, *p)) {
            fprintf(stderr, "c guard: `%s` is destructive\n", *p);
            return 2;
        }
    }
    return 0;
}

/* The dangerous-bash guard in C (wasi-libc): reads the PreToolUse payload from stdin and
 * blocks (exit 2, reason on stderr) a bash call whose command contains `rm -rf /`.
 *
 * It does not build a JSON tree: it reads the payload once, decoding string escapes (so
 * `rm -rf \u002f` is `rm -rf /`), folding whitespace inside strings to single spaces and
 * dropping it between tokens (so `"toolName" : "bash"` is seen), and looks for the patterns
 * in that text. Constant memory, no recursion: no payload size or depth can crash it. It
 * fails closed: what it cannot decode (a bad escape, an unterminated string, unbalanced
 * brackets, not an object) is blocked, never passed unseen.
 * Build: clang --target=wasm32-wasi -O2 -o bash-guard-c.wasm bash_guard.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *DANGEROUS[] = {"rm -rf /", "rm -rf ~", "mkfs", "git push --force", NULL};
static const char BASH[] = "\"toolName\":\"bash\"";

static char window[32]; /* the last bytes of the decoded text, newest last */
static int bash_seen;
static const char *hit;

static int ends_with(const char *s) {
    size_t n = strlen(s);
    return memcmp(window + sizeof window - n, s, n) == 0;
}

static void emit(char c) {
    if (c == ' ' && window[sizeof window - 1] == ' ') return; /* one space per run */
    memmove(window, window + 1, sizeof window - 1);
    window[sizeof window - 1] = c;
    if (ends_with(BASH)) bash_seen = 1;
    for (const char **p = DANGEROUS; *p && !hit; p++)
        if (ends_with(*p)) hit = *p;
}

static void fail_closed(const char *why) {
    fprintf(stderr, "c guard: cannot read the payload (%s); blocking to fail closed\n", why);
    exit(2);
}

/* The byte a string escape stands for, after the backslash: control characters become
 * spaces, any non-ASCII character a byte no pattern contains. */
static char unescape(void) {
    int c = getchar(), v = 0;
    switch (c) {
    case '"': case '\\': case '/': return (char)c;
    case 'b': case 'f': case 'n': case 'r': case 't': return ' ';
    case 'u':
        for (int i = 0; i < 4; i++) {
            c = getchar();
            const char *d = c == EOF ? NULL : strchr("0123456789abcdef", c | 0x20);
            if (!d || !*d) fail_closed("a bad \\u escape");
            v = v * 16 + (int)(d - "0123456789abcdef");
        }
        return v < 0x20 || v == 0x7f ? ' ' : v < 0x80 ? (char)v : (char)0x80;
    default: fail_closed("a bad escape"); return 0;
    }
}

int main(void) {
    int c, in_string = 0, opened = 0;
    long depth = 0;
    while ((c = getchar()) != EOF) {
        if (in_string) {
            if (c == '"') in_string = 0;
            else if (c == '\\') c = unescape();
            else if (c < 0x20) fail_closed("a control character in a string");
        } else {
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
            if (!opened && c != '{') fail_closed("not a JSON object");
            if (c == '{' || c == '[') depth++, opened = 1;
            else if ((c == '}' || c == ']') && --depth < 0) fail_closed("unbalanced brackets");
            else if (c == '"') in_string = 1;
        }
        emit((char)c);
    }
    if (ferror(stdin)) fail_closed("stdin cannot be read");
    if (!opened || in_string || depth != 0) fail_closed("it ends early");
    if (bash_seen && hit) {
        fprintf(stderr, "c guard: `%s` is destructive\n", hit);
        return 2;
    }
    return 0;
}

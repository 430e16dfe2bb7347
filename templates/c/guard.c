/* {{name}}: a PreToolUse guard for the `bash` tool, a WASI preview 1 command module
 * (clang + wasi-libc). It reads the payload from stdin, blocks destructive commands (exit 2,
 * reason on stderr) and passes everything else (exit 0). A payload it cannot read or parse
 * is blocked too: a guard never passes what it could not check (fail closed).
 * Build: ./build.sh (clang --target=wasm32-wasi -O2 -o {{name}}.wasm guard.c) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Patterns that destroy data, with the reason the model is shown. */
static const char *DANGEROUS[][2] = {
    {"rm -rf /", "deletes the whole filesystem"},
    {"rm -fr /", "deletes the whole filesystem"},
    {"rm -rf ~", "deletes the home directory"},
    {"mkfs", "formats a disk"},
};

static void block(const char *what, const char *why) {
    fprintf(stderr, "{{name}}: %s%s\n", what, why);
    exit(2);
}

/* The whole of stdin, NUL-terminated, or NULL when it cannot be read. */
static char *read_stdin(void) {
    size_t cap = 1 << 16, len = 0, n;
    char *buf = malloc(cap + 1);
    while (buf && (n = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += n;
        if (len == cap) {
            char *bigger = realloc(buf, cap * 2 + 1);
            if (!bigger) { free(buf); return NULL; }
            buf = bigger;
            cap *= 2;
        }
    }
    if (!buf || ferror(stdin)) { free(buf); return NULL; }
    buf[len] = '\0';
    return buf;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

enum field { ABSENT, FOUND, MALFORMED };

/* Finds `"key": "value"` anywhere in the JSON text and decodes the value into *out (malloc'd).
 * Minimal by design: it does not track nesting, which is enough for the payload's `event`,
 * `toolName` and `toolArgs.command` (a key inside a string value is escaped, so not matched). */
static enum field string_field(const char *json, const char *key, char **out) {
    size_t klen = strlen(key);
    for (const char *p = json; (p = strchr(p, '"')) != NULL; p++) {
        if (strncmp(p + 1, key, klen) != 0 || p[1 + klen] != '"') continue;
        const char *q = p + klen + 2;
        while (is_space(*q)) q++;
        if (*q != ':') continue;
        q++;
        while (is_space(*q)) q++;
        if (*q != '"') return ABSENT; /* present but not a string */
        q++;
        char *value = malloc(strlen(q) + 1), *w = value;
        if (!value) return MALFORMED;
        for (; *q && *q != '"'; q++) {
            if (*q != '\\') { *w++ = *q; continue; }
            switch (*++q) {
            case 'n': case 'r': case 't': case 'b': case 'f': *w++ = ' '; break;
            case 'u':
                for (int i = 1; i <= 4; i++) if (!q[i]) { free(value); return MALFORMED; }
                *w++ = '?';
                q += 4;
                break;
            case '\0': free(value); return MALFORMED;
            default: *w++ = *q; /* \" \\ \/ */
            }
        }
        if (*q != '"') { free(value); return MALFORMED; }
        *w = '\0';
        *out = value;
        return FOUND;
    }
    return ABSENT;
}

/* Copies s with every run of whitespace collapsed to one space. */
static char *normalize(const char *s) {
    char *out = malloc(strlen(s) + 1), *w = out;
    if (!out) return NULL;
    int space = 0;
    for (; *s; s++) {
        if (is_space(*s)) { space = 1; continue; }
        if (space && w != out) *w++ = ' ';
        space = 0;
        *w++ = *s;
    }
    *w = '\0';
    return out;
}

int main(void) {
    char *payload = read_stdin();
    if (!payload) block("cannot read the payload", "; blocking to be safe");
    const char *start = payload;
    while (is_space(*start)) start++;
    const char *end = payload + strlen(payload);
    while (end > start && is_space(end[-1])) end--;
    char *event = NULL, *tool = NULL, *command = NULL;
    /* An object (first and last character) with a string `event`, or it is not a payload. */
    if (*start != '{' || end[-1] != '}' || string_field(payload, "event", &event) != FOUND)
        block("cannot parse the payload", "; blocking to be safe");
    enum field t = string_field(payload, "toolName", &tool);
    if (t == MALFORMED) block("cannot parse the payload", "; blocking to be safe");
    if (strcmp(event, "PreToolUse") != 0 || t != FOUND || strcmp(tool, "bash") != 0) return 0;
    enum field c = string_field(payload, "command", &command);
    if (c == MALFORMED) block("cannot parse the payload", "; blocking to be safe");
    if (c == ABSENT) return 0;
    char *normalized = normalize(command);
    if (!normalized) block("out of memory", "; blocking to be safe");
    for (size_t i = 0; i < sizeof DANGEROUS / sizeof DANGEROUS[0]; i++) {
        if (strstr(normalized, DANGEROUS[i][0])) {
            fprintf(stderr, "{{name}}: `%s` %s; use a safer command\n", DANGEROUS[i][0], DANGEROUS[i][1]);
            return 2;
        }
    }
    return 0;
}

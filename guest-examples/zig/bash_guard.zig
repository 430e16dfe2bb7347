//! The dangerous-bash guard in Zig: reads the PreToolUse payload from stdin through the raw
//! WASI calls and blocks (exit 2, reason on stderr) a destructive bash command.
//!
//! It does not build a JSON tree: it reads the payload once, decoding string escapes (so
//! `rm -rf \u002f` is `rm -rf /`), folding whitespace inside strings to single spaces and
//! dropping it between tokens (so `"toolName" : "bash"` is seen), and looks for the patterns
//! in that text. Constant memory, no recursion: no payload size or depth can crash it. It
//! fails closed: what it cannot decode (a bad escape, an unterminated string, unbalanced
//! brackets, not an object) is blocked, never passed unseen.
//! Build: python3 -m ziglang build-exe -target wasm32-wasi -O ReleaseSmall bash_guard.zig
const std = @import("std");
const wasi = std.os.wasi;

const dangerous = [_][]const u8{ "rm -rf /", "rm -rf ~", "mkfs", "git push --force" };
const bash = "\"toolName\":\"bash\"";

var window: [32]u8 = @splat(0); // the last bytes of the decoded text, newest last
var bash_seen = false;
var hit: ?[]const u8 = null;

fn writeStderr(msg: []const u8) void {
    const iov = [_]wasi.ciovec_t{.{ .base = msg.ptr, .len = msg.len }};
    var n: usize = 0;
    _ = wasi.fd_write(2, &iov, 1, &n);
}

fn failClosed(why: []const u8) noreturn {
    writeStderr("zig guard: cannot read the payload (");
    writeStderr(why);
    writeStderr("); blocking to fail closed\n");
    wasi.proc_exit(2);
}

var buf: [1 << 16]u8 = undefined;
var pos: usize = 0;
var len: usize = 0;

/// The next byte of stdin, null at its end.
fn next() ?u8 {
    if (pos == len) {
        const iov = [_]wasi.iovec_t{.{ .base = &buf, .len = buf.len }};
        var n: usize = 0;
        if (wasi.fd_read(0, &iov, 1, &n) != .SUCCESS) failClosed("stdin cannot be read");
        if (n == 0) return null;
        pos = 0;
        len = n;
    }
    pos += 1;
    return buf[pos - 1];
}

fn emit(c: u8) void {
    if (c == ' ' and window[window.len - 1] == ' ') return; // one space per run
    std.mem.copyForwards(u8, window[0 .. window.len - 1], window[1..]);
    window[window.len - 1] = c;
    if (std.mem.endsWith(u8, &window, bash)) bash_seen = true;
    for (dangerous) |d| {
        if (hit == null and std.mem.endsWith(u8, &window, d)) hit = d;
    }
}

/// The byte a string escape stands for, after the backslash: control characters become
/// spaces, any non-ASCII character a byte no pattern contains.
fn unescape() u8 {
    const c = next() orelse failClosed("it ends early");
    switch (c) {
        '"', '\\', '/' => return c,
        'b', 'f', 'n', 'r', 't' => return ' ',
        'u' => {
            var v: u32 = 0;
            for (0..4) |_| {
                const d = next() orelse failClosed("it ends early");
                v = v * 16 + (std.fmt.charToDigit(d, 16) catch failClosed("a bad \\u escape"));
            }
            return if (v < 0x20 or v == 0x7f) ' ' else if (v < 0x80) @intCast(v) else 0x80;
        },
        else => failClosed("a bad escape"),
    }
}

pub fn main() void {
    var in_string = false;
    var opened = false;
    var depth: usize = 0;
    while (next()) |byte| {
        var c = byte;
        if (in_string) {
            if (c == '"') {
                in_string = false;
            } else if (c == '\\') {
                c = unescape();
            } else if (c < 0x20) failClosed("a control character in a string");
        } else {
            if (c == ' ' or c == '\t' or c == '\n' or c == '\r') continue;
            if (!opened and c != '{') failClosed("not a JSON object");
            switch (c) {
                '{', '[' => {
                    depth += 1;
                    opened = true;
                },
                '}', ']' => {
                    if (depth == 0) failClosed("unbalanced brackets");
                    depth -= 1;
                },
                '"' => in_string = true,
                else => {},
            }
        }
        emit(c);
    }
    if (!opened or in_string or depth != 0) failClosed("it ends early");
    if (bash_seen) if (hit) |d| {
        writeStderr("zig guard: `");
        writeStderr(d);
        writeStderr("` is destructive\n");
        wasi.proc_exit(2);
    };
}

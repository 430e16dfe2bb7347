//! The dangerous-bash guard in Zig: reads the PreToolUse payload from stdin through the raw
//! WASI calls and blocks (exit 2, reason on stderr) a destructive bash command.
//! Build: python3 -m ziglang build-exe -target wasm32-wasi -O ReleaseSmall bash_guard.zig
const std = @import("std");
const wasi = std.os.wasi;

var buf: [1 << 16]u8 = undefined;

fn writeStderr(msg: []const u8) void {
    const iov = [_]wasi.ciovec_t{.{ .base = msg.ptr, .len = msg.len }};
    var n: usize = 0;
    _ = wasi.fd_write(2, &iov, 1, &n);
}

pub fn main() void {
    var len: usize = 0;
    while (len < buf.len) {
        const iov = [_]wasi.iovec_t{.{ .base = buf[len..].ptr, .len = buf.len - len }};
        var n: usize = 0;
        if (wasi.fd_read(0, &iov, 1, &n) != .SUCCESS or n == 0) break;
        len += n;
    }
    const payload = buf[0..len];
    if (std.mem.indexOf(u8, payload, "\"toolName\":\"bash\"") == null) return;
    const dangerous = [_][]const u8{ "rm -rf /", "rm -rf ~", "mkfs", "git push --force" };
    for (dangerous) |d| {
        if (std.mem.indexOf(u8, payload, d) != null) {
            writeStderr("zig guard: destructive command\n");
            wasi.proc_exit(2);
        }
    }
}

//! {{name}}: a PreToolUse guard for the `bash` tool, a WASI preview 1 command module. It reads
//! the payload from stdin, blocks destructive commands (exit 2, reason on stderr) and passes
//! everything else (exit 0). A payload it cannot read or parse is blocked too: a guard never
//! passes what it could not check (fail closed). Only raw WASI calls and std.json are used,
//! which keeps it stable across Zig releases.
//! Build: python3 -m ziglang build-exe -target wasm32-wasi -O ReleaseSmall -femit-bin={{name}}.wasm guard.zig
const std = @import("std");
const wasi = std.os.wasi;

/// Patterns that destroy data, with the reason the model is shown.
const dangerous = [_][2][]const u8{
    .{ "rm -rf /", "deletes the whole filesystem" },
    .{ "rm -fr /", "deletes the whole filesystem" },
    .{ "rm -rf ~", "deletes the home directory" },
    .{ "mkfs", "formats a disk" },
};

var input: [1 << 20]u8 = undefined;
var heap: [4 << 20]u8 = undefined;
var scratch: [1 << 16]u8 = undefined;

fn writeStderr(msg: []const u8) void {
    const iov = [_]wasi.ciovec_t{.{ .base = msg.ptr, .len = msg.len }};
    var n: usize = 0;
    _ = wasi.fd_write(2, &iov, 1, &n);
}

fn block(parts: []const []const u8) noreturn {
    writeStderr("{{name}}: ");
    for (parts) |p| writeStderr(p);
    writeStderr("\n");
    wasi.proc_exit(2);
}

/// The whole of stdin, or null when it cannot be read (or does not fit).
fn readStdin() ?[]const u8 {
    var len: usize = 0;
    while (true) {
        if (len == input.len) return null;
        const iov = [_]wasi.iovec_t{.{ .base = input[len..].ptr, .len = input.len - len }};
        var n: usize = 0;
        if (wasi.fd_read(0, &iov, 1, &n) != .SUCCESS) return null;
        if (n == 0) return input[0..len];
        len += n;
    }
}

fn stringField(obj: std.json.ObjectMap, key: []const u8) ?[]const u8 {
    const v = obj.get(key) orelse return null;
    return switch (v) {
        .string => |s| s,
        else => null,
    };
}

pub fn main() void {
    const payload = readStdin() orelse block(&.{"cannot read the payload; blocking to be safe"});
    var fba = std.heap.FixedBufferAllocator.init(&heap);
    const parsed = std.json.parseFromSlice(std.json.Value, fba.allocator(), payload, .{}) catch
        block(&.{"cannot parse the payload; blocking to be safe"});
    const obj = switch (parsed.value) {
        .object => |o| o,
        else => block(&.{"the payload is not a JSON object; blocking to be safe"}),
    };
    const event = stringField(obj, "event") orelse "";
    const tool = stringField(obj, "toolName") orelse "";
    if (!std.mem.eql(u8, event, "PreToolUse") or !std.mem.eql(u8, tool, "bash")) return;
    const args = obj.get("toolArgs") orelse return;
    const command = switch (args) {
        .object => |o| stringField(o, "command") orelse return,
        else => return,
    };
    // Collapse runs of whitespace so `rm  -rf   /` is caught too.
    var len: usize = 0;
    var it = std.mem.tokenizeAny(u8, command, " \t\r\n");
    while (it.next()) |word| {
        if (len + word.len + 1 > scratch.len) block(&.{"the command is too long to check; blocking to be safe"});
        if (len > 0) {
            scratch[len] = ' ';
            len += 1;
        }
        @memcpy(scratch[len .. len + word.len], word);
        len += word.len;
    }
    const normalized = scratch[0..len];
    for (dangerous) |d| {
        if (std.mem.indexOf(u8, normalized, d[0]) != null) {
            block(&.{ "`", d[0], "` ", d[1], "; use a safer command" });
        }
    }
}

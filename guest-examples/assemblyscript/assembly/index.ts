// The dangerous-bash guard in AssemblyScript: reads the PreToolUse payload from stdin and
// blocks (exit 2, reason on stderr) a destructive bash command. WASI through
// @assemblyscript/wasi-shim. Build: npm run build
//
// It does not build a JSON tree: it reads the payload once, decoding string escapes (so
// `rm -rf \u002f` is `rm -rf /`), folding whitespace inside strings to single spaces and
// dropping it between tokens (so `"toolName" : "bash"` is seen), and looks for the patterns
// in that text. Constant memory, no recursion: no payload size or depth can crash it. It
// fails closed: what it cannot decode (a bad escape, an unterminated string, unbalanced
// brackets, not an object) is blocked, never passed unseen.
import { fd_read } from "@assemblyscript/wasi-shim/assembly/bindings/wasi_snapshot_preview1";

const DANGEROUS: string[] = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"];
const BASH = '"toolName":"bash"';

const window = new Uint8Array(32); // the last bytes of the decoded text, newest last
let bashSeen = false;
let hit = "";

function failClosed(why: string): void {
  process.stderr.write("assemblyscript guard: cannot read the payload (" + why + "); blocking to fail closed\n");
  process.exit(2);
}

const chunk = new ArrayBuffer(65536);
const bytes = Uint8Array.wrap(chunk);
const iov = memory.data(12); // one iovec (buffer, length), then the count read
let pos = 0;
let len = 0;

/** The next byte of stdin, -1 at its end. fd_read itself, not the shim's process.stdin: that
 * throws on an error, and a throw traps (a crash only warns, the call would go through). */
function next(): i32 {
  if (pos == len) {
    store<usize>(iov, changetype<usize>(chunk));
    store<usize>(iov, chunk.byteLength, 4);
    if (fd_read(0, iov, 1, iov + 8) != 0) failClosed("stdin cannot be read");
    len = load<i32>(iov, 8);
    pos = 0;
    if (len <= 0) return -1;
  }
  return bytes[pos++];
}

function endsWith(s: string): bool {
  const n = s.length;
  for (let i = 0; i < n; i++) if (window[32 - n + i] != s.charCodeAt(i)) return false;
  return true;
}

function emit(c: i32): void {
  if (c == 0x20 && window[31] == 0x20) return; // one space per run
  window.copyWithin(0, 1);
  window[31] = <u8>c;
  if (endsWith(BASH)) bashSeen = true;
  for (let i = 0; hit == "" && i < DANGEROUS.length; i++) if (endsWith(DANGEROUS[i])) hit = DANGEROUS[i];
}

/** The byte a string escape stands for, after the backslash: control characters become
 * spaces, any non-ASCII character a byte no pattern contains. */
function unescape(): i32 {
  const c = next();
  if (c == 0x22 || c == 0x5c || c == 0x2f) return c; // " \ /
  if (c == 0x62 || c == 0x66 || c == 0x6e || c == 0x72 || c == 0x74) return 0x20; // b f n r t
  if (c != 0x75) failClosed("a bad escape"); // u
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const d = next() | 0x20;
    const digit = d >= 0x30 && d <= 0x39 ? d - 0x30 : d >= 0x61 && d <= 0x66 ? d - 0x57 : -1;
    if (digit < 0) failClosed("a bad \\u escape");
    v = v * 16 + digit;
  }
  return v < 0x20 || v == 0x7f ? 0x20 : v < 0x80 ? v : 0x80;
}

let inString = false;
let opened = false;
let depth = 0;
for (let c = next(); c >= 0; c = next()) {
  if (inString) {
    if (c == 0x22) inString = false;
    else if (c == 0x5c) c = unescape();
    else if (c < 0x20) failClosed("a control character in a string");
  } else {
    if (c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d) continue;
    if (!opened && c != 0x7b) failClosed("not a JSON object");
    if (c == 0x7b || c == 0x5b) { depth++; opened = true; } // { [
    else if ((c == 0x7d || c == 0x5d) && --depth < 0) failClosed("unbalanced brackets"); // } ]
    else if (c == 0x22) inString = true;
  }
  emit(c);
}
if (!opened || inString || depth != 0) failClosed("it ends early");
if (bashSeen && hit != "") {
  process.stderr.write("assemblyscript guard: `" + hit + "` is destructive\n");
  process.exit(2);
}

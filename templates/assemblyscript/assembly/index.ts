// {{name}}: a PreToolUse guard for the `bash` tool in AssemblyScript, a WASI preview 1 command
// module (WASI through @assemblyscript/wasi-shim). It reads the payload from stdin, blocks
// destructive commands (exit 2, reason on stderr) and passes everything else (exit 0). A
// payload it cannot read or parse is blocked too: a guard never passes what it could not
// check (fail closed). Build: npm run build

// Patterns that destroy data, with the reason the model is shown.
const PATTERNS: string[] = ["rm -rf /", "rm -fr /", "rm -rf ~", "mkfs"];
const REASONS: string[] = [
  "deletes the whole filesystem",
  "deletes the whole filesystem",
  "deletes the home directory",
  "formats a disk",
];

function block(reason: string): void {
  process.stderr.write("{{name}}: " + reason + "\n");
  process.exit(2);
}

function readStdin(): string {
  let text = "";
  const chunk = new ArrayBuffer(65536);
  while (true) {
    const n = process.stdin.read(chunk);
    if (n <= 0) break;
    text += String.UTF8.decode(chunk.slice(0, <i32>n));
  }
  return text;
}

function isSpace(c: i32): bool {
  return c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d;
}

// The string value of `"key": "value"` anywhere in the JSON text: null when absent or not a
// string. Minimal by design: nesting is not tracked, which is enough for `event`, `toolName`
// and `toolArgs.command` (a key inside a string value is escaped, so it is not matched).
// Sets `malformed` on an unterminated string.
let malformed = false;
function stringField(json: string, key: string): string | null {
  const quoted = '"' + key + '"';
  let from = 0;
  while (from < json.length) {
    const at = json.indexOf(quoted, from);
    if (at < 0) return null;
    from = at + 1;
    let i = at + quoted.length;
    while (i < json.length && isSpace(json.charCodeAt(i))) i++;
    if (i >= json.length || json.charCodeAt(i) != 0x3a) continue; // ':'
    i++;
    while (i < json.length && isSpace(json.charCodeAt(i))) i++;
    if (i >= json.length || json.charCodeAt(i) != 0x22) return null; // not a string
    i++;
    let value = "";
    while (i < json.length && json.charCodeAt(i) != 0x22) {
      let c = json.charCodeAt(i);
      if (c == 0x5c) {
        i++;
        if (i >= json.length) break;
        c = json.charCodeAt(i);
        if (c == 0x75) { // \uXXXX
          if (i + 4 >= json.length) break;
          c = <i32>parseInt(json.substring(i + 1, i + 5), 16);
          i += 4;
        } else if (c == 0x6e || c == 0x72 || c == 0x74 || c == 0x62 || c == 0x66) {
          c = 0x20; // \n \r \t \b \f: whitespace for the checks below
        }
      }
      value += String.fromCharCode(c);
      i++;
    }
    if (i >= json.length) {
      malformed = true;
      return null;
    }
    return value;
  }
  return null;
}

const payload = readStdin();
const trimmed = payload.trim();
const event = stringField(payload, "event");
if (!trimmed.startsWith("{") || !trimmed.endsWith("}") || event == null || malformed) {
  block("cannot parse the payload; blocking to be safe");
} else {
  const tool = stringField(payload, "toolName");
  const command = stringField(payload, "command");
  if (malformed) block("cannot parse the payload; blocking to be safe");
  if (event == "PreToolUse" && tool != null && tool == "bash" && command != null) {
    // Collapse runs of whitespace so `rm  -rf   /` is caught too.
    const words = command.split(" ").filter((w: string) => w.length > 0);
    const normalized = words.join(" ");
    for (let i = 0; i < PATTERNS.length; i++) {
      if (normalized.includes(PATTERNS[i])) {
        block("`" + PATTERNS[i] + "` " + REASONS[i] + "; use a safer command");
      }
    }
  }
}

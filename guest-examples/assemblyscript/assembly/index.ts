// The dangerous-bash guard in AssemblyScript: reads the PreToolUse payload from stdin and
// blocks (exit 2, reason on stderr) a destructive bash command. WASI through
// @assemblyscript/wasi-shim. Build: npm run build
const DANGEROUS: string[] = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"];

function readStdin(): string {
  let text = "";
  const chunk = new ArrayBuffer(65536);
  while (true) {
    const n = process.stdin.read(chunk);
    if (n <= 0) break;
    text += String.UTF8.decode(chunk.slice(0, n));
  }
  return text;
}

const payload = readStdin();
if (payload.includes('"toolName":"bash"')) {
  for (let i = 0; i < DANGEROUS.length; i++) {
    if (payload.includes(DANGEROUS[i])) {
      process.stderr.write("assemblyscript guard: `" + DANGEROUS[i] + "` is destructive\n");
      process.exit(2);
    }
  }
}

// {{name}}: a PreToolUse guard for the `bash` tool, a WASI preview 1 command module
// (GOOS=wasip1). It reads the payload from stdin, blocks destructive commands (exit 2, reason
// on stderr) and passes everything else (exit 0). A payload it cannot read or parse is
// blocked too: a guard never passes what it could not check (fail closed).
// Build: GOOS=wasip1 GOARCH=wasm go build -o {{name}}.wasm .
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

type payload struct {
	Event    string          `json:"event"`
	ToolName string          `json:"toolName"`
	ToolArgs json.RawMessage `json:"toolArgs"`
}

// Patterns that destroy data, with the reason the model is shown.
var dangerous = [][2]string{
	{"rm -rf /", "deletes the whole filesystem"},
	{"rm -fr /", "deletes the whole filesystem"},
	{"rm -rf ~", "deletes the home directory"},
	{"mkfs", "formats a disk"},
}

func block(reason string) {
	fmt.Fprintf(os.Stderr, "{{name}}: %s\n", reason)
	os.Exit(2)
}

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		block("cannot read the payload; blocking to be safe")
	}
	var p payload
	if err := json.Unmarshal(data, &p); err != nil || p.Event == "" {
		block("cannot parse the payload; blocking to be safe")
	}
	if p.Event != "PreToolUse" || p.ToolName != "bash" {
		os.Exit(0)
	}
	var args struct {
		Command string `json:"command"`
	}
	_ = json.Unmarshal(p.ToolArgs, &args) // arguments without a string command: nothing to check
	// Collapse runs of whitespace so `rm  -rf   /` is caught too.
	command := strings.Join(strings.Fields(args.Command), " ")
	for _, d := range dangerous {
		if strings.Contains(command, d[0]) {
			block(fmt.Sprintf("`%s` %s; use a safer command", d[0], d[1]))
		}
	}
}

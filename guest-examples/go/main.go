// The dangerous-bash guard in Go (GOOS=wasip1): reads the PreToolUse payload from stdin and
// blocks (exit 2, reason on stderr) a destructive bash command.
// Build: GOOS=wasip1 GOARCH=wasm go build -o bash-guard-go.wasm .
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

type payload struct {
	Event    string `json:"event"`
	ToolName string `json:"toolName"`
	ToolArgs struct {
		Command string `json:"command"`
	} `json:"toolArgs"`
}

var dangerous = []string{"rm -rf /", "rm -rf ~", "mkfs", "git push --force"}

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	var p payload
	if json.Unmarshal(data, &p) != nil || p.Event != "PreToolUse" || p.ToolName != "bash" {
		os.Exit(0)
	}
	command := strings.Join(strings.Fields(p.ToolArgs.Command), " ")
	for _, d := range dangerous {
		if strings.Contains(command, d) {
			fmt.Fprintf(os.Stderr, "go guard: `%s` is destructive\n", d)
			os.Exit(2)
		}
	}
}

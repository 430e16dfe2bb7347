// The dangerous-bash guard in Go (GOOS=wasip1): reads the PreToolUse payload from stdin and
// blocks (exit 2, reason on stderr) a destructive bash command. It fails closed: a payload it
// cannot read is blocked too.
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
	Event    string          `json:"event"`
	ToolName string          `json:"toolName"`
	ToolArgs json.RawMessage `json:"toolArgs"`
}

var dangerous = []string{"rm -rf /", "rm -rf ~", "mkfs", "git push --force"}

const maxDepth = 100

// depth is how deep data nests, counted without recursion: encoding/json recurses, and a
// deep enough payload exhausts the wasm stack, a trap (a crash only warns: the call would go
// through) rather than an error.
func depth(data []byte) (deepest int) {
	d, inString, escaped := 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			inString, escaped = c != '"', c == '\\'
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			d++
			deepest = max(deepest, d)
		case c == ']' || c == '}':
			d--
		}
	}
	return deepest
}

func block(reason string) {
	fmt.Fprintf(os.Stderr, "go guard: %s\n", reason)
	os.Exit(2)
}

func main() {
	data, err := io.ReadAll(os.Stdin)
	var p payload
	if err == nil && depth(data) > maxDepth {
		err = fmt.Errorf("nested more than %d levels", maxDepth)
	}
	if err == nil {
		err = json.Unmarshal(data, &p)
	}
	if err != nil {
		block(fmt.Sprintf("cannot read the payload (%v); blocking to fail closed", err))
	}
	if p.Event != "PreToolUse" || p.ToolName != "bash" {
		os.Exit(0)
	}
	// A map, not a struct: struct fields match keys case-insensitively ("COMMAND"), a map
	// reads exactly the key the tool reads.
	var args map[string]any
	if err := json.Unmarshal(p.ToolArgs, &args); err != nil {
		block(fmt.Sprintf("cannot read the tool arguments (%v); blocking to fail closed", err))
	}
	command := ""
	if c, ok := args["command"]; ok {
		command = strings.Join(strings.Fields(fmt.Sprint(c)), " ")
	}
	for _, d := range dangerous {
		if strings.Contains(command, d) {
			block(fmt.Sprintf("`%s` is destructive", d))
		}
	}
}

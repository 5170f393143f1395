//go:build !hookcore_lean

package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadReadsClaudeJSONOnlyForMCPTools: ~/.claude.json (megabytes of Claude Code's
// history in real use) is read only for a config with an mcp_tool hook; every hook event
// read and decoded it before (45 ms with a 4.8 MB file, issue 9).
func TestLoadReadsClaudeJSONOnlyForMCPTools(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".claude.json"), `{"mcpServers":{"docs":{"command":"docs-server"}}}`)
	write(filepath.Join(work, "plain.yaml"), "hooks:\n  - id: c\n    event: pre_tool_use\n    action: {type: command, command: \"true\"}\n")
	write(filepath.Join(work, "mcp.yaml"), "hooks:\n  - id: m\n    event: pre_tool_use\n    action: {type: mcp_tool, server: docs, tool: check}\n")
	for _, c := range []struct {
		file string
		want bool
	}{{"plain.yaml", false}, {"mcp.yaml", true}} {
		e := &env{cwd: work, home: home, stdout: io.Discard, stderr: io.Discard}
		l, err := e.load(&configFlags{files: []string{c.file}})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		got := false
		for _, m := range l.set.MCP {
			got = got || m.Scope == "user"
		}
		if got != c.want {
			t.Errorf("%s: ~/.claude.json's servers loaded: %v, want %v", c.file, got, c.want)
		}
	}
}

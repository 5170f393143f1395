package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMCPSources: the places Claude Code reads MCP servers from, each a source with its
// scope and layer: ~/.claude.json's mcpServers (user) and projects[<root>].mcpServers
// (local), <root>/.mcp.json (project: the repository's, behind the trust gate), a plugin's
// .mcp.json (plugin, named for the plugin, once per plugin root); a .mcp.json is kept as
// written, even when it is not JSON (the executor reports it).
func TestMCPSources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root, home, plug, bad := filepath.Join(dir, "p"), filepath.Join(dir, "h"), filepath.Join(dir, "plug"), filepath.Join(dir, "bad")
	for _, d := range []string{root, home, plug, bad} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w(filepath.Join(home, ".claude.json"), `{"mcpServers": {"u": {"command": "u"}}, "projects": {"`+root+`": {"mcpServers": {"l": {"command": "l"}}}, "/else": {"mcpServers": {"x": {"command": "x"}}}}}`)
	w(filepath.Join(root, ".mcp.json"), `{"mcpServers": {"p": {"command": "p"}}}`)
	w(filepath.Join(plug, ".mcp.json"), `{"mcpServers": {"s": {"url": "http://127.0.0.1/"}}}`)
	w(filepath.Join(bad, ".mcp.json"), `{not json`)
	got := MCPSources(root, home, []*File{{Plugin: "fmt", PluginRoot: plug}, {Plugin: "fmt", PluginRoot: plug}, {Plugin: "bad", PluginRoot: bad}})
	type row struct{ Path, Scope, Plugin, Data string }
	var rows []row
	for _, s := range got {
		if s.Hash == "" || (s.Layer == Project) != (s.Scope == "project") {
			t.Errorf("%s: hash %q, layer %v", s.Path, s.Hash, s.Layer)
		}
		rows = append(rows, row{s.Path, s.Scope, s.Plugin, string(s.Data)})
	}
	want := []row{
		{filepath.Join(home, ".claude.json"), "user", "", `{"mcpServers":{"u":{"command":"u"}}}`},
		{filepath.Join(home, ".claude.json"), "local", "", `{"mcpServers":{"l":{"command":"l"}}}`},
		{filepath.Join(root, ".mcp.json"), "project", "", `{"mcpServers": {"p": {"command": "p"}}}`},
		{filepath.Join(plug, ".mcp.json"), "plugin", "fmt", `{"mcpServers": {"s": {"url": "http://127.0.0.1/"}}}`},
		{filepath.Join(bad, ".mcp.json"), "plugin", "bad", `{not json`},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
}

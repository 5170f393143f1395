//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/cli"
)

// TestSelfProtectCoversEveryConfigFile: every file hookcore's discovery loads hooks from, in
// the user's home and in a project, is one the self-protect example keeps the agent from
// writing, with the file tools and from the shell. Red team round 51: ~/.minicode/config.yaml
// and ~/.codebot/settings.json, user layers the example did not name, took a hook that
// rewrote the next Bash call into the rm -rf the guards had just blocked (the real Claude
// Code ran it). The list comes from discovery itself, so a dialect added later is covered or
// this test fails. Red team round 53: the names bash resolves are tried too (a glob of two
// bytes on each name, a cd into the directory named without its slash, a cd by a glob),
// which `changes hook_config` reads against the files discovery looks for from the
// process's home and working directory: HOME is set and the test runs in the project, so
// it is not parallel.
func TestSelfProtectCoversEveryConfigFile(t *testing.T) {
	policy := filepath.Join(repoRoot(t), "examples", "self-protect", "hooks.yaml")
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A Gemini CLI extension (stop 31): its hooks file is a candidate, and the files that
	// decide whether and how it loads are checked beside it.
	ext := filepath.Join(home, ".gemini", "extensions", "guard")
	if err := os.MkdirAll(filepath.Join(ext, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"gemini-extension.json": `{"name": "guard", "version": "1"}`, "hooks/hooks.json": `{"hooks": {}}`} {
		if err := os.WriteFile(filepath.Join(ext, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(proj) // the hook process runs in the project, where discovery looks
	cands, err := config.Discovery{Cwd: proj, Home: home}.Look()
	if err != nil {
		t.Fatal(err)
	}
	extension := false
	for _, name := range []string{"gemini-extension.json", ".gemini-extension-install.json", "../extension-enablement.json"} {
		cands = append(cands, config.Candidate{LayerPath: config.LayerPath{Path: filepath.Join(ext, name), Layer: config.User}})
	}
	seen := 0
	for _, c := range cands {
		if c.Layer != config.User && c.Layer != config.Project && c.Layer != config.Local {
			continue
		}
		extension = extension || c.Extension != nil
		path := strings.ReplaceAll(c.Path, "*", "extra")
		seen++
		calls := []struct{ tool, key, value string }{
			{"Write", "file_path", path},
			{"Bash", "command", "printf 'hooks: []' > " + path},
			// The directories that hold it, moved into place whole (an MCP server's move_file
			// is a Write view of its destination: red team round 52), and the file through a
			// quoted directory name (`~/.mini''code/config.yaml`).
			{"mcp__filesystem__move_file", "destination", filepath.Dir(path)},
			{"Bash", "command", "cp /tmp/x " + quoteDir(path)},
		}
		if strings.HasSuffix(filepath.Dir(path), ".github/hooks") {
			// A repository's own directory name, which the shell rule's names do not hold (they
			// would block every command on .github/workflows): `changes hook_config` and
			// `changes ".github/hooks"` see it instead (red team round 53).
			calls = calls[:3]
			calls = append(calls, struct{ tool, key, value string }{"Bash", "command", "printf 'hooks: []' > " + path})
		}
		for _, cmd := range resolvedSpellings(path, home, proj) {
			calls = append(calls, struct{ tool, key, value string }{"Bash", "command", cmd})
		}
		if base := filepath.Dir(filepath.Dir(path)); base != home && base != proj && base != dir {
			calls = append(calls, struct{ tool, key, value string }{"mcp__filesystem__move_file", "destination", filepath.Dir(filepath.Dir(path))})
		}
		for _, call := range calls {
			t.Run(call.tool+" "+strings.TrimPrefix(call.value, dir), func(t *testing.T) {
				stdin, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": proj, "tool_name": call.tool,
					"tool_input": map[string]any{call.key: call.value, "content": "hooks: []"}})
				var out, errb bytes.Buffer
				code := cli.Main([]string{"fire", "PreToolUse", "--config", policy}, bytes.NewReader(stdin), &out, &errb)
				if code != 2 {
					t.Errorf("exit %d, want 2 (blocked)\nstdout: %s\nstderr: %s", code, out.String(), errb.String())
				}
			})
		}
	}
	if seen < 20 || !extension {
		t.Fatalf("discovery listed %d user, project and local files (a Gemini extension's: %v); want the whole list", seen, extension)
	}
}

// quoteDir returns path with ” inserted after the second byte of the name of the directory
// that holds it (`.mini”code`), as bash reads the same path.
func quoteDir(path string) string {
	d, f := filepath.Split(path)
	d = strings.TrimSuffix(d, "/")
	parent, name := filepath.Split(d)
	if len(name) > 2 {
		name = name[:2] + "''" + name[2:]
	}
	return parent + name + "/" + f
}

// resolvedSpellings returns Bash lines that write the config file path, under base home or
// proj, by names only bash resolves (red team round 53): each name of its path below the
// base cut to two bytes and a *, after a cd into its directory named without the slash, and
// after a cd by a glob.
func resolvedSpellings(path, home, proj string) []string {
	base := home
	if strings.HasPrefix(path, proj+"/") {
		base = proj
	}
	rel := strings.Split(strings.TrimPrefix(path, base+"/"), "/")
	short := func(names []string) string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n[:min(2, len(n))] + "*"
		}
		return strings.Join(out, "/")
	}
	return []string{
		"cp /tmp/x " + base + "/" + short(rel),
		"cd " + filepath.Join(base, rel[0]) + " && cp /tmp/x " + short(rel[1:]),
		"cd " + base + " && cd " + short(rel[:1]) + " && cp /tmp/x " + short(rel[1:]),
		"cd " + filepath.Dir(path) + " && cp /tmp/x " + short(rel[len(rel)-1:]),
	}
}

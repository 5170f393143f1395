//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestExamplesFire fires every example config of examples/ (the hooks of the three seed
// documents, the s08 protocol and the guardrails) with realistic inputs, from a session
// directory outside the repository, and checks what each decides.
func TestExamplesFire(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	ex := func(p string) string { return filepath.Join(root, "examples", p) }
	tests := []struct {
		name, config, event, input string
		exit                       int
		want                       []string // substrings of the JSON result
	}{
		{"minicode block-dangerous-rm", ex("minicode/hooks.yaml"), "PreToolUse",
			`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`, 2, []string{`"reason": "dangerous delete blocked"`, `"id": "block-dangerous-rm"`}},
		{"minicode rm of a build dir is fine", ex("minicode/hooks.yaml"), "PreToolUse",
			`{"tool_name":"Bash","tool_input":{"command":"rm -rf ./build"}}`, 0, []string{`"hooks": []`}},
		{"minicode block-vendor", ex("minicode/hooks.yaml"), "PreToolUse",
			`{"tool_name":"WriteFile","tool_input":{"path":"vendor/github.com/x/y.go","content":"package y"}}`, 2, []string{`vendor/ is managed by the package manager`}},
		{"minicode project-context", ex("minicode/hooks.yaml"), "session_start",
			`{"source":"startup"}`, 0, []string{`stack: Python 3.12 + FastAPI`}},
		{"codebot exit-2 rule", ex("codebot/settings.json"), "PreToolUse",
			`{"tool_name":"Bash","tool_input":{"command":"cd /srv && rm -rf cache"}}`, 2, []string{`recursive deletes are not allowed here`}},
		{"codebot validation passes in an empty project", ex("codebot/settings.json"), "PostStopValidation",
			`{}`, 0, []string{`"outcome": "ok"`}},
		{"s08 guard exit 1 blocks", ex("s08/hooks.json"), "PreToolUse",
			`{"tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`, 2, []string{`blocked by the s08 guard`}},
		{"s08 remind exit 2 injects", ex("s08/hooks.json"), "PreToolUse",
			`{"tool_name":"WriteFile","tool_input":{"path":"out/build/x.c","content":""}}`, 0, []string{`remember: build/ is generated`}},
		{"claude protect lock files", ex("claude/settings.json"), "PreToolUse",
			`{"tool_name":"Write","tool_input":{"file_path":"/p/package-lock.json","content":"{}"}}`, 2, []string{`"permission": "deny"`, `lock files are generated`}},
		{"guardrails rewrite pytest", ex("guardrails/hooks.yaml"), "PreToolUse",
			`{"tool_name":"Bash","tool_input":{"command":"pytest -q tests"}}`, 0, []string{`"command": "python3 -m unittest discover -s tests -q"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			session := t.TempDir()
			var in map[string]any
			if err := json.Unmarshal([]byte(tt.input), &in); err != nil {
				t.Fatal(err)
			}
			in["session_id"], in["cwd"] = "s1", session
			stdin, _ := json.Marshal(in)
			var out, errb bytes.Buffer
			code := cli.Main([]string{"fire", tt.event, "--config", tt.config}, bytes.NewReader(stdin), &out, &errb)
			if code != tt.exit {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.exit, out.String(), errb.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("result lacks %s:\n%s", w, out.String())
				}
			}
		})
	}
}

// TestExamplesPolicyTests runs every examples/*/*.test.yaml with `hookcore test` (issue
// 11.5: the examples' policies are tested in the project's own CI), from the repository
// root, as the files' comments say to.
func TestExamplesPolicyTests(t *testing.T) {
	root := repoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "examples", "*", "*.test.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example policy tests found (%v)", err)
	}
	t.Chdir(root)
	for _, f := range files {
		if strings.Contains(filepath.ToSlash(f), "/examples/opa/") && !cli.RegoLinked {
			t.Logf("%s: skipped: built without -tags rego (.ci/run runs it with the tag)", f)
			continue
		}
		var out, errb bytes.Buffer
		if code := cli.Main([]string{"test", f}, strings.NewReader(""), &out, &errb); code != 0 {
			t.Errorf("%s: exit %d\n%s%s", f, code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), " passed, 0 failed") {
			t.Errorf("%s: %s", f, out.String())
		}
	}
}

// TestExamplesGuardSymlinks edits a secrets file and a lock file of the guardrails example
// through symlinks made beforehand (red team 7: `ln -s .env notes`, then Edit notes): the
// path guards match the file the link names, so the edit is blocked.
func TestExamplesGuardSymlinks(t *testing.T) {
	t.Parallel()
	config := filepath.Join(repoRoot(t), "examples", "guardrails", "hooks.yaml")
	tests := []struct{ target, link, tool, reason string }{
		{".env", "notes", "Edit", "secrets files"},
		{".env.local", "notes.txt", "Write", "secrets files"},
		{"package-lock.json", "deps.json", "Write", "run npm install"},
	}
	for _, tt := range tests {
		t.Run(tt.link+"->"+tt.target, func(t *testing.T) {
			t.Parallel()
			session := t.TempDir()
			if err := os.WriteFile(filepath.Join(session, tt.target), []byte("A=1\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(tt.target, filepath.Join(session, tt.link)); err != nil {
				t.Fatal(err)
			}
			stdin, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": session, "tool_name": tt.tool,
				"tool_input": map[string]any{"file_path": tt.link, "old_string": "A=1", "new_string": "A=2", "content": "A=2"}})
			var out, errb bytes.Buffer
			code := cli.Main([]string{"fire", "PreToolUse", "--config", config}, bytes.NewReader(stdin), &out, &errb)
			if code != 2 || !strings.Contains(out.String(), tt.reason) {
				t.Errorf("exit %d, want 2 with %q\nstdout: %s\nstderr: %s", code, tt.reason, out.String(), errb.String())
			}
		})
	}
}

// TestExamplesGuardrailsRewriteCannotRun is red team round 65: a cloned repository's
// .python-version made a pyenv shim run rewrite.py under Python 3.6, which failed to compile
// it (SyntaxError), and the npm line ran as the model wrote it, without --ignore-scripts. A
// python3 that fails so is first on PATH here: both rewrites (on_error: block) block the
// call, saying the guard failed, and nothing is rewritten or allowed.
func TestExamplesGuardrailsRewriteCannotRun(t *testing.T) {
	config := filepath.Join(repoRoot(t), "examples", "guardrails", "hooks.yaml")
	bin := t.TempDir()
	fake := "#!/bin/sh\necho '  File \"rewrite.py\", line 120' >&2\necho 'SyntaxError: invalid syntax' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "python3"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tt := range []struct{ command, hook string }{
		{"npm i lodash", "npm-ignore-scripts"},
		{"pytest -q", "pytest-to-unittest"},
	} {
		t.Run(tt.hook, func(t *testing.T) {
			stdin, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": t.TempDir(), "tool_name": "Bash",
				"tool_input": map[string]any{"command": tt.command}})
			var out, errb bytes.Buffer
			code := cli.Main([]string{"fire", "PreToolUse", "--config", config}, bytes.NewReader(stdin), &out, &errb)
			want := `guard hook \"` + tt.hook + `\" failed`
			if code != 2 || !strings.Contains(out.String(), want) || strings.Contains(out.String(), `"permission": "allow"`) {
				t.Errorf("exit %d, want 2 with %s\nstdout: %s\nstderr: %s", code, want, out.String(), errb.String())
			}
		})
	}
}

package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestUninstallKeepsLayout: install then uninstall gives back the user's file byte for byte,
// whatever its layout (red team 12: uninstall re-indented the whole file), and install
// leaves every line outside the hooks it changes as it was.
func TestUninstallKeepsLayout(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"two-space":  userSettings,
		"tabs":       "{\n\t\"model\": \"opus\",\n\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\"}]}\n\t\t]\n\t},\n\t\"env\": {\"A\": \"<b>\"}\n}\n",
		"one line":   `{"theme": "dark", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh"}]}]}}`,
		"no hooks":   "{\n    \"model\": \"opus\",\n    \"permissions\": { \"deny\": [ \"Read(.env)\" ] }\n}\n",
		"empty":      "{}\n",
		"hooks last": "{\n  \"a\": 1,\n  \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n}",
		// Members on the line of the brace: not edited in place, the file is written whole.
		"odd layout":  "{\"model\": \"opus\",\n \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}}",
		"hooks first": "{\n  \"hooks\": {\n    \"Stop\": [ {\"hooks\": [] } ]\n  },\n  \"b\": [1,   2]\n}\n",
		// Two members on one line (new-user trial, stop 28: the whole file was rewritten).
		"shared line": "{\n  \"model\": \"opus\", \"theme\": \"dark\",\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}], \"ConfigChange\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"log\"}]}]\n  }\n}\n",
	}
	for name, orig := range files {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
				t.Fatal(err)
			}
			o := Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"}
			p, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(orig, "\n") {
				if name != "odd layout" && !strings.Contains(l, "hooks") && !strings.Contains(l, "]") && !strings.Contains(l, "}") && !strings.Contains(string(p.New), l) {
					t.Errorf("install changed the line %q:\n%s", l, p.New)
				}
			}
			apply(t, p)
			un, err := Uninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, un)
			back, _ := os.ReadFile(path)
			if name == "no hooks" || name == "empty" || name == "odd layout" {
				// install added "hooks", which uninstall removes again; or the layout was not
				// kept (the content is).
				if diff := cmp.Diff(decode(t, []byte(orig)), decode(t, back)); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
				if string(back) != orig {
					t.Logf("layout after install and uninstall (content equal):\n%s", back)
				}
				return
			}
			if diff := cmp.Diff(orig, string(back)); diff != "" {
				t.Errorf("install then uninstall changed the file (-want +got):\n%s", diff)
			}
		})
	}
}

// TestInstallErrorHasPosition: a settings file install cannot read is named with line and
// column, and a comment is called one (Claude Code ignores such a file whole).
func TestInstallErrorHasPosition(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ file, want string }{
		{"{\n  // mine\n  \"model\": \"opus\"\n}\n", path + ":2:3: invalid character '/' looking for beginning of object key string (a comment: JSON has none"},
		{"{\n  \"a\": 1,\n}\n", path + ":3:1: invalid character '}' looking for beginning of object key string"},
		{"{\"a\": ", path + ":1:7: unexpected end of JSON input"},
		// New-user trial, stop 24: "invalid character 'ï'" alone did not say what it was.
		{"\ufeff{\"a\": 1}", path + ":1:1: invalid character 'ï' looking for beginning of value (the file starts with a UTF-8 byte order mark"},
		{"\xff\xfe{\x00}\x00", path + ":1:1: invalid character 'ÿ' looking for beginning of value (the file starts with UTF-16"},
	} {
		if err := os.WriteFile(path, []byte(tt.file), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Install(Options{Agent: "claude", ProjectDir: dir})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want it to start with %q", tt.file, err, tt.want)
		}
		if b, _ := os.ReadFile(path); string(b) != tt.file {
			t.Errorf("the file was changed: %q", b)
		}
	}
	// Gemini CLI reads comments: the message says install cannot keep them (new-user
	// trial, stop 26: it spoke of Claude Code).
	gemini := filepath.Join(dir, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(gemini), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gemini, []byte("{\n  // mine\n  \"general\": {}\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(Options{Agent: "gemini", ProjectDir: dir}); err == nil || !strings.Contains(err.Error(), "Gemini CLI reads it, but install cannot keep comments") {
		t.Errorf("gemini: error %v", err)
	}
}

// TestInstallKeepsCRLF: a settings file written on Windows (every line ends in CRLF) keeps
// CRLF on the lines install adds (it mixed in LF lines: new-user trial, stop 24), and
// uninstall gives the file back byte for byte.
func TestInstallKeepsCRLF(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := "{\r\n  \"model\": \"opus\",\r\n  \"permissions\": {\r\n    \"allow\": [\"Bash(ls)\"]\r\n  }\r\n}\r\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Install(Options{Agent: "claude", ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(p.New, []byte("\n")); n < 8 || bytes.Count(p.New, []byte("\r\n")) != n {
		t.Fatalf("line endings mixed:\n%q", p.New)
	}
	if _, err := p.Apply(time.Now()); err != nil {
		t.Fatal(err)
	}
	u, err := Uninstall(Options{Agent: "claude", ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if string(u.New) != orig {
		t.Errorf("uninstalled:\n%q\nwant\n%q", u.New, orig)
	}
}

// TestInstallLaysOutEmptyContainers: an empty object or array in the file ("hooks": {},
// "Stop": [], a file that is only {}) shows no layout of its own, so install writes what it
// adds there as the container around it is written: one member a line, indented by the
// file's unit, in a file laid out so (it wrote the whole "hooks" object on one line of
// 1 500 bytes), and on one line in a one-line file. An array of scalars (an exec-form
// entry's args) is on one line.
func TestInstallLaysOutEmptyContainers(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, orig, unit string // unit "" for a one-line file
	}{
		{"empty file", "{}\n", "  "},
		{"empty file on lines", "{\n}\n", "  "},
		{"empty hooks", "{\n  \"model\": \"opus\",\n  \"hooks\": {}\n}\n", "  "},
		{"empty event", "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n", "  "},
		{"tabs", "{\n\t\"model\": \"opus\",\n\t\"hooks\": {}\n}\n", "\t"},
		{"four spaces", "{\n    \"hooks\": {\n        \"Stop\": []\n    },\n    \"model\": \"opus\"\n}\n", "    "},
		{"one line", "{\"model\": \"opus\", \"hooks\": {}}\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(c.orig), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
			if err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, p.New); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if c.unit == "" {
				if n := bytes.Count(p.New, []byte("\n")); n != 1 {
					t.Errorf("a one-line file came back on %d lines:\n%s", n, p.New)
				}
				return
			}
			if err := indentJSON(&want, compact.Bytes(), "", c.unit); err != nil {
				t.Fatal(err)
			}
			want.WriteByte('\n')
			if !bytes.Contains(p.New, []byte(`"args": ["hook", "claude"]`)) {
				t.Errorf("an exec-form entry's args are not on one line:\n%s", p.New)
			}
			if diff := cmp.Diff(want.String(), string(p.New)); diff != "" {
				t.Errorf("not laid out as the file around it (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDryRunDiffIsAPatch: what --dry-run prints is a patch `git apply` takes and that turns
// the file into what install writes (it printed every line of the file, with no hunk
// headers). A new file, a file without a final newline and a CRLF file included.
func TestDryRunDiffIsAPatch(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: cannot check the patch")
	}
	for name, orig := range map[string]string{
		"edited":     userSettings,
		"new file":   "",
		"no newline": "{\n  \"model\": \"opus\"\n}",
		"crlf":       "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {}\r\n}\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			rel := filepath.Join(".claude", "settings.json")
			path := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if name != "new file" {
				if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, err := Install(Options{Agent: "claude", ProjectDir: dir, Command: "hookcore"})
			if err != nil {
				t.Fatal(err)
			}
			patch := filepath.Join(t.TempDir(), "dry-run.patch")
			if err := os.WriteFile(patch, []byte(Diff(rel, p.Old, p.New)), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(git, "apply", "-p0", patch)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git apply: %v\n%s\npatch:\n%s", err, out, Diff(rel, p.Old, p.New))
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(p.New), string(got)); diff != "" {
				t.Errorf("the patched file is not what install writes (-want +got):\n%s", diff)
			}
		})
	}
}

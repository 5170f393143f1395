package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathRulesSeeAliasesAndSymlinks (red team, MEDIUM): Edit(**/.env) and Claude-style
// Write(.env) allowed /proc/self/cwd/.env, the project's own .env, while
// `file_path ~= "**/.env"` blocked it. Every form of path rule now matches every spelling of
// the path: /proc/self|PID/cwd, /proc/self/root, /dev/fd/N, ., .., //, ~ and symlinks (the
// longest existing prefix resolved); a deny rule matches when any spelling does.
func TestPathRulesSeeAliasesAndSymlinks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	other := t.TempDir()
	for _, f := range []string{".env", "src/a.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink(filepath.Join(root, ".env"), filepath.Join(root, "innocent.txt")))
	must(os.Symlink(root, filepath.Join(other, "proj")))
	must(os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "lnk")))
	must(os.Symlink("/etc", filepath.Join(root, "src", "etc")))
	must(os.Symlink(".env.missing/../.env", filepath.Join(root, "dangling")))
	env := root + "/.env"
	paths := []string{
		"/proc/self/cwd/.env",
		"/proc/4242/cwd/.env",
		"/proc/thread-self/cwd/.env",
		"/proc/self/root" + env,
		"/dev/fd/3/.env",
		"/proc/self/fd/7/.env",
		root + "/./src/../.env",
		root + "//.env",
		"~/.env",
		root + "/innocent.txt",
		other + "/proj/.env",
		root + "/lnk/../.env", // lexically root/.env; physically src/../.env = root/.env
		".env",
		root + "/dangling", // -> .env.missing/../.env: a link whose target does not exist yet
	}
	for _, expr := range []string{"Edit(**/.env)", "Write(.env)", `file_path ~= "**/.env"`, "Edit(/.env)"} {
		f, err := CompileIf(expr)
		must(err)
		tool := "Edit"
		if expr == "Write(.env)" {
			tool = "Write"
		}
		for _, p := range paths {
			args, _ := json.Marshal(map[string]string{"file_path": p})
			s := NewSubjectAt(root, "PreToolUse", tool, args).WithCwd(root).WithHome(root)
			if !f.Match(s) {
				t.Errorf("%s does not match %s", expr, p)
			}
		}
		// Not the .env: no alias makes it one.
		args, _ := json.Marshal(map[string]string{"file_path": root + "/src/a.go"})
		if f.Match(NewSubjectAt(root, "PreToolUse", tool, args).WithCwd(root).WithHome(root)) {
			t.Errorf("%s matches src/a.go", expr)
		}
	}
	// Permit semantics: Edit(src/**) does not permit a path that leaves src through a
	// symlink (src/etc -> /etc), nor /proc/self/cwd/.env; it still permits src/a.go.
	allow, err := CompileIf("Edit(src/**)")
	must(err)
	for p, want := range map[string]bool{"src/a.go": true, root + "/src/a.go": true, "src/etc/passwd": false, "/proc/self/cwd/.env": false} {
		args, _ := json.Marshal(map[string]string{"file_path": p})
		if got := AllowedBy(NewSubjectIn("PreToolUse", "Edit", args, root), allow); got != want {
			t.Errorf("Edit(src/**) permits %s = %v, want %v", p, got, want)
		}
	}
}

// TestPathRulesFollowDanglingSymlinks (red team, stop 20): `ln -s .env.prod notes` made
// before .env.prod exists, then Write notes, creates .env.prod through the link (open with
// O_CREAT follows it), but the path rule saw only "notes": the resolver gave up when the
// link's target did not exist. Links are now followed as the kernel follows them, dangling
// ones and chains included; a loop stops at the kernel's bound and leaves the path as written.
func TestPathRulesFollowDanglingSymlinks(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for name, target := range map[string]string{
		"notes": ".env.prod",                      // dangling, relative
		"chain": "notes",                          // a link to the dangling link
		"abs":   filepath.Join(root, ".env.prod"), // dangling, absolute
		"loop1": "loop2",
		"loop2": "loop1",
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, expr := range []string{`file_path ~= "**/.env*"`, "Write(**/.env.prod)", "Write(.env.prod)"} {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		for p, want := range map[string]bool{"notes": true, "chain": true, "abs": true, root + "/notes": true, "loop1": false, "src.go": false} {
			args, _ := json.Marshal(map[string]string{"file_path": p})
			if got := f.Match(NewSubjectAt(root, "PreToolUse", "Write", args).WithCwd(root).WithHome(root)); got != want {
				t.Errorf("%s on %s = %v, want %v", expr, p, got, want)
			}
		}
	}
}

// TestPathRulesFailClosedOnHardLinks (red team round 2, finding 6): `ln .env notes`, then
// Write notes, modified .env: a hard link is another name for the same file, which no
// spelling of "notes" shows. A path that names an existing regular file with more than one
// link now matches every deny path rule (Edit(...), file_path ~= GLOB), whatever its
// pattern, and no permit (path rule or file_path condition) permits it; a file with one
// link, a directory and a missing path are judged by their names as before.
func TestPathRulesFailClosedOnHardLinks(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, f := range []string{".env", "src/a.go", "src/b.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(root, ".env"), filepath.Join(root, "notes")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if err := os.Link(filepath.Join(root, ".env"), filepath.Join(root, "src", "c.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("notes", filepath.Join(root, "via-symlink")); err != nil {
		t.Fatal(err)
	}
	subject := func(tool, p string) *Subject {
		args, _ := json.Marshal(map[string]string{"file_path": p})
		return NewSubjectAt(root, "PreToolUse", tool, args).WithCwd(root).WithHome(root)
	}
	for _, expr := range []string{"Edit(**/.env)", "Edit(.env)", `file_path ~= "**/.env"`, "Edit(//nowhere/*)"} {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		for p, want := range map[string]bool{
			"notes": true, root + "/notes": true, "via-symlink": true, "src/c.go": true,
			".env":     true, // it has three names now
			"src/a.go": false, "src": false, "missing.txt": false,
		} {
			if got := f.Match(subject("Edit", p)); got != want {
				t.Errorf("%s on %s = %v, want %v", expr, p, got, want)
			}
		}
	}
	for _, expr := range []string{"Edit(src/**)", "Edit(**)", `file_path ~= "**"`} {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		for p, want := range map[string]bool{"src/c.go": false, "notes": false, root + "/src/c.go": false, "src/a.go": true} {
			args, _ := json.Marshal(map[string]string{"file_path": p})
			s := NewSubjectIn("PreToolUse", "Edit", args, root)
			if got := AllowedBy(s, f); got != want {
				t.Errorf("%s permits %s = %v, want %v", expr, p, got, want)
			}
		}
	}
}

// TestPathRulesFailClosedOnOddValues (red team round 2, finding 9): Write
// {"file_path":["/x/.env"]} and {"file_path":"/x/.env\u0000"} passed `**/.env`: the rule
// read the array as its JSON text and the NUL as a character. A path argument that is not a
// string, or holds a NUL, in any of the keys a path rule reads (file_path, path,
// notebook_path), now matches every deny path rule and is permitted by none.
func TestPathRulesFailClosedOnOddValues(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	odd := []string{
		`{"file_path":["/x/.env"]}`,
		`{"file_path":"/x/.env\u0000"}`,
		`{"file_path":"src/a.go\u0000/../../.env"}`,
		`{"file_path":{"p":"/x/.env"}}`,
		`{"file_path":7}`,
		`{"file_path":null}`,
		`{"file_path":true}`,
		`{"path":["/x/.env"]}`,
		`{"file_path":"src/a.go","path":["/x/.env"]}`,
		`{"notebook_path":["/x/.env.ipynb"]}`,
	}
	deny := []string{"Edit(**/.env)", "Write(.env)", `file_path ~= "**/.env"`, "NotebookEdit(**/*.env.ipynb)", "LS(**/.env)"}
	for _, expr := range deny {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		tool := ruleToolOr(f, "Edit")
		for _, a := range odd {
			if (tool == "NotebookEdit") != strings.Contains(a, "notebook_path") && f.Syntax() == Rule {
				continue // the rule reads other keys
			}
			if !f.Match(NewSubjectAt(root, "PreToolUse", tool, json.RawMessage(a))) {
				t.Errorf("%s does not match %s", expr, a)
			}
		}
		if f.Match(NewSubjectAt(root, "PreToolUse", tool, json.RawMessage(`{"file_path":"src/a.go"}`))) && tool != "NotebookEdit" {
			t.Errorf("%s matches src/a.go", expr)
		}
	}
	for _, expr := range []string{"Edit(**)", `file_path ~= "**"`, `file_path =~ /./`, `file_path != "x"`} {
		f, err := CompileIf(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range odd {
			if AllowedBy(NewSubjectIn("PreToolUse", "Edit", json.RawMessage(a), root), f) {
				t.Errorf("%s permits %s", expr, a)
			}
		}
		if !AllowedBy(NewSubjectIn("PreToolUse", "Edit", json.RawMessage(`{"file_path":"src/a.go"}`), root), f) {
			t.Errorf("%s does not permit src/a.go", expr)
		}
	}
}

// ruleToolOr returns the tool of a rule filter, else def.
func ruleToolOr(f *If, def string) string {
	if t := f.RuleTool(); t != "" {
		return t
	}
	return def
}

// TestPathFormsLongPathResolved (red team round 44): a path over the kernel's 4 096 bytes as
// written, but short once cleaned (/ws/ then 900 "a/../" then x, x a link to .env), skipped
// link resolution, so a .env rule missed it; a tool that cleans the path first writes .env.
func TestPathFormsLongPathResolved(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.WriteFile(filepath.Join(root, ".env"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".env", filepath.Join(root, "x")); err != nil {
		t.Fatal(err)
	}
	f, err := CompileIf("Write(.env)")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{root + "/x", root + "/" + strings.Repeat("a/../", 900) + "x", strings.Repeat("./", 2100) + "x"} {
		args, _ := json.Marshal(map[string]string{"file_path": p})
		if !f.Match(NewSubjectAt(root, "PreToolUse", "Write", args).WithCwd(root)) {
			t.Errorf("Write(.env) missed a link to .env spelled in %d bytes", len(p))
		}
	}
}

package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInstallReplacesBareNames: install writes the hook program's absolute path (red team
// round 45: a bare `hookcore-hook hook claude` ran a repository's bin/hookcore-hook once its
// settings env put bin first on PATH). An entry an older install wrote with a bare name is
// install's own: install replaces it with the absolute one and says so (ReplacedBare), twice
// is once, and uninstall removes it, for every agent, with and without --server, for the
// lean and the full binary, and for a program of another name given with --command. For
// Claude Code the older entries were shell form (ReplacedShell too); a bare name in exec form
// is looked up on the same PATH (observed with Claude Code 2.1.332) and replaced as well.
func TestInstallReplacesBareNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		agent, server string
		bare, abs     string // the program as an older install wrote it, and as install writes it now
		shell         bool   // the older entries are shell form where install now writes exec form
	}{
		{agent: "claude", bare: "hookcore-hook", abs: "/home/u/go/bin/hookcore-hook", shell: true},
		{agent: "claude", bare: "hookcore", abs: "/home/u/go/bin/hookcore-hook", shell: true},
		{agent: "claude", server: "http://127.0.0.1:7878", bare: "hookcore", abs: "/home/u/go/bin/hookcore", shell: true},
		{agent: "claude", bare: "hookcore-hook", abs: "/home/u/go/bin/hookcore-hook"},
		{agent: "codex", bare: "hookcore-hook", abs: "/home/u/go/bin/hookcore-hook"},
		{agent: "codex", server: "http://127.0.0.1:7878", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "gemini", bare: "hookcore", abs: "/usr/local/bin/hookcore"},
		{agent: "cursor", bare: "hookcore-hook", abs: "/opt/my tools/hookcore-hook"},
		{agent: "copilot", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "copilot", server: "http://[::1]:7878", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "claude", bare: "hc", abs: "/opt/hc/hc", shell: true},
	} {
		name := tc.agent + " " + tc.bare + " " + tc.server
		if tc.shell {
			name += " shell form"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := agents[tc.agent]
			dir := t.TempDir()
			// The file an older install wrote: every event's entry with the bare name.
			old := Options{Agent: tc.agent, Scope: Project, ProjectDir: dir, Command: tc.bare, Server: tc.server}
			writeOlder(t, old, tc.shell)
			o := Options{Agent: tc.agent, Scope: Project, ProjectDir: dir, Command: tc.abs, Server: tc.server}
			p, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, ev := range a.events {
				if tc.server != "" && a.name == "claude" && ev.name != "SessionStart" {
					continue // an http hook: no program
				}
				want = append(want, ev.name)
			}
			wantShell := []string(nil)
			if tc.shell {
				wantShell = want
			}
			if !p.Changed || !slices.Equal(p.ReplacedBare, want) || !slices.Equal(p.Replaced, want) || !slices.Equal(p.ReplacedShell, wantShell) || len(p.Kept) > 0 {
				t.Errorf("changed %v, replaced %v, bare %v, shell %v, kept %v; want %v replaced", p.Changed, p.Replaced, p.ReplacedBare, p.ReplacedShell, p.Kept, want)
			}
			apply(t, p)
			got, _ := os.ReadFile(p.Path)
			progs := programs(t, a, got)
			if n := countOf(progs, tc.bare); n != 0 {
				t.Errorf("%d entries still run %s by its bare name:\n%s", n, tc.bare, got)
			}
			if n := countOf(progs, tc.abs); n != len(want) {
				t.Errorf("%d entries run %s, want %d:\n%s", n, tc.abs, len(want), got)
			}
			if again, err := Install(o); err != nil || again.Changed || len(again.ReplacedBare) > 0 {
				t.Errorf("installing twice: %v, changed %v, bare %v", err, again.Changed, again.ReplacedBare)
			}
			// A file holding both forms (an older install's entries back beside the new
			// ones): uninstall removes both.
			writeOlder(t, old, tc.shell)
			older, _ := os.ReadFile(p.Path)
			if err := os.WriteFile(p.Path, []byte(mergeEntries(t, a, got, older)), 0o644); err != nil {
				t.Fatal(err)
			}
			un, err := Uninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, un)
			after, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.files[Project])))
			if strings.Contains(string(after), " hook ") || strings.Contains(string(after), "/hook/") || strings.Contains(string(after), `"hook"`) {
				t.Errorf("uninstall left an entry:\n%s", after)
			}
		})
	}
}

// writeOlder writes o's settings file as an older install left it: install's entries for o
// alone, in shell form when shell is set (Claude Code's before stop 29).
func writeOlder(t *testing.T, o Options, shell bool) {
	t.Helper()
	a, path, _, _, err := o.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if shell {
		legacy := *a
		legacy.exec = false
		a = &legacy
	}
	p := &Plan{Path: path}
	if err := p.merge(a, &o, true); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, p.New, 0o644); err != nil {
		t.Fatal(err)
	}
}

// programs returns the program of every hook entry in data, an agent a's settings file
// (argv: an exec-form entry's command, a command line's first word).
func programs(t *testing.T, a *agent, data []byte) []string {
	t.Helper()
	var out []string
	for _, h := range entries(t, a, data) {
		if w, _, ok := argv(h); ok {
			out = append(out, w[0])
		}
	}
	return out
}

// entries returns every hook entry of data, an agent a's settings file, in event order.
func entries(t *testing.T, a *agent, data []byte) []json.RawMessage {
	t.Helper()
	var f struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	var out []json.RawMessage
	for _, ev := range a.events {
		for _, g := range f.Hooks[ev.name] {
			if !a.grouped {
				out = append(out, g)
				continue
			}
			var grp struct{ Hooks []json.RawMessage }
			if err := json.Unmarshal(g, &grp); err != nil {
				t.Fatal(err)
			}
			out = append(out, grp.Hooks...)
		}
	}
	return out
}

// mergeEntries returns the settings file cur with the groups (or entries) of older appended
// to each event's list: both installs' entries in one file.
func mergeEntries(t *testing.T, a *agent, cur, older []byte) string {
	t.Helper()
	var c, o map[string]any
	if err := json.Unmarshal(cur, &c); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(older, &o); err != nil {
		t.Fatal(err)
	}
	ch, oh := c["hooks"].(map[string]any), o["hooks"].(map[string]any)
	for _, ev := range a.events {
		if l, ok := oh[ev.name].([]any); ok {
			cl, _ := ch[ev.name].([]any)
			ch[ev.name] = append(cl, l...)
		}
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func countOf(s []string, v string) int {
	n := 0
	for _, x := range s {
		if x == v {
			n++
		}
	}
	return n
}

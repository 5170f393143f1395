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
// lean and the full binary, and for a program of another name given with --command.
func TestInstallReplacesBareNames(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		agent, server string
		bare, abs     string // the program as an older install wrote it, and as install writes it now
	}{
		{agent: "claude", bare: "hookcore-hook", abs: "/home/u/go/bin/hookcore-hook"},
		{agent: "claude", bare: "hookcore", abs: "/home/u/go/bin/hookcore-hook"},
		{agent: "claude", server: "http://127.0.0.1:7878", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "codex", bare: "hookcore-hook", abs: "/home/u/go/bin/hookcore-hook"},
		{agent: "codex", server: "http://127.0.0.1:7878", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "gemini", bare: "hookcore", abs: "/usr/local/bin/hookcore"},
		{agent: "cursor", bare: "hookcore-hook", abs: "'/opt/my tools/hookcore-hook'"},
		{agent: "copilot", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "copilot", server: "http://[::1]:7878", bare: "hookcore", abs: "/home/u/go/bin/hookcore"},
		{agent: "claude", bare: "hc", abs: "/opt/hc/hc"},
	} {
		t.Run(tc.agent+" "+tc.bare+" "+tc.server, func(t *testing.T) {
			t.Parallel()
			a := agents[tc.agent]
			dir := t.TempDir()
			// The file an older install wrote: every event's entry with the bare name.
			old := Options{Agent: tc.agent, Scope: Project, ProjectDir: dir, Command: tc.bare, Server: tc.server}
			p, err := Install(old)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, p)
			abs := strings.Trim(tc.abs, "'")
			o := Options{Agent: tc.agent, Scope: Project, ProjectDir: dir, Command: abs, Server: tc.server}
			p, err = Install(o)
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
			if !p.Changed || !slices.Equal(p.ReplacedBare, want) || !slices.Equal(p.Replaced, want) || len(p.Kept) > 0 {
				t.Errorf("changed %v, replaced %v, bare %v, kept %v; want %v replaced", p.Changed, p.Replaced, p.ReplacedBare, p.Kept, want)
			}
			apply(t, p)
			got, _ := os.ReadFile(p.Path)
			if n := strings.Count(string(got), `"`+tc.bare+` hook `); n != 0 {
				t.Errorf("%d entries still run %s by its bare name:\n%s", n, tc.bare, got)
			}
			if n := strings.Count(string(got), jsonString(tc.abs+" hook ")); n != len(want) {
				t.Errorf("%d entries run %s, want %d:\n%s", n, tc.abs, len(want), got)
			}
			if again, err := Install(o); err != nil || again.Changed || len(again.ReplacedBare) > 0 {
				t.Errorf("installing twice: %v, changed %v, bare %v", err, again.Changed, again.ReplacedBare)
			}
			// A file holding both forms (the bare entry back in one event): uninstall
			// removes both.
			both := strings.Replace(string(got), jsonString(tc.abs+" hook "), jsonString(tc.bare+" hook "), 1)
			if err := os.WriteFile(p.Path, []byte(both), 0o644); err != nil {
				t.Fatal(err)
			}
			un, err := Uninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			apply(t, un)
			after, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.files[Project])))
			if strings.Contains(string(after), " hook ") || strings.Contains(string(after), "/hook/") {
				t.Errorf("uninstall left an entry:\n%s", after)
			}
		})
	}
}

// jsonString is s as it appears inside a JSON string, without the closing quote.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return strings.TrimSuffix(string(b), `"`)
}

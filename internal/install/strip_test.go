package install

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestUninstallBlankFile (new-user trial, stop 29): a settings file that is empty or blank
// holds no entry of install's, so uninstall changes nothing; it wrote "{}" into it.
func TestUninstallBlankFile(t *testing.T) {
	t.Parallel()
	for _, agent := range Agents() {
		for _, blank := range []string{"", "\n", " \t\r\n\n"} {
			t.Run(agent+"/"+strconv.Quote(blank), func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				o := Options{Agent: agent, Scope: Project, ProjectDir: dir, Command: "hookcore"}
				_, path, _, _, err := o.resolve()
				if err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(blank), 0o644); err != nil {
					t.Fatal(err)
				}
				p, err := Uninstall(o)
				if err != nil {
					t.Fatal(err)
				}
				if p.Changed || string(p.New) != blank {
					t.Errorf("uninstall of %q: changed %v, new %q; want nothing changed", blank, p.Changed, p.New)
				}
			})
		}
	}
}

// TestStrip: Strip is what Uninstall writes, from bytes: install's entries out, everything
// else as it was; the bytes as they are when there is nothing to take out or they cannot be
// read.
func TestStrip(t *testing.T) {
	t.Parallel()
	o := Options{Agent: "claude", Command: "hookcore"}
	installed := func(old string) []byte {
		t.Helper()
		a := agents["claude"]
		p := &Plan{Old: []byte(old)}
		if err := p.merge(a, &o, true); err != nil || !p.Changed {
			t.Fatalf("install into %q: changed %v, %v", old, p.Changed, err)
		}
		return p.New
	}
	for _, tc := range []struct{ name, in, want string }{
		{"user's file", userSettings, userSettings},
		{"installed into the user's file", string(installed(userSettings)), userSettings},
		{"installed into an empty file", string(installed("")), "{}\n"},
		{"blank", "\n", "\n"},
		{"not JSON", "{nope", "{nope"},
		{"null", "null", "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := string(Strip(o, []byte(tc.in))); got != tc.want {
				t.Errorf("Strip(%.40q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	if got := string(Strip(Options{Agent: "nobody"}, []byte("{}"))); got != "{}" {
		t.Errorf("Strip for an unknown agent = %q, want the bytes as they are", got)
	}
}

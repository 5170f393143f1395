package shell_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hookcore/hookcore/shell"
)

// TestMktempTail: a command substitution of mktemp where a program's suffix may start is
// the name of the file or directory mktemp makes, which runs nothing (stop 33: `tar -xf
// x.tar -C "$(mktemp -d)"` matched every deny rule); another substitution there still
// may be any command, and the substitution's own commands are read.
func TestMktempTail(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"tar -C $(mktemp -d) last", `tar -xf x.tar -C "$(mktemp -d)"`, "none"},
		{"tar -C $(mktemp -d) first", `tar -C "$(mktemp -d)" -xzf x.tgz`, "none"},
		{"unquoted", `tar -C $(mktemp -d) -xzf x.tgz`, "none"},
		{"a template", `tar -xf x.tar -C "$(mktemp -d build.XXXX)"`, "none"},
		{"rm in the substitution", `tar -xf x.tar -C "$(mktemp -d; rm -rf x)"`, "all"},
		{"rm after the name", `tar -C "$(mktemp -d)" rm -rf x`, "rm"},
		{"another substitution", `tar -xf x.tar -C "$(cat f)"`, "all"},
		{"a substitution of mktemp's output", `tar -xf x.tar -C "$(mktemp -d)$(cat f)"`, "all"},
	})
}

// TestLoopValues: a for loop's variable is its word list when the line binds and reads it
// nowhere else (stop 33).
func TestLoopValues(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, cmd string
		want      map[string][]string
	}{
		{"a glob", `for f in .claude/*.json; do cp evil "$f"; done`, map[string][]string{"f": {".claude/*.json"}}},
		{"words, ${f}", `for f in a b ~/.claude/x; do cp x "${f}" "$f"; done`, map[string][]string{"f": {"a", "b", "~/.claude/x"}}},
		{"quoted words", `for d in 'build/a' "build/b"; do echo x > "$d.log"; done`, map[string][]string{"d": {"build/a", "build/b"}}},
		{"two loops of one name", `for f in a; do for f in b c; do cp x "$f"; done; done`, map[string][]string{"f": {"a", "b", "c"}}},
		{"sed -i beside $i", `for i in 1 2; do sed -i s/a/b/ "x$i"; done`, map[string][]string{"i": {"1", "2"}}},
		{"select", `select f in a b; do cp x "$f"; done`, map[string][]string{"f": {"a", "b"}}},
		{"a command substitution", `for f in $(ls -d ~/.claude/*); do cp x "$f"; done`, map[string][]string{}},
		{"a variable", `for f in $FILES; do cp x "$f"; done`, map[string][]string{}},
		{"a brace", `for f in {a,b}; do cp x "$f"; done`, map[string][]string{}},
		{"a blank", `for f in a "b c"; do cp x "$f"; done`, map[string][]string{}},
		{"no list", `for f; do cp x "$f"; done`, map[string][]string{}},
		{"assigned in the body", `for f in a b; do f=x; cp x "$f"; done`, map[string][]string{}},
		{"read in the body", `for f in a b; do read -r f; cp x "$f"; done`, map[string][]string{}},
		{"a nameref", `for f in a b; do declare -n r=f; r=~/x; cp x "$f"; done`, map[string][]string{}},
		{"arithmetic", `for f in 1 2; do (( f = 9 )); cp x "$f"; done`, map[string][]string{}},
		{"used before the loop", `cp x "$f"; for f in a b; do echo "$f"; done`, map[string][]string{}},
		{"used after the loop", `for f in a b; do :; done; cp x "$f"`, map[string][]string{}},
		{"an operator", `for f in a b; do cp x "${f%.go}"; done`, map[string][]string{}},
		{"a nested script's loop", `for f in a; do :; done; bash -c 'for f in ~/.claude/*; do cp x "$f"; done'`, map[string][]string{}},
		{"an escaped $f", `for f in a b; do bash -c "cp x \$f"; done`, map[string][]string{}},
		{"a C-style loop", `for ((i = 0; i < 3; i++)); do cp x "$i"; done`, map[string][]string{}},
		{"while read", `while read f; do cp x "$f"; done < list`, map[string][]string{}},
		{"eval", `for f in a b; do eval "f=x"; cp x "$f"; done`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, shell.LoopValues(tc.cmd)); diff != "" {
				t.Errorf("LoopValues(%q) (-want +got):\n%s", tc.cmd, diff)
			}
		})
	}
}

// FuzzLoopValues checks LoopValues on any line: no panic, and no value with an expansion,
// a blank or a brace (a value is a word of literal text, or a glob).
func FuzzLoopValues(f *testing.F) {
	for _, s := range []string{`for f in a b; do cp x "$f"; done`, `for f in .claude/*.json; do cp evil "$f"; done`,
		`for f in a; do for f in b; do :; done; done`, `select f in a; do rm "$f"; done`, `for f in $(ls); do :; done`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for name, vs := range shell.LoopValues(line) {
			for _, v := range vs {
				if v == "" || strings.ContainsAny(v, " \t\n{}$`'\"\\") {
					t.Fatalf("LoopValues(%q)[%s] has %q", line, name, v)
				}
			}
		}
	})
}

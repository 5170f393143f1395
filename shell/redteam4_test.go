package shell_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/shell"
)

// TestBashRedTeam4Expansions: red team round 4, findings 1 to 4 (the exact lines first):
// options of programs that run code, produced by brace expansion, parameter expansion,
// command substitution or a glob rather than written (docs/decisions.md, "Red team round
// 4: expansion-built options").
func TestBashRedTeam4Expansions(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// Finding 1: find -exec behind a variable or a brace expansion.
		{"find $f=-exec", `f=-exec; find . -maxdepth 0 $f rm -rf victim \;`, "all"},
		{"find {-exec,rm}", `find . -maxdepth 0 {-exec,rm} -rf victim \;`, "rm"},
		{"find {-execdir,rm}", `find . -maxdepth 0 {-execdir,rm} -rf victim \;`, "rm"},
		{"find {-ok,rm}", `yes | find . -maxdepth 0 {-ok,rm} -rf victim \;`, "rm"},
		{"find {-okdir,rm}", `yes | find . -maxdepth 0 {-okdir,rm} -rf victim \;`, "rm"},
		// Finding 2: git options by braces and variables.
		{"git {-c,alias,x}", `git {-c,'alias.x=!rm -rf victim',x}`, "all"},
		{"git grep {-O,hello}", `git grep {'-Orm -rf victim',hello}`, "rm"},
		{"git grep $f open-files-in-pager", `f=--open-files-in-pager='rm -rf victim'; git grep "$f" hello`, "all"},
		{"git grep $f -O", `f=-Orm\ -rf\ victim; git grep "$f" hello`, "all"},
		// Finding 3: sort --compress-program not written.
		{"sort glob", `touch -- --compress-program=sh; yes 'rm -rf victim' | head -n 50000 | sort -S1 - *`, "all"},
		{"sort $f", `f=--compress-program=sh; yes 'rm -rf victim' | head -n 50000 | sort -S1 - $f`, "all"},
		{"sort braces", `yes 'rm -rf victim' | head -n 50000 | sort -S1 {--compress-program=sh,-}`, "all"},
		{"sort $(printf)", `yes 'rm -rf victim' | head -n 50000 | sort -S1 - "$(printf -- '--compress-program=sh')"`, "all"},
		// Finding 4: install --strip-program through a variable.
		{"install $f", `f=--strip-program=sh; install -s $f /dev/fd/3 y 3<<< "rm -rf victim"`, "all"},
		// The class: the same programs, other spellings.
		{"find quoted $f", `f=-exec; find . "$f" rm -rf victim \;`, "all"},
		{"find $(...)", `find . -maxdepth 0 "$(echo -exec)" rm -rf victim \;`, "rm"},
		{"find $f holds the command", `f='-exec rm -rf victim ;'; find . $f`, "all"},
		{"find glob", `find * -maxdepth 0 -rf victim \;`, "all"}, // the glob may name any program
		{"find braces sequence", `find . -maxdepth 0 -e{x..x}ec rm -rf victim \;`, "rm"},
		{"find nested braces", `find . -maxdepth 0 {-{exec,x},rm} -rf victim \;`, "rm"},
		{"find -$f", `f=xec; find . -e$f rm -rf victim \;`, "all"},
		{"git grep $1", `f() { git grep "$1" hello; }; f -Orm\ -rf\ victim`, "all"},
		{"git grep -n $f", `f=-Orm\ -rf\ victim; git grep -n "$f" hello`, "all"},
		{"git grep -e x $f", `f=-Orm\ -rf\ victim; git grep -e hello "$f"`, "all"},
		{"git grep glob", `git grep * hello`, "all"},
		{"git grep --open=$f", `f='rm -rf victim'; git grep --open="$f" hello`, "all"},
		{"git rebase $f", `f=--exec=rm\ -rf\ victim; git rebase "$f" main`, "all"},
		{"git braces rebase", `git rebase {--exec,'rm -rf victim'} main`, "rm"},
		{"sort --$f", `f=compress-program=sh; sort --$f -S1 -`, "all"},
		{"sort --comp$f", `f=ress-program=sh; sort --comp$f -S1 -`, "all"},
		{"sort *.txt", `sort -S1 - *.txt`, "all"},
		{"sort $((...))", `sort $((1)) -S1 -`, "all"},
		{"install braces", `install -s {--strip-program,'rm -rf victim'} a y`, "rm"},
		{"install $(...)", `install -s "$(echo --strip-program=sh)" /dev/fd/3 y 3<<< "rm -rf victim"`, "all"},
		{"man -P $f", `f=-Prm\ -rf\ victim; man "$f" ls`, "all"},
		{"rg glob", `rg x *`, "all"},
		{"less +$f", `f='+!rm -rf victim'; less "$f" x`, "all"},
		{"less glob", `less *`, "all"},
		{"sed $f", `f='-e1e rm -rf victim'; sed -n -e p "$f" x`, "all"},
		{"sed glob", `sed -n p *`, "all"},
		{"nameref", `declare -n r=f; f=-exec; find . $r rm -rf victim \;`, "all"},
		{"nameref naked", `declare -n r; r=f; f=--compress-program=sh; sort -S1 - "$r"`, "all"},
		{"two values, one an option", `f=x; f=--compress-program=sh; sort -S1 - "$f"`, "all"},
		{"a value with a blank, unquoted", `f='. -exec'; find $f rm -rf victim \;`, "all"},
		{"a value with a glob, unquoted", `f='*'; sort -S1 - $f`, "all"},
		{"a loop item that is an option", `for f in ./a -Orm\ -rf\ victim; do git grep "$f" hello; done`, "all"},
		{"a loop item by braces", `for f in {./a,--compress-program=sh}; do sort -S1 - "$f"; done`, "all"},
		{"a loop over the positional parameters", `for f; do sort -S1 - "$f"; done`, "all"},
		{"read", `read f <<< --compress-program=sh; sort -S1 - "$f"`, "all"},
		{"printf -v", `printf -v f -- --compress-program=sh; sort -S1 - "$f"`, "all"},
		{"default assignment", `: ${f:=--compress-program=sh}; sort -S1 - "$f"`, "all"},
		{"IFS splits a safe-looking value", `IFS=x; f=ax--compress-program=sh; sort -S1 - $f`, "all"},
		{"xargs sort", `echo --compress-program=sh | xargs sort -S1 f`, "all"},
		{"alias braces", "shopt -s expand_aliases; alias f='find . {-exec,rm} -rf victim \\;'\nf", "rm"},
		{"echo braces piped to sh", `echo {rm,-rf,victim} | sh`, "all"}, // as echo rm -rf victim | sh
		{"braces past the bound", `echo {1..2000}`, "all"},
		{"braces past the bound by product", `echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}`, "all"},
	})
}

// TestBashRedTeam4NearMisses: ordinary lines with words of unknown value given to the
// same programs, which must not match a rule for rm: the word is an option's value, comes
// from the agent's environment, follows "--" or the first operand, or starts with a byte
// that is not '-'.
func TestBashRedTeam4NearMisses(t *testing.T) {
	t.Parallel()
	var tests []denyCase
	for _, c := range []string{
		`find . -name "$x"`,
		`x='*.go'; find . -name "$x"`,
		`x='*.go'; find . -name "$x" -o -path "$y" -print`,
		`find "$HOME" -name '*.go'`,
		`find . -type f -newer "$f" -delete`,
		`d=src; find "$d" -name '*.go'`,
		`for d in a b; do find "$d" -maxdepth 1; done`,
		`find ./* -name x`,
		`find . -name "$x" -exec grep -l "$y" {} +`,
		`p=foo; git grep "$p"`,
		`d=src; find $d -name x -exec ls {} \;`,
		`d=.; find "$d" -maxdepth 1`,
		`for d in a b; do find $d -name x; done`,
		`for f in src/*.ts; do sed -i 's/a/b/' "$f"; done`,
		`for f in {a,b}.txt; do sort "$f"; done`,
		`f=main.go; sort "$f"`,
		`f=main.go; sed -n '1,10p' "$f"`,
		`f=~/notes.txt; sort $f`,
		`git commit -m "$msg"`,
		`msg='fix the parser'; git commit -m "$msg"`,
		`git grep -e "$pat"`,
		`p=foo; git grep -e "$p"`,
		`p=foo; git grep foo -- "$p"`,
		`p=foo; git grep foo "$p"`,
		`git grep foo -- *.go`,
		`git grep foo *.go`,
		`git log --oneline "$rev"`,
		`r=HEAD; git log "$r"`,
		`sort $file`,
		`sort "$file" -o "$file"`,
		`o=out.txt; sort -o "$o" ./in`,
		`s=,; sort -t "$s" -k2 ./in`,
		`sort ./*.txt`,
		`sort -- *.txt`,
		`sort -k"$n" f`,
		`sort {a,b}.txt`,
		`ls *`,
		`ls {a,b} *`,
		`cat *.go | sort`,
		`install -m "$mode" a /usr/local/bin/a`,
		`m=755; install -m "$m" a ./bin/a`,
		`wget -O "$out" http://h`,
		`echo {a,b}`,
		`mkdir -p src/{a,b}/{c,d}`,
		`cp x{,.bak}`,
		`echo {1..1024}`,
		`less "$f"`,
		`sed -i 's/a/b/' "$f"`,
		`sed -i 's/a/b/' -- *.go`,
	} {
		tests = append(tests, denyCase{c, c, "none"})
	}
	runDenyCases(t, tests)
}

// TestBashRedTeam4Costs pins the false positives the round 4 rule accepts
// (docs/decisions.md): a word of unknown value that may be a code option of the program it
// is given to makes every deny rule match unless it only reads variables the line does
// not set.
func TestBashRedTeam4Costs(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"a file name from a loop given to sort", `for f in *.txt; do sort "$f"; done`, "all"},
		{"a glob given to sort", `sort *.txt`, "all"},
		{"a glob given to sed", `sed -i 's/a/b/' *.go`, "all"},
		{"a positional parameter given to git grep", `f() { git grep "$1"; }; f foo`, "all"},
		{"a file name from a loop, unquoted", `for f in src/*.ts; do sed -i 's/a/b/' $f; done`, "all"},
		{"a start point the line sets, unquoted, with IFS set", `IFS=,; d=src; find $d -name x -exec ls {} \;`, "all"},
		{"a value read from stdin", `read p; git grep "$p"`, "all"},
		{"a process substitution given to sort", `sort -k1,1 <(cut -f1 a.tsv)`, "all"},
		{"a large sequence", `seq_words=$(echo {1..2000})`, "all"},
	})
}

// TestBashBraceFieldsBound: brace expansion that would make a huge number of words is
// not made (the bound is on words, not time).
func TestBashBraceFieldsBound(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"huge sequence", `echo {1..9223372036854775807}`, "all"},
		{"huge product", `echo ` + strings.Repeat(`{a,b}`, 64), "all"},
		{"four commands at the bound", strings.Repeat("echo {1..1024}\n", 4), "none"},
		{"five commands at the bound", strings.Repeat("echo {1..1024}\n", 5), "all"},
		{"inside a nested script", `bash -c 'echo {1..1024}; echo {1..1024}'; echo {1..1024}; echo {1..1024}; echo {1..4}`, "all"},
	})
}

// TestBashBraceExpansionRules: brace expansion as deny and allow rules see it. The
// expanded words are what the command runs, so an allow rule matches them; with brace
// expansion possibly off (set +B) the words are as written and of unknown value.
func TestBashBraceExpansionRules(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"braceexpand off", `set +B; find . {-exec,rm} -rf victim \;`, "all"},
		{"set +o braceexpand", `set +o braceexpand; sort {--compress-program=sh,-}`, "all"},
	})
	tests := []struct {
		name, command, rule string
		want                bool
	}{
		{"expanded command name", `{rm,-rf,victim}`, "Bash(rm *)", true},
		{"expanded arguments", `ls {a,b}/x`, "Bash(ls a/x b/x)", true},
		{"an -exec the braces make needs its own rule", `find . {-exec,rm} -rf victim \;`, "Bash(find *)", false},
		{"braces left as written when off", `set +B; rm {-i,x}`, "Bash(rm -i *)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := match.CompileIf(tt.rule)
			if err != nil {
				t.Fatal(err)
			}
			set, err := match.CompileIf("Bash(set *)")
			if err != nil {
				t.Fatal(err)
			}
			args, err := json.Marshal(map[string]string{"command": tt.command})
			if err != nil {
				t.Fatal(err)
			}
			s := match.NewSubject("PreToolUse", "Bash", args)
			if got := match.AllowedBy(s, f, set); got != tt.want {
				t.Errorf("%s allows %q = %v, want %v", tt.rule, tt.command, got, tt.want)
			}
		})
	}
}

// BenchmarkParseExpansions: a line whose words the round 4 analysis reads (brace
// expansion, variables where options may stand, find's expression, sort's options).
func BenchmarkParseExpansions(b *testing.B) {
	const line = `d=src; for f in src/*.go; do sort -o "$f.s" "$f"; done; find "$d" -name "$x" -exec grep -l foo {} + ; cp x{,.bak}; git grep -e "$p" -- '*.go'`
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if shell.Parse(line).MatchesAll() {
			b.Fatal("matches all")
		}
	}
}

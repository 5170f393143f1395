package match

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Unknown destinations (red team round 57, findings 2 and 4, stop 32): a writer's operand
// built by a command substitution was split at its blanks (`cp x "$(ls -d ~/go/bin/* |
// tail -1)"` had the destination `-1)`), so the copy passed while the same path as a
// redirection target was blocked. An operand in a write position is one word now, and one
// whose value the line does not make known may be any path; a substitution whose output
// is confined, and a variable the line assigns a literal, are read as their value.
func TestUnknownDestinations32(t *testing.T) {
	t.Parallel()
	mktemp, git := !trustedTool("mktemp"), !trustedTool("git") // as root: any program may be replaced
	checkRound(t, []roundRow{
		// Blocked: each writer with a destination of unknown value.
		{"cp to $(ls … | tail)", "", `cp /tmp/evil "$(ls -d HOMEDIR/go/bin/* | tail -1)"`, true},
		{"cp to $(ls ~… | tail)", "", `cp /tmp/evil "$(ls -d ~/go/bin/* | tail -1)"`, true},
		{"cp /dev/null to the state's newest file", "", `cp /dev/null "$(ls -td ~/.h*/st*/s* | head -1)"`, true},
		{"cp to $(cat FILE)", "", `cp /tmp/evil $(cat /tmp/target)`, true},
		{"cp to `cat FILE`", "", "cp /tmp/evil `cat /tmp/target`", true},
		{"cp to an unknown variable", "", `cp /tmp/evil "$dest"`, true},
		{"mv to $(…)", "", `mv /tmp/evil "$(cat /tmp/t)"`, true},
		{"install to $(…)", "", `install -m 755 /tmp/evil "$(cat /tmp/t)"`, true},
		{"ln -sf to $(…)", "", `ln -sf /tmp/evil "$(cat /tmp/t)"`, true},
		{"tee $(…)", "", `tee "$(cat /tmp/t)" < /tmp/evil`, true},
		{"dd of=$(…)", "", `dd if=/tmp/evil of="$(cat /tmp/t)"`, true},
		{"rsync to $(…)", "", `rsync /tmp/evil "$(cat /tmp/t)"`, true},
		{"tar -C $(…)", "", `tar -xf /tmp/p.tar -C "$(cat /tmp/t)"`, true},
		{"unzip -d $(…)", "", `unzip -o /tmp/p.zip -d "$(cat /tmp/t)"`, true},
		{"truncate $(…)", "", `truncate -s0 "$(cat /tmp/t)"`, true},
		{"chmod $(…)", "", `chmod 000 "$(cat /tmp/t)"`, true},
		{"sed -i $(…)", "", `sed -i s/a/b/ "$(cat /tmp/t)"`, true},
		{"rm $(…)", "", `rm -f "$(cat /tmp/t)"`, true},
		{"a literal assigned the program", "", `d=HOMEDIR/go/bin/hookcore; cp /tmp/evil "$d"`, true},
		{"a literal assigned ~/…", "", `d=~/go/bin/hookcore && cp /tmp/evil "$d"`, true},
		{"assigned twice", "", `d=out/x; d=HOMEDIR/go/bin/hookcore; cp /tmp/evil "$d"`, true},
		{"assigned, then read", "", `d=out/x; read d < /tmp/t; cp /tmp/evil "$d"`, true},
		{"assigned after a command", "", `true; d=out/x; cp /tmp/evil "$d"`, true},
		{"$(pwd)/.. to the program", "", `cp /tmp/evil "$(pwd)/../go/bin/hookcore"`, true},
		{"$(pwd) of a function", "", `pwd() { echo HOMEDIR/go/bin/hookcore; }; cp /tmp/evil "$(pwd)"`, true},
		{"$(mktemp) with more after it", "", `cp /tmp/evil "$(mktemp -d)/../../HOMEDIR/go/bin/hookcore"`, true},
		{"$(mktemp -p DIR)", "", `cp /tmp/evil "$(mktemp -p HOMEDIR/go/bin)"`, true},
		{"$(mktemp) with PATH set", "", `PATH=/tmp/x:$PATH; cp /tmp/evil "$(mktemp)"`, true},
		{"toplevel/.claude/settings.json", "", `cp /tmp/evil "$(git rev-parse --show-toplevel)/.claude/settings.json"`, true},
		{"toplevel/etc (an entry of /)", "", `cp /tmp/evil "$(git rev-parse --show-toplevel)/etc/x"`, true},
		{"toplevel after a cd", "", `cd HOMEDIR && cp /tmp/evil "$(git rev-parse --show-toplevel)/build/x"`, true},

		// Allowed: the value is known and confined.
		{"a literal assigned at the start", "", `d=out/x; cp a "$d"`, false},
		{"a literal assigned, && and ${d}", "", `d=out/x && mkdir -p out && cp a "${d}"`, false},
		{"$(pwd)/out", "", `cp a "$(pwd)/out"`, false},
		{"cp to $(mktemp -d)", "", `cp x "$(mktemp -d)"`, mktemp},
		{"cp to $(mktemp)", "", `cp x "$(mktemp)"`, mktemp},
		{"tar -C $(mktemp -d)", "", `tar -xf a.tar -C "$(mktemp -d)"`, mktemp},
		{"toplevel/build/x", "", `cp a "$(git rev-parse --show-toplevel)/build/x"`, git},
		{"a printf's /tmp path", "", "cp x $(printf '/tmp/%s' out)", false},
	})
}

// Root's false positives (red team round 57, finding 11, stop 32): as root, /bin/sh (which
// the hooks run) had a hard link in ~/.debug, and with a program of more names than its
// paths every word with a brace, and every operand of ln, was taken for one of them; a
// leading assignment with a / was read as zsh's AUTO_CD to anywhere.
func TestRootFalsePositives32(t *testing.T) {
	t.Parallel()
	checkRoundIn(t, []roundRow{
		{"python3 -c print({})", "", `python3 -c "print({})"`, false},
		{"node -e console.log({})", "", `node -e 'console.log(JSON.stringify({}))'`, false},
		{"awk {print $1}", "", `awk '{print $1}' file.txt`, false},
		{"awk BEGIN{print 1}", "", `awk 'BEGIN{print 1}'`, false},
		{"ln -s README.md README2.md", "", `ln -s README.md README2.md`, false},
		{"PATH=./bin:$PATH make test", "", `PATH=./bin:$PATH make test`, false},
		{"X=a/b; chmod 000 . (no cd)", "", `X=a/b; chmod 000 x`, false},

		// Neighbours that stay blocked.
		{"find -exec cp {}", "", `find . -name '*.go' -exec cp /tmp/evil {} \;`, true},
		{"cp to the second name", "", `cp /tmp/evil ../second-name`, true},
		{"cp to a glob", "", `cp /tmp/evil ../*`, true},
		{"ln -s the program", "", `ln -s HOMEDIR/go/bin/hookcore x`, true},
		{"ln -s a relative target into the home", "", `ln -s go HOMEDIR/g`, true},
		{"ln -s after a cd", "", `cd HOMEDIR && ln -s go g`, true},
		{"ln -sf over the program", "", `ln -sf /tmp/evil HOMEDIR/go/bin/hookcore`, true},
		{"ln -s into a directory", "", `ln -s go .git`, true},
		{"ln -t DIR", "", `ln -s -t HOMEDIR go`, true},
		{"zsh AUTO_CD, then chmod .", "", `HOMEDIR/go/bin; chmod 000 .`, true},
	}, func(proj string) {
		// The program's second name, as /usr/bin/dash has in root's ~/.debug.
		if err := os.Link(filepath.Join(filepath.Dir(proj), "go", "bin", "hookcore"), filepath.Join(filepath.Dir(proj), "second-name")); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzOperandWords checks the splitting of a command's text into operands: no word is
// empty, and the words hold every byte of the text but the blanks between them, in order
// (a substitution is never cut).
func FuzzOperandWords(f *testing.F) {
	for _, s := range []string{"cp x $(ls -d ~/go/bin/* | tail -1)", "cp `a b` c", "x ${a b} $(", "$((1 + 2)) )", "a\t$(b\n c)"} {
		f.Add(s)
	}
	blankless := func(s string) string { return strings.NewReplacer(" ", "", "\t", "", "\n", "").Replace(s) }
	f.Fuzz(func(t *testing.T, text string) {
		words := splitOperands(text)
		if got, want := blankless(strings.Join(words, "")), blankless(text); got != want {
			t.Fatalf("splitOperands(%q) = %q: bytes %q, want %q", text, words, got, want)
		}
		for _, w := range words {
			if w == "" {
				t.Fatalf("splitOperands(%q) = %q: an empty word", text, words)
			}
		}
	})
}

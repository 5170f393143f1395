package match

import (
	"os"
	"path/filepath"
	"testing"
)

// Loops, xargs producers, tar -C "$(mktemp -d)" and docker compose (stop 33). A for loop's
// variable is judged over the loop's word list, each glob of it expanded as a glob operand
// is, a word of unknown value (a command substitution, a variable) leaving it unknown; a
// while-read variable is unknown. xargs given a producer's output (ls, cat FILE, echo,
// git ls-files) runs its command on names the line does not spell: a writer's destination
// is unknown, a reader's is not. A command substitution of mktemp where a program's
// suffix may start is mktemp's new name, no command. docker compose run -v is docker run
// -v.
func TestLoopsXargsCompose33(t *testing.T) {
	t.Parallel()
	mktemp := !trustedTool("mktemp") // as root: any program may be replaced
	checkRoundIn(t, []roundRow{
		// 1. A for loop's variable.
		{"for over a glob of .claude", "", `for f in .claude/*.json; do cp /tmp/evil "$f"; done`, true},
		{"for over a short glob of the home", "", `for f in ~/.c*/s*.json; do cp /tmp/evil "$f"; done`, true},
		{"for over $(ls -d ~/.claude/*)", "", `for f in $(ls -d ~/.claude/*); do cp x "$f"; done`, true},
		{"for over words, the last the settings", "", `for f in a b HOMEDIR/.claude/settings.json; do cp x "$f"; done`, true},
		{"for over words, rm", "", `for f in a HOMEDIR/.claude/settings.json; do rm -f "$f"; done`, true},
		{"for over words, a redirection", "", `for f in a HOMEDIR/.claude/settings.json; do echo x > "$f"; done`, true},
		{"for over words, sed -i", "", `for f in a HOMEDIR/.claude/settings.json; do sed -i s/a/b/ "$f"; done`, true},
		{"for over directories, a suffix", "", `for d in HOMEDIR/.claude HOMEDIR/.codex; do cp x "$d/settings.json"; done`, true},
		{"for over words, ${f}", "", `for f in HOMEDIR/.claude/settings.json; do cp x "${f}"; done`, true},
		{"for over a glob of the program's directory", "", `for f in HOMEDIR/go/b*/*; do cp /tmp/evil "$f"; done`, true},
		{"for over a variable", "", `for f in $FILES; do cp x "$f"; done`, true},
		{"for over a relative glob after a cd", "", `cd HOMEDIR && for f in .c*/s*.json; do cp x "$f"; done`, true},
		{"for over a relative glob after a cd not known", "", `cd "$D" && for f in *.go; do cp x "$f"; done`, true},
		{"for over a glob with dotglob", "", `shopt -s dotglob; for f in *; do cp x "$f"; done`, true},
		{"for over a glob, a link made first", "", `ln -s HOMEDIR/.claude/settings.json src/z.go; for f in src/*.go; do cp x "$f"; done`, true},
		{"for variable bound again in the body", "", `for f in a b; do f=HOMEDIR/.claude/settings.json; cp x "$f"; done`, true},
		{"for variable read in the body", "", `for f in a b; do read f; cp x "$f"; done`, true},
		{"for variable used before the loop", "", `cp x "$f"; for f in a b; do echo "$f"; done`, true},
		{"for variable with an operator", "", `for f in a b; do cp x "${f%.go}"; done`, true},
		{"while read", "", `while read f; do cp x "$f"; done < list`, true},
		{"cat | while read", "", `cat list | while read f; do rm "$f"; done`, true},

		// 2. xargs given a producer's output other than find that the line does not spell.
		{"ls .claude | xargs -I{} cp", "", `ls .claude | xargs -I{} cp x .claude/{}`, true},
		{"cat FILE | xargs cp", "", `cat list | xargs cp x`, true},
		{"git ls-files | xargs sed -i", "", `git ls-files | xargs sed -i s/a/b/`, true},
		{"xargs mv < list", "", `xargs -I{} mv {} /tmp/ < list`, true},
		{"printf of a substitution | xargs rm", "", `printf '%s\n' $(cat l) | xargs rm`, true},
		{"ls of a variable | xargs rm", "", `ls "$D" | xargs rm`, true},

		// 4. docker compose run -v, as docker run -v.
		{"docker compose run -v ~/.claude", "", `docker compose run -v ~/.claude:/x app true`, true},
		{"docker compose -f run --rm -v", "", `docker compose -f c.yml run --rm -v ~/.claude:/x app true`, true},
		{"docker compose run --volume=$HOME", "", `docker compose run --volume=$HOME/.claude:/x app true`, true},
		{"docker-compose run --volume", "", `docker-compose run --volume ~/.claude:/x app true`, true},
		{"docker compose run -v of the home", "", `docker compose run -v HOMEDIR:/h app true`, true},
		{"podman-compose run -v", "", `podman-compose run -v ~/.claude:/x app true`, true},

		// Allowed: the ordinary lines.
		{"for over src/*.go, cp into build/", "", `for f in src/*.go; do cp "$f" build/; done`, false},
		{"for over src/*.go, cp to build/$f.bak", "", `for f in src/*.go; do cp "$f" "build/$f.bak"; done`, false},
		{"for over words, cp to each", "", `for f in a b; do cp x "$f"; done`, false},
		{"for over src/*.go, sed -i each", "", `for f in src/*.go; do sed -i s/a/b/ "$f"; done`, false},
		{"for over src/*.go, rm each", "", `for f in src/*.go; do rm -f "$f"; done`, false},
		{"for over src/*.go, cp over each", "", `for f in src/*.go; do cp /tmp/hdr "$f"; done`, false},
		{"cd src, for over words, sed -i each", "", `cd src && for f in a.go b.go; do sed -i s/a/b/ "$f"; done`, false},
		{"for over two globs, chmod each", "", `for f in src/*.go build/*; do chmod 644 "$f"; done`, false},
		{"for over build dirs, a redirection", "", `for d in build/a build/b; do echo x > "$d.log"; done`, false},
		{"while read, echo", "", `while read f; do echo "$f"; done < list`, false},
		{"ls | xargs cat", "", `ls | xargs cat`, false},
		{"git ls-files | xargs grep", "", `git ls-files | xargs grep foo`, false},
		{"xargs wc -l < list", "", `xargs wc -l < list`, false},
		{"ls | xargs -n1 echo", "", `ls | xargs -n1 echo`, false},
		{"ls | xargs rm (no name splits)", "", `ls | xargs rm`, false},
		{"echo src/* | xargs rm -f (no name splits)", "", `echo src/* | xargs rm -f`, false},
		{"echo a | xargs tee (known words)", "", `echo a | xargs tee`, false},
		{"tar -C $(mktemp -d)", "", `tar -xf x.tar -C "$(mktemp -d)"`, mktemp},
		{"tar -C $(mktemp -d) first", "", `tar -C "$(mktemp -d)" -xzf x.tgz`, mktemp},
		{"docker compose run", "", `docker compose run --rm app go test ./...`, false},
		{"docker compose run -v ./src", "", `docker compose run -v ./src:/src app true`, false},
		{"docker compose run -v ~/.claude:ro", "", `docker compose run -v ~/.claude:/x:ro app true`, false},
	}, func(proj string) {
		if err := os.WriteFile(filepath.Join(proj, "src", "a.go"), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
}

// xargs's splitting of the names ls, echo or printf of a glob print (stop 33): in a
// project with a directory `x .claude` and a file `src/n<newline>.claude`, a writer given
// them by xargs's default splitting (or -I's lines) gets .claude; a reader, NUL-separated
// items and -I's lines of a name with only a blank do not count.
func TestXargsListed33(t *testing.T) {
	t.Parallel()
	checkRoundIn(t, []roundRow{
		{"ls | xargs rm", "", `ls | xargs rm`, true},
		{"ls | xargs rm -rf", "", `ls | xargs rm -rf`, true},
		{"ls -a | xargs chmod 000", "", `ls -a | xargs chmod 000`, true},
		{"ls src | xargs -I{} cp", "", `ls src | xargs -I{} cp x src/{}`, true},
		{"ls -R | xargs rm", "", `ls -R src | xargs rm`, true},
		{"echo * | xargs rm -rf", "", `echo * | xargs rm -rf`, true},
		{"printf of a glob | xargs -I{} cp", "", `printf '%s\n' src/* | xargs -I{} cp x {}`, true},
		{"ls ~ | xargs (a cd not known)", "", `cd "$D" && ls | xargs rm`, true},
		{"touch a name, then ls | xargs rm", "", `touch 'y .claude'; ls build | xargs rm`, true},

		{"ls | xargs cat", "", `ls | xargs cat`, false},
		{"ls | xargs wc -l", "", `ls | xargs wc -l`, false},
		{"ls | xargs -I{} (lines: the blank stays)", "", `ls | xargs -I{} touch build/{}.stamp`, false},
		{"ls build | xargs rm", "", `ls build | xargs rm`, false},
		{"echo src/*.go | xargs rm", "", `echo src/*.go | xargs rm`, false},
	}, func(proj string) {
		for _, d := range []string{"x .claude", "build"} {
			if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, f := range []string{"src/a.go", "src/n\n.claude", "build/a.o"} {
			if err := os.WriteFile(filepath.Join(proj, f), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// A for loop over a glob whose matches are links (stop 32's reading, through a loop's
// values, stop 33): `for f in src/*.go; do chmod 000 "$f"; done` with src/evil.go a link
// to the home's settings is judged as chmod 000 of each match, the link by its target.
func TestLoopLinks33(t *testing.T) {
	t.Parallel()
	checkRoundIn(t, []roundRow{
		{"for over src/*.go, chmod each", "", `for f in src/*.go; do chmod 000 "$f"; done`, true},
		{"for over src/*.go, cp over each", "", `for f in src/*.go; do cp /tmp/evil "$f"; done`, true},
		{"for over bin/*.go, tee each (the program)", "", `for f in bin/*.go; do tee "$f" < /tmp/evil; done`, true},
		{"for over scripts/*.sh, chmod +x each", "", `for f in scripts/*.sh; do chmod +x "$f"; done`, false},
	}, func(proj string) { linksTree(t, proj, true) })
}

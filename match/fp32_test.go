package match

import (
	"os"
	"path/filepath"
	"testing"
)

// Self-protect's false positives (stop 32): ordinary lines of a developer's agent that the
// stricter reading of red team rounds 54–56 blocked, each judged by the example's Bash
// conditions (checkRound), with the neighbouring attacks that stay blocked.
func TestChangesFalsePositives32(t *testing.T) {
	t.Parallel()
	checkRound(t, []roundRow{
		// 4. A line that starts with `cd /ABS &&` runs the rest there when no protected path
		// is at, under or above it, as `tar -xf x -C /ABS` is judged.
		{"cd /var/tmp && tar xf", "", "cd /var/tmp && tar xf x.tar", false},
		{"cd /var/tmp && unzip", "", "cd /var/tmp && unzip -o x.zip", false},
		{"cd a directory above the home (the test home is in /tmp)", "", "cd /tmp && unzip -o x.zip", true},
		{"tar -C /var/tmp", "", "tar xf x.tar -C /var/tmp", false},
		{"cd HOME && tar xf", "", "cd HOMEDIR && tar xf x.tar", true},
		{"cd the project && tar xf", "", "cd HOMEDIR/proj && tar xf x.tar", true},
		{"cd ~/.claude && tar xf", "", "cd HOMEDIR/.claude && tar xf x.tar", true},
		{"cd / && tar xf", "", "cd / && tar xf x.tar", true},
		{"cd /var/tmp; tar xf (no &&)", "", "cd /var/tmp; tar xf x.tar", true},
		{"cd /var/tmp && cd back && tar", "", "cd /var/tmp && cd - && tar xf x.tar", true},
		{"cd /var/tmp/.. && tar xf", "", "cd /var/tmp/../.. && tar xf x.tar", true},
		{"cd a link to .claude by its absolute path", "", "cd HOMEDIR/proj/lnk && tar xf x.tar", true},
		{"cd /var/tmp && cp into the project", "", "cd /var/tmp && cp x HOMEDIR/proj/.claude/settings.json", true},

		// 5. A relative cd that is not the line's first command searches CDPATH only when
		// the hook's environment or the line may set it (or a variable of its name with
		// cdable_vars): else its git runs in the project's subdirectory.
		{"make && cd docs && git checkout", "", "make && cd docs && git checkout main -- .", false},
		{"git diff .github && cd docs && git checkout", "", "git diff .github && cd docs && git checkout main -- .", false},
		{"git add .github && cd src && git restore", "", "git add .github/workflows && cd src && git restore .", false},
		{"CDPATH on the line", "", "export CDPATH=HOMEDIR/..; git diff .github && cd x && git checkout evil -- .", true},
		{"cdable_vars on the line", "", "shopt -s cdable_vars; x=HOMEDIR; git diff .github && cd x && git checkout evil -- .", true},
		{"make && cd .. && git checkout", "", "make && cd .. && git checkout evil -- .", true},
		{"make && cd ~ && git checkout", "", "make && cd ~ && git checkout evil -- .", true},
		{"make && cd docs/../.. && git checkout", "", "make && cd docs/../.. && git checkout evil -- .", true},

		// 1. xargs fed by git ls-files whose pathspecs bound the last name (*.go), when every
		// item is a whole path (-z with -0; a line each) and the command replaces or removes
		// a link rather than writing through it.
		{"git ls-files -z *.go | xargs -0 sed -i", "", `git ls-files -z '*.go' | xargs -0 sed -i 's/a/b/'`, false},
		{"git ls-files *.go | xargs -I{} sed -i", "", `git ls-files '*.go' | xargs -I{} sed -i 's/a/b/' {}`, false},
		{"git ls-files *.go | xargs -d '\n' rm -f", "", `git ls-files '*.go' | xargs -d '\n' rm -f`, false},
		{"git ls-files -z -- src/*_test.go | xargs -0 rm -f", "", `git ls-files -z -- 'src/*_test.go' | xargs -0 rm -f`, false},
		{"git ls-files | grep -v | xargs -I{}", "", `git ls-files '*.go' | grep -v vendor | sort | xargs -I{} sed -i s/a/b/ {}`, false},
		{"git ls-files | parallel sed -i", "", `git ls-files '*.py' '*.pyi' | parallel sed -i s/a/b/`, false},
		{"git ls-files -z *.go | xargs -0 wc -l", "", `git ls-files -z '*.go' | xargs -0 wc -l`, false},
		{"git ls-files *.go | xargs sed -i (items split at blanks)", "", `git ls-files '*.go' | xargs sed -i 's/a/b/'`, true},
		{"git ls-files -z *.go | xargs sed -i (-z without -0)", "", `git ls-files -z '*.go' | xargs sed -i 's/a/b/'`, true},
		{"git ls-files *.go | xargs -0 rm (-0 without -z)", "", `git ls-files '*.go' | xargs -0 rm`, true},
		{"git ls-files | xargs sed -i", "", `git ls-files | xargs sed -i 's/a/b/'`, true},
		{"git ls-files -z | xargs -0 sed -i", "", `git ls-files -z | xargs -0 sed -i 's/a/b/'`, true},
		{"git ls-files -z *.json | xargs -0 sed -i", "", `git ls-files -z '*.json' | xargs -0 sed -i 's/a/b/'`, true},
		{"git ls-files -z *settings.json | xargs -0 rm", "", `git ls-files -z '*settings.json' | xargs -0 rm -f`, true},
		{"git ls-files -z *.JSON (any case)", "", `git ls-files -z '*.JSON' | xargs -0 rm -f`, true},
		{"git ls-files -z DIR (a literal pathspec)", "", `git ls-files -z .claude | xargs -0 rm -f`, true},
		{"git ls-files -z * | xargs -0 rm", "", `git ls-files -z '*' | xargs -0 rm -f`, true},
		{"git ls-files -z *.go* | xargs -0 rm", "", `git ls-files -z '*.go*' | xargs -0 rm -f`, true},
		{"git ls-files -z *.[gj]s* | xargs -0 rm", "", `git ls-files -z '*.js[o]n' | xargs -0 rm -f`, true},
		{"git ls-files -z *.{go,json} (braces)", "", `git ls-files -z '*'.{go,json} | xargs -0 rm -f`, true},
		{"git ls-files -z *.go *.json", "", `git ls-files -z '*.go' '*.json' | xargs -0 rm -f`, true},
		{"git ls-files -z :(icase) magic", "", `git ls-files -z ':(icase)*.json' | xargs -0 rm -f`, true},
		{"git ls-files --format", "", `git ls-files -z --format='%(path)' '*.go' | xargs -0 rm -f`, true},
		{"git -C DIR ls-files", "", `git -C .. ls-files -z '*.json' | xargs -0 rm -f`, true},
		{"git ls-files | tr ' ' '\n' | xargs -I{}", "", `git ls-files '*.go' | tr ' ' '\n' | xargs -I{} rm -f {}`, true},
		{"git ls-files | cut | xargs -I{}", "", `git ls-files '*.go' | cut -d' ' -f2 | xargs -I{} rm -f {}`, true},
		{"git ls-files | grep -o | xargs -I{}", "", `git ls-files '*.go' | grep -o '[^ ]*' | xargs -I{} rm -f {}`, true},
		{"git ls-files | head -c | xargs -I{}", "", `git ls-files '*.go' | head -c 21 | xargs -I{} rm -f {}`, true},
		{"git ls-files | xargs cp through a link", "", `git ls-files -z '*.go' | xargs -0 -I{} cp /tmp/evil {}`, true},
		{"git ls-files | xargs chmod (follows a link)", "", `git ls-files -z '*.go' | xargs -0 chmod 000`, true},
		{"git ls-files | xargs sed --follow-symlinks", "", `git ls-files -z '*.go' | xargs -0 sed -i --follow-symlinks s/a/b/`, true},
		{"cat files.txt | xargs rm -f", "", "cat files.txt | xargs rm -f", true},
		{"cat files.txt | xargs -0 rm -f", "", "cat files.txt | xargs -0 rm -f", true},
		{"xargs -a files.txt rm -f", "", "xargs -a files.txt rm -f", true},
		{"xargs rm -f < files.txt", "", "xargs rm -f < files.txt", true},
		{"git ls-files and a second producer", "", `{ git ls-files -z '*.go'; cat list; } | xargs -0 rm -f`, true},

		// Found on the way: a filter that prints parts of its lines gives xargs names no
		// word of the line is (before: the echo's word was judged, cut's output was not).
		{"echo | cut | xargs rm -rf", "", "echo x:HOMEDIR/go/bin | cut -d: -f2 | xargs rm -rf", true},
		{"echo | rev | xargs rm -rf", "", "echo nib/og/RIDEMOH | rev | xargs rm -rf", true},
		{"echo | grep -o | xargs rm -rf", "", "echo xHOMEDIR/go/bin | grep -o '/.*' | xargs rm -rf", true},
		{"echo | head -c | xargs rm -rf", "", "echo HOMEDIR/go/binx | head -c -2 | xargs rm -rf", true},
		{"find | grep -v | xargs rm", "", "find . -name '*.pyc' | grep -v venv | xargs rm -f", false},

		// 3. make install with DESTDIR=DIR on its command line installs under DIR.
		{"make install DESTDIR=/tmp/stage", "", "make install DESTDIR=/tmp/stage", false},
		{"make DESTDIR= install-strip PREFIX=", "", "make DESTDIR=/var/tmp/stage install-strip PREFIX=/usr", false},
		{"DESTDIR= ninja install", "", "DESTDIR=/tmp/stage ninja install", false},
		{"make install", "", "make install", true},
		{"make install DESTDIR=~", "", "make install DESTDIR=~", true},
		{"make install DESTDIR=~/go", "", "make install DESTDIR=~/go", true},
		{"make install DESTDIR=/", "", "make install DESTDIR=/", true},
		{"make install DESTDIR= (empty)", "", "make install DESTDIR=", true},
		{"make install DESTDIR=stage (relative)", "", "make install DESTDIR=stage", true},
		{"make install DESTDIR=$D", "", "make install DESTDIR=$D", true},
		{"make install DESTDIR=/tmp DESTDIR=HOME (the last wins)", "", "make install DESTDIR=/var/tmp DESTDIR=HOMEDIR", true},
		{"DESTDIR= make install (the Makefile may assign it)", "", "DESTDIR=/tmp/stage make install", true},
		{"make install with DESTDIR above the home", "", "make install DESTDIR=/tmp", true},

		// 6. tmux's own -c is a shell command run here, not a start directory.
		{"tmux -c ls", "", "tmux -c ls", false},
		{`tmux -c "make test"`, "", `tmux -c "make test"`, false},
		{"tmux -c rm -rf the program", "", `tmux -c "rm -rf ~/go/bin"`, true},
		{"tmux -c cd && mv", "", `tmux -c "cd ~/go && mv bin x"`, true},
		{"tmux -L x new -c DIR", "", `tmux -L x new -d -c ~/go "mv bin x"`, true},
		{"tmux -u new -c DIR", "", `tmux -u new -c ~/go "mv bin x"`, true},
	})
}

// TestGoInstallLocal32: `go install ./cmd/tool` names its program after the directory
// (stop 32), in a project whose cmd holds tool, other, hookcore (the program's name), v2,
// mod (a module root) and lnk (a link to tool).
func TestGoInstallLocal32(t *testing.T) {
	t.Parallel()
	checkRoundIn(t, []roundRow{
		// 2. go install of a local package directory: the program is named after the
		// directory, unless the directory is a module root (its go.mod names it).
		{"go install ./cmd/tool", "", "go install ./cmd/tool", false},
		{"go install -v ./cmd/tool ./cmd/other", "", "go install -v ./cmd/tool ./cmd/other", false},
		{"go test && go install ./cmd/tool", "", "go test ./... && go install ./cmd/tool", false},
		{"go install ./cmd/hookcore", "", "go install ./cmd/hookcore", true},
		{"go install ./cmd/mod (a module root: go.mod names it)", "", "go install ./cmd/mod", true},
		{"go install ./cmd/v2", "", "go install ./cmd/v2", true},
		{"go install .", "", "go install .", true},
		{"go install ./...", "", "go install ./...", true},
		{"go install ./cmd/absent", "", "go install ./cmd/absent", true},
		{"go install ./cmd/lnk (a link)", "", "go install ./cmd/lnk", true},
		{"cp a go.mod in, then go install", "", "cp -r /tmp/x/. cmd/tool && go install ./cmd/tool", true},
		{"go -C then go install", "", "go -C cmd/tool mod init x/hookcore && go install ./cmd/tool", true},
		{"cd cmd && go install (leadingCd)", "", "cd cmd && go install ./tool", false},
		{"cd cmd && go install a module root", "", "cd cmd && go install ./mod", true},
		{"a cd not first, then go install", "", "ls; cd cmd; go install ./tool", true},
		{"go -C DIR install", "", "go -C cmd install ./tool", true},
		{"go install $P", "", "go install ./cmd/$P", true},
	}, func(proj string) {
		for _, d := range []string{"tool", "other", "hookcore", "v2", "mod"} {
			if err := os.MkdirAll(filepath.Join(proj, "cmd", d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(proj, "cmd", "mod", "go.mod"), []byte("module example.com/hookcore\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("tool", filepath.Join(proj, "cmd", "lnk")); err != nil {
			t.Fatal(err)
		}
	})
}

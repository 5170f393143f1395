package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// linksTree fills the project proj with the files of the rows below: src/a.go and
// scripts/run.sh, regular; with hostile set, what a hostile repository may ship: src/evil.go
// a symbolic link to the home's .claude/settings.json, bin/hc.go one to the hook program,
// and the files `x .claude/settings.json y.pyc` and `n\n.claude/settings.json\nz.pyc`
// (directories with a blank and a newline in their names), which find prints as one line
// (two) and xargs's splitting turns into three names, .claude/settings.json the project's.
func linksTree(t *testing.T, proj string, hostile bool) {
	t.Helper()
	home := filepath.Dir(proj)
	for _, d := range []string{"src", "scripts", "bin", "pkg"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"src/a.go", "scripts/run.sh", "pkg/a.pyc", "src/b.o"} {
		if err := os.WriteFile(filepath.Join(proj, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(proj, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../pkg/a.pyc", filepath.Join(proj, "node_modules", ".bin", "tool")); err != nil {
		t.Fatal(err) // a link within the project, as npm makes them
	}
	if !hostile {
		return
	}
	links := map[string]string{
		"src/evil.go": filepath.Join(home, ".claude", "settings.json"),
		"bin/hc.go":   filepath.Join(home, "go", "bin", "hookcore"),
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(proj, l)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"x .claude/settings.json y.pyc", "n\n.claude/settings.json\nz.pyc"} {
		if err := os.MkdirAll(filepath.Join(proj, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Symbolic links behind a glob or a find, and xargs's default splitting of find's output
// (stop 32, the "Left" list of the false positives' decision): a link-following writer
// given a glob or find's matches writes a link's target, and a hostile name with a blank
// gives xargs's command another name. Each judged by the example's Bash conditions
// (checkRound) in a project a hostile repository may be (linksTree).
func TestLinksHostile32(t *testing.T) {
	t.Parallel()
	checkRoundIn(t, []roundRow{
		// 1. A glob in a write position: its matches that are links are judged by their
		// targets, for a command that follows a link.
		{"chmod 000 src/*.go", "", "chmod 000 src/*.go", true},
		{"chmod 000 src/*", "", "chmod 000 src/*", true},
		{"chmod 000 *.go in src", "src", "chmod 000 *.go", true},
		{"chmod 000 bin/*.go (the program)", "", "chmod 000 bin/*.go", true},
		{"cp /tmp/evil src/e*.go", "", "cp /tmp/evil src/e*.go", true},
		{"install /tmp/evil src/e*.go", "", "install /tmp/evil src/e*.go", true},
		{"tee src/*.go", "", "tee src/*.go < /tmp/evil", true},
		{"dd of=src/e*.go (bash globs the whole word: no match)", "", "dd if=/tmp/evil of=src/e*.go", false},
		{"truncate -s0 src/*.go", "", "truncate -s 0 src/*.go", true},
		{"redirection > src/e*.go", "", "cat /tmp/evil > src/e*.go", true},
		{"redirection >> src/e?il.go", "", "echo x >> src/e?il.go", true},
		{"sed --follow-symlinks -i", "", "sed --follow-symlinks -i s/a/b/ src/*.go", true},
		{"cd src && chmod 000 *.go", "", "cd src && chmod 000 *.go", true},
		{"bash -c 'chmod 000 src/*.go'", "", "bash -c 'chmod 000 src/*.go'", true},
		{"eval 'chmod 000 src/*.go'", "", "eval 'chmod 000 src/*.go'", true},
		{"chmod 000 src/[e]vil.go", "", "chmod 000 src/[e]vil.go", true},
		// 1'. find's matches that are links, for a command that follows one.
		{"find | xargs -I{} cp", "", "find . -name '*.go' | xargs -I{} cp /tmp/evil {}", true},
		{"find -exec cp {} ;", "", `find . -name '*.go' -exec cp /tmp/evil {} \;`, true},
		{"find src -exec chmod {} +", "", "find src -name '*.go' -exec chmod 000 {} +", true},
		{"ls | xargs chmod in src", "src", "ls | xargs chmod 000", true},
		{"ls src | xargs -I{} cp", "", "ls src/ | xargs -I{} cp /tmp/evil src/{}", true},
		{"echo src/*.go | xargs chmod", "", "echo src/*.go | xargs chmod 000", true},
		{"chmod 000 HOME-absolute glob", "", "chmod 000 HOMEDIR/proj/src/*.go", true},
		{"find -maxdepth 1 . misses src", "", "find . -maxdepth 1 -name '*.go' -exec chmod 000 {} +", false},
		{"find -type f -exec chmod (no link acted on)", "", "find src -type f -exec chmod 000 {} +", false},
		{"find -type l -exec chmod", "", "find . -type l -exec chmod 000 {} +", true},
		{"find | xargs -0 chmod", "", "find . -name '*.go' -print0 | xargs -0 chmod 000", true},
		// 2. xargs's default splitting of find's output.
		{"find *.pyc | xargs rm", "", "find . -name '*.pyc' | xargs rm", true},
		{"find *.pyc | xargs rm -f", "", "find . -name '*.pyc' | xargs rm -f", true},
		{"find *.pyc | xargs -I{} rm {} (a newline)", "", "find . -name '*.pyc' | xargs -I{} rm {}", true},

		// The neighbours that stay allowed: a command that replaces or removes a link, a
		// glob with no link among its matches, NUL-separated items.
		{"rm src/*.go", "", "rm -f src/*.go", false},
		{"sed -i src/*.go", "", "sed -i s/a/b/ src/*.go", false},
		{"chmod +x scripts/*.sh", "", "chmod +x scripts/*.sh", false},
		{"cp into scripts/*.sh", "", "cp /tmp/x scripts/r*.sh", false},
		{"find -name *.pyc -delete", "", "find . -name '*.pyc' -delete", false},
		{"find -name *.go -exec rm", "", "find . -name '*.go' -exec rm {} +", false},
		{"find *.pyc -print0 | xargs -0 rm", "", "find . -name '*.pyc' -print0 | xargs -0 rm", false},
		{"find scripts | xargs chmod", "", "find scripts -name '*.sh' | xargs chmod +x", false},
	}, func(proj string) { linksTree(t, proj, true) })
}

// The everyday forms in a repository with no such link or name, and the lines that make
// one before the command the walk reads: the file system the hook sees does not hold it
// yet.
func TestLinksEveryday32(t *testing.T) {
	t.Parallel()
	checkRoundIn(t, []roundRow{
		{"chmod +x scripts/*.sh", "", "chmod +x scripts/*.sh", false},
		{"chmod 000 src/*.go", "", "chmod 000 src/*.go", false},
		{"chmod +x node_modules/.bin/* (links within the project)", "", "chmod +x node_modules/.bin/*", false},
		{"cp -L node_modules/.bin/* dist/", "", "cp -L node_modules/.bin/* dist/", false},
		{"rm src/*.o", "", "rm src/*.o", false},
		{"cp into src/*.go", "", "cp /tmp/hdr src/a*.go", false},
		{"find -name *.pyc -delete", "", "find . -name '*.pyc' -delete", false},
		{"find *.pyc | xargs rm", "", "find . -name '*.pyc' | xargs rm", false},
		{"find *.pyc | xargs rm -f", "", "find . -name '*.pyc' | xargs rm -f", false},
		{"find *.go | xargs -I{} cp", "", "find . -name '*.go' | xargs -I{} cp /tmp/hdr {}", false},
		{"find -exec chmod", "", "find scripts -name '*.sh' -exec chmod +x {} +", false},
		{"grep -r && chmod +x scripts/*.sh (a reader first)", "", "grep -r x . && chmod +x scripts/*.sh", false},
		{"go test && chmod (the project's own code first)", "", "go test ./... && chmod +x scripts/*.sh", false},
		{"npm test | tail && chmod", "", "npm test 2>&1 | tail -20 && chmod +x scripts/*.sh", false},
		{"gofmt -w src/*.go && go build", "", "gofmt -w src/*.go && go build ./...", false},
		{"cd src && find | xargs rm -f", "", "cd src && find . -name '*.o' | xargs rm -f", false},
		{"touch src/*.go", "", "touch src/*.go", false},
		{"a word that is no valid glob", "", "python3 -c 'print(a[0])' > 'out[.txt'", false},
		{"cp -r scripts/* out/", "", "mkdir -p out && cp -r scripts/* out/", false},
		{"python3 -c symlink && chmod", "", "python3 -c 'import os; os.symlink(os.environ[\"T\"], \"src/x.go\")' && chmod 000 src/*.go", true},
		{"a quoted glob is no glob (python3 -c, then a form)", "", "python3 -c 'print(a[0])' > out.txt; chmod 000 src/*.go", true},
		{"a quoted glob is no glob (no form)", "", "python3 gen.py && cp /tmp/x 'src/[a].go'", false},
		{"sh -c 'ln -s; chmod src/*.go'", "", "sh -c 'ln -s /tmp/l src/x.go; chmod 000 src/*.go'", true},
		{"objcopy of a glob (package shell's tails of its words)", "", "objcopy -O binary src/*.go", false},
		{"a glob with a variable", "", "chmod 000 $D/*.go", true},
		{"a glob after a cd of a variable", "", "cd $D && chmod 000 *.go", true},

		{"mkdir -p out && chmod +x scripts/*.sh", "", "mkdir -p out && chmod +x scripts/*.sh", false},
		{"a redirection of a plain name; find | xargs rm", "", "echo x > y; find . -name '*.pyc' | xargs rm", false},
		{"cp -P && chmod src/*.go", "", "cp -P /tmp/l src/x.go && chmod 000 src/*.go", true},
		{"git checkout && chmod src/*.go", "", "git checkout evil -- src && chmod 000 src/*.go", true},
		{"chmod src/*.go; ln -s (a later command, read as any place)", "", "chmod 000 src/*.go; ln -s /tmp/l src/x.go", true},
		{"git checkout; find | xargs -I{} cp", "", "git checkout evil -- src; find . -name '*.go' | xargs -I{} cp /tmp/evil {}", true},
		{"ln -s && chmod src/*.go", "", "ln -s HOMEDIR/.claude/settings.json src/x.go && chmod 000 src/*.go", true},
		{"ln -s; find | xargs cp", "", "ln -s HOMEDIR/.claude/settings.json src/x.go; find . -name '*.go' | xargs -I{} cp /tmp/evil {}", true},
		{"touch a hostile name; find | xargs rm", "", "touch 'x .claude/settings.json y.pyc'; find . -name '*.pyc' | xargs rm", true},
		{"tar xf; chmod src/*", "", "tar xf /tmp/x.tar; chmod 000 src/*", true},
		{"an unknown program; chmod", "", "./setup.sh && chmod 000 src/*.go", true},
		{"a redirection of a hostile name; find | xargs rm", "", "echo x > 'x .claude/settings.json y.pyc'; find . -name '*.pyc' | xargs rm", true},
	}, func(proj string) { linksTree(t, proj, false) })
}

// BenchmarkLinkLines measures linkLines' reading of a repository-sized tree (5 000 files
// in 50 directories): a find fed to xargs's default splitting walks all of it, a glob reads
// one directory.
func BenchmarkLinkLines(b *testing.B) {
	proj := b.TempDir()
	for d := range 50 {
		dir := filepath.Join(proj, "pkg"+strconv.Itoa(d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(dir, "f"+strconv.Itoa(f)+".go"), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, bc := range []struct{ name, cmd string }{
		{"find|xargs rm", "find . -name '*.pyc' | xargs rm"},
		{"find -exec chmod", "find . -name '*.go' -exec chmod 644 {} +"},
		{"chmod pkg7/*.go", "chmod 644 pkg7/*.go"},
		{"rm pkg7/*.go (not read)", "rm pkg7/*.go"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			args, _ := json.Marshal(map[string]string{"command": bc.cmd})
			for b.Loop() {
				s := NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj)
				if _, hold := s.linkLines(bc.cmd, s.bashCommands()); hold {
					b.Fatal("hold")
				}
			}
		})
	}
}

// BenchmarkLinkedGlob measures the example's two program and config clauses on `chmod +x
// node_modules/.bin/*` with 300 links to the project's own files (an npm tree): every
// match is judged by its target.
func BenchmarkLinkedGlob(b *testing.B) {
	home, config := configHome(b)
	proj := filepath.Join(home, "proj")
	bin := filepath.Join(proj, "node_modules", ".bin")
	for _, d := range []string{bin, filepath.Join(proj, "node_modules", "pkg")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 300 {
		f := filepath.Join(proj, "node_modules", "pkg", "t"+strconv.Itoa(i)+".js")
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(f, filepath.Join(bin, "t"+strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
	}
	f, err := CompileIf(`args.command changes hook_program || args.command changes hook_config`)
	if err != nil {
		b.Fatal(err)
	}
	prog := filepath.Join(home, "go", "bin", "hookcore")
	args, _ := json.Marshal(map[string]string{"command": "chmod +x node_modules/.bin/*"})
	for b.Loop() {
		s := NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj).WithHome(home).WithHookConfig(config).WithProgram([]string{prog})
		if f.Match(s) {
			b.Fatal("held")
		}
	}
}

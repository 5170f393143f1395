package shell_test

import "testing"

// TestBashRedTeam7SubstHdoc: red team round 7, finding 1 — inside $(...), <(...) or
// backquotes bash 5.2 ends a here-document's body at a line that starts with the
// delimiter ("EOF)") and closes the substitution, so the lines after it run as commands,
// where mvdan.cc/sh reads them as body text (docs/decisions.md, "Red team round 7:
// substitution here-docs, make prefixes"). The exact lines first; each passed Bash(rm *).
func TestBashRedTeam7SubstHdoc(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"$( EOF)", "x=$(cat <<EOF\nEOF)\nrm -rf dir\n: <<EOF\nEOF\n)", "all"},
		{"<( EOF)", "cat <(cat <<EOF\nEOF)\nrm -rf dir\n: <<EOF\nEOF\n)", "all"},
		{"quoted delimiter", "x=$(cat <<'EOF'\nEOF)\nrm -rf dir\n: <<EOF\nEOF\n)", "all"},
		{"body then EOF)", "x=$(cat <<EOF\nhi\nEOF)\nrm -rf dir\nEOF\n)", "all"},
		{"<<- tab EOF)", "x=$(cat <<-EOF\n\tEOF)\nrm -rf dir\n: <<EOF\nEOF\n)", "all"},
		{"backquotes", "x=`cat <<EOF\nEOF)\nrm -rf dir\nEOF\n`", "all"},
		// Near misses: a body that ends at its own line, and EOF) outside a substitution.
		{"normal", "x=$(cat <<EOF\nhi\nEOF\n)", "none"},
		{"normal <(", "cat <(cat <<EOF\nhi\nEOF\n)", "none"},
		{"EOF) at top level", "cat <<EOF\nEOF)\nrm -rf dir\nEOF", "none"},
	})
}

// TestBashRedTeam7MakePrefix: red team round 7, finding 2 — a text read as code on a
// guess is cut into commands, and make removes a recipe line's leading '@', '-' and '+'
// before the shell runs it, so "@rm" hid rm. The exact lines first.
func TestBashRedTeam7MakePrefix(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"make --eval @rm", `make --eval='all:;@rm -rf dir'`, "rm"},
		{"@-+rm", `make --eval='all:;@-+rm -rf dir'`, "rm"},
		{"@@rm", `make --eval='all:;@@rm -rf dir'`, "rm"},
		{"-rm", `make --eval='all:;-rm -rf dir'`, "rm"},
		{"+rm", `make --eval='all:;+rm -rf dir'`, "rm"},
		{"@ rm", `make --eval='all:;@ rm -rf dir'`, "rm"},
		{"unparsed @rm", `make --eval="x': ;@rm -rf dir"`, "rm"},
		{"recipe on stdin", "make -f - <<'EOF'\nall:\n\t@rm -rf dir\nEOF", "rm"},
		{"value", `x='all:;@rm -rf dir'`, "rm"},
		// Near misses.
		{"make -j4", `make -j4 test`, "none"},
		{"make --eval x:=1", `make --eval='x:=1'`, "none"},
		{"@echo", `make --eval='all:;@echo hi'`, "none"},
	})
}

// TestBashProgramFromStdin (red team round 35): Codex runs a command with a terminal and
// feeds it through write_stdin, which fires no hook; python3 started so, then fed
// os.system('rm -rf …'), passed every deny rule, while a bare shell matched all of them. A
// program that reads a program or a shell's commands from a stdin the line does not spell
// matches every deny rule too.
func TestBashProgramFromStdin(t *testing.T) {
	t.Parallel()
	var tests []denyCase
	for _, line := range []string{
		`python3`, `python3 -`, `python3 -i`, `python3.12 -u`, `node`, `nodejs -i`, `perl`,
		`ruby`, `irb`, `php -a`, `lua5.4`, `tclsh`, `R --vanilla`, `deno`, `deno repl`,
		`tmux`, `tmux new -s x`, `screen`, `fish`,
		`tcsh`, `cat s | python3`,
		// Red team round 36: a REPL or debugger module, a stdin operand, interactive flags,
		// value options, more REPLs, files read from stdin, shells behind an address.
		`python3 -m code`, `python3 -m pdb s.py`, `python3 -m asyncio`, `python3 -i s.py`,
		`python3 /dev/stdin`, `python3 /dev/fd/0`, `python3 -W ignore`, `python3 -X dev`,
		`node /dev/stdin`, `node -i s.js`, `node inspect s.js`, `perl -d -e 0`, `perl -d s.pl`,
		`perl /dev/stdin`, `ruby /dev/stdin`, `Rscript /dev/stdin`, `pry`, `ipython`,
		`ipython3`, `bpython`, `ptpython`, `python3-dbg`, `osh`, `ysh`, `jjs`, `make -f -`,
		`make -f /dev/stdin`, `at now`, `batch`, `crontab -`, `socat - EXEC:sh`,
		`systemd-run --pty bash`,
		// Red team round 37: combined flags, -mMOD, other paths to the terminal, a word of
		// unknown value, ed and dc.
		`python3 -ui /dev/null`, `python3 -Ei /dev/null`, `python3 -mpdb /dev/null`,
		`python3 -masyncio`, `python3 /dev/tty`, `python3 /dev/stdout`, `python3 /dev/fd/1`,
		`python3 /dev//stdin`, `python3 //dev/stdin`, `python3 /dev/./stdin`,
		`python3 /proc/self/fd/0`, `node /dev/tty`, `ruby /dev/tty`, `python3 $X`, `node $X`,
		`perl $X`, `perl -wd /dev/null`, `ipython -i /dev/null`, `ed`, `ed f`, `dc`,
		// Red team round 38: an option that exits, after the script, is the script's; a
		// value option before -m; relative and glued spellings; crontab -u.
		`python3 -i x.py --version`, `python3 -i x.py -h`, `python3 -m pdb x.py --help`,
		`perl -d x.pl -v`, `node inspect x.js --help`, `python3 -X dev -m code`,
		`python3 -W ignore -m pdb x.py`, `python3 ../../../../../../../../dev/stdin`,
		`make --file=-`, `make -f-`, `make -f/dev/stdin`, `make --makefile=/dev/stdin`,
		`crontab -u root -`, `python3 -m _pyrepl`, `tmux new -d -s dev`,
		// Red team round 43 (with the real Codex): a shell, `.` or `source` given the
		// terminal or a standard stream as its script, however spelled, and a sed or awk
		// program file there.
		`bash /dev/tty`, `. /dev/tty`, `source /dev/tty`, `bash /dev/pts/0`, `bash //dev/tty`,
		`bash /dev/./tty`, `bash /dev/stdout`, `bash /dev/stderr`, `zsh /dev/tty`,
		`sh ../../../../../../dev/tty`, `awk -f /dev/tty`, `sed -f /dev/tty x`,
		`gawk -f /dev/pts/1 x`, `sed --file=/dev/tty x`,
	} {
		tests = append(tests, denyCase{line, line, "all"})
	}
	runDenyCases(t, tests)
	// A program given on the line is analysed as before.
	var near []denyCase
	for _, line := range []string{
		`python3 script.py`, `cat x | python3 script.py`, `python3 -m pytest`, `node app.js`,
		`perl -e 'print 1'`, `tmux ls`, `deno run x.ts`, `R -f x.R`, `make`, `make test`,
		`make -f build.mk all`, `at -l`, `crontab -l`, `python3 -m pytest -x`, `python3 -u app.py`,
		`bash script.sh`, `source venv/bin/activate`, `. ./env.sh`, `awk -f prog.awk data`,
		`sed -f script.sed f`,
		`node --require ./setup.js app.js`, `socat TCP:h:1 -`,
		// Red team round 37: version, help and test runs read no program.
		`python3 --version`, `python3 -V`, `python3 -h`, `node --version`, `node -v`,
		`node --help`, `node --test`, `perl -v`, `ruby -v`, `ruby --version`, `php -v`,
		`lua -v`, `deno --version`, `bun -v`,
		`R --version`, `Rscript --version`, `julia --version`, `tmux -V`, `screen -v`,
		`python3 -m pip install x`, `python3 -m venv .venv`, `python3 -OO -m compileall .`,
		`node --check app.js`, `ruby -c x.rb`, `perl -c x.pl`, `php -l x.php`,
		// Red team round 38: false positives of rounds 36 and 37.
		`python3 "$HOME/scripts/gen.py"`, `python3 "$(git rev-parse --show-toplevel)/scripts/check.py"`,
		`node "$(npm root)/x/bin/cli.js"`, `python3 tests/*.py`, `perl -pe "s/$OLD/$NEW/g" file.txt`,
		`ruby -e "puts '$X'"`, `php -r "echo '$X';"`,
		`python3 -m pip install -i https://pypi.org/simple requests`, `python3 setup.py build_ext -i`,
		`python3 script.py -i input.csv`, `python3 train.py -vi`, `node app.js -i src`,
		`node build.js --interactive`, `perl script.pl -d out`, `perl -i.old -pe 's/a/b/' f.txt`,
		`perl -pi.old -e 's/a/b/' f`, `perl -F'\d+' -lane 'print' f`, `perl -d:NYTProf script.pl`,
		`perl -V:archname`, `python3 -mpytest`, `python -munittest`, `python3 -mjson.tool`,
		`php -m`, `php -i`, `php --ini`, `python3 -VV`, `python3 --help-all`, `node --v8-options`,
		`deno -V`, `julia -v`, `irb -v`, `expect -v`, `dc -V`, `at -V`, `bun --revision`,
		`screen -ls`, `screen -list`, `tmux split-window -h`, `tmux split-window -l 10`,
		`tmux send-keys -t dev 'npm test' Enter`, `tmux new-window`,
	} {
		near = append(near, denyCase{line, line, "none"})
	}
	runDenyCases(t, near)
}

package shell_test

import "testing"

// TestBashRedTeam4CodeReaders: red team round 4, findings 5 to 9 — programs that run code
// the analysis did not look at (the exact lines first, rm -rf victim as written; each
// passed Bash(rm *) before).
func TestBashRedTeam4CodeReaders(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// Finding 5: strace -o '|CMD' / '!CMD'.
		{"strace -o| attached", `strace -o'|rm -rf victim' true`, "rm"},
		{"strace --output=!", `strace --output='!rm -rf victim' true`, "rm"},
		{"strace -fo| cluster", `strace -fo'|rm -rf victim' true`, "rm"},
		{"strace -o | next word", `strace -o '|rm -rf victim' true`, "rm"},
		{"strace --outp= prefix", `strace --outp='|rm -rf victim' true`, "rm"},
		{"ltrace -o|", `ltrace -o'|rm -rf victim' true`, "rm"},
		{"strace -E BASH_ENV", `strace -E 'x=rm -rf victim' true`, "rm"},
		{"strace -o of unknown value", `o='|rm -rf victim'; strace -o "$o" true`, "all"},
		// Finding 6: Ex commands that run a shell without a leading bare '!'.
		{"vim -c :!", `vim -es -c ':!rm -rf victim' -c q`, "all"},
		{"vim -c silent !", `vim -es -c 'silent !rm -rf victim' -c q`, "all"},
		{"vim -c sil!!", `vim -es -c 'sil!!rm -rf victim' -c q`, "all"},
		{"vim -c %!", `vim -es -c '%!rm -rf victim' -c q x`, "all"},
		{"vim -c 1,1!", `vim -es -c '1,1!rm -rf victim' -c q x`, "all"},
		{"vim -c r!", `vim -es -c 'r!rm -rf victim' -c q x`, "all"},
		{"vim +:!", `vim -es '+:!rm -rf victim' +q`, "all"},
		{"vim --cmd :!", `vim -es --cmd ':!rm -rf victim' +q`, "all"},
		{"vim -E -s -c", `vim -E -s -c ':!rm -rf victim' -c q`, "all"},
		{"ex -c :!", `ex -c ':!rm -rf victim' -c q`, "all"},
		{"ex +w !", `ex -s '+w !rm -rf victim' +q x`, "all"},
		{"ex -c r !", `ex -s -c 'r !rm -rf victim' -c q x`, "all"},
		{"vim call system", `vim -es -c 'call system("rm -rf victim")' -c q`, "all"},
		{"vi -c", `vi -es -c ':!rm -rf victim' -c q`, "all"},
		{"view -c", `view -es -c ':!rm -rf victim' -c q`, "all"},
		{"vimdiff -c", `vimdiff -es -c ':!rm -rf victim' -c q`, "all"},
		{"evim -c", `evim -c ':!rm -rf victim'`, "all"},
		{"vim.basic -c", `vim.basic -es -c ':!rm -rf victim' -c q`, "all"},
		{"vim -cCMD attached", `vim -es '-c:!rm -rf victim' -cq`, "all"},
		{"vim -esc cluster", `vim -esc ':!rm -rf victim' +q`, "all"},
		{"vim systemlist", `vim -es -c 'call systemlist("rm -rf victim")' -c q`, "all"},
		{"vim sh", `vim -es -c sh -c q`, "all"},
		{"vim terminal", `vim -c 'terminal rm -rf victim'`, "all"},
		{"vim py3", `vim -es -c 'py3 import os; os.system("rm -rf victim")' -c q`, "all"},
		{"vim lua", `vim -es -c 'lua os.execute("rm -rf victim")' -c q`, "all"},
		{"vim normal", `vim -es -c 'normal !!rm -rf victim' -c q x`, "all"},
		{"vim s with \\=", `vim -es -c '%s/^/\=system("rm -rf victim")/' -c q x`, "all"},
		{"vim s with ~", `vim -es -c '%s/^/~/' -c q x`, "all"},
		{"vim set foldexpr", `vim -c 'set foldmethod=expr foldexpr=system("rm")' x`, "all"},
		{"vim bar", `vim -es -c 'set ts=4|!rm -rf victim' -c q`, "all"},
		{"vim -S stream", `vim -es -S /dev/stdin +q <<< 'call system("rm -rf victim")'`, "all"},
		{"vim -s keystrokes", `vim -s /dev/fd/3 x 3<<< ':!rm -rf victim'`, "all"},
		{"vim Ex stdin", `vim -es <<< 'call system("rm -rf victim")'`, "all"},
		{"vim --remote-expr", `vim --remote-expr 'system("rm -rf victim")'`, "all"},
		{"nvim -l stream", `nvim -l /dev/fd/3 3<<< 'os.execute("rm -rf victim")'`, "all"},
		// Finding 7: text on another descriptor, opened by name.
		{"tclsh /dev/fd/3", `tclsh /dev/fd/3 3<<< 'exec rm -rf victim'`, "rm"},
		{"sqlite3 -init", `sqlite3 -init /dev/fd/3 :memory: .q 3<<< '.shell rm -rf victim'`, "rm"},
		{"make -f /dev/fd/3", `make -f /dev/fd/3 3<<< $'a:\n\trm -rf victim'`, "rm"},
		{"groff .sy", `groff -U -Tutf8 /dev/fd/3 3<<< '.sy rm -rf victim'`, "rm"},
		{"vim -S /dev/fd/3", `vim -es -S /dev/fd/3 +q 3<<< '!rm -rf victim'`, "all"},
		{"ssh -F ProxyCommand", `ssh -F /dev/fd/3 x 3<<< 'ProxyCommand rm -rf victim'`, "rm"},
		{"gdb -x", `gdb -batch -x /dev/fd/3 3<<< 'shell rm -rf victim'`, "rm"},
		{"m4 /dev/fd/3", `m4 /dev/fd/3 3<<< 'syscmd(rm -rf victim)'`, "all"},
		{"here-document on fd 4", "tclsh /dev/fd/4 4<<E\nexec rm -rf victim\nE", "rm"},
		{"fd 3 from printf", `tclsh /dev/fd/3 3< <(printf 'exec rm -rf victim')`, "rm"},
		{"stdin from echo", `tclsh < <(echo 'exec rm -rf victim')`, "rm"},
		{"exec opens fd 3", `exec 3<<< 'exec rm -rf victim'; tclsh /dev/fd/3`, "rm"},
		{"block's stdin", `{ tclsh; } <<< 'exec rm -rf victim'`, "all"}, // round 35: a program reader whose stdin the command does not spell itself
		{"block's fd 3", `{ tclsh /dev/fd/3; } 3<<< 'exec rm -rf victim'`, "rm"},
		{"loop's stdin", `while read -r l; do tclsh; done <<< 'exec rm -rf victim'`, "all"}, // round 35: a program reader whose stdin the command does not spell itself
		{"pipe into a block", `echo 'exec rm -rf victim' | { tclsh; }`, "all"},              // round 35: a program reader whose stdin the command does not spell itself
		{"function reads fd 3", `f() { tclsh /dev/fd/3; }; f 3<<< 'exec rm -rf victim'`, "rm"},
		{"expansion in the text", `tclsh /dev/fd/3 3<<< "exec rm -rf $d"`, "rm"},
		{"expansion in stdin", `tclsh <<< "exec rm -rf $(echo victim)"`, "rm"},
		{"variable as the text", `s='rm -rf victim'; tclsh /dev/fd/3 3<<< "exec $s"`, "all"},
		// Finding 8: less reads a lesskey file whose #env may set LESSOPEN.
		{"less --lesskey-src stdin", `less --lesskey-src=/dev/stdin x <<< $'#env\nLESSOPEN=|rm -rf victim %s'`, "all"},
		{"less --lesskey-src procsubst", `less --lesskey-src=<(printf '#env\nLESSOPEN=|rm -rf victim %%s\n') x`, "all"},
		{"less --lesskey-s prefix", `less --lesskey-s=/dev/fd/3 x 3<<< $'#env\nLESSOPEN=|rm -rf victim %s'`, "all"},
		{"less -k", `less -k /dev/fd/3 x 3<<< $'#env\nLESSOPEN=|rm -rf victim %s'`, "all"},
		{"LESSKEYIN", `LESSKEYIN=/dev/fd/3 less x 3<<< $'#env\nLESSOPEN=|rm -rf victim %s'`, "all"},
		{"LESSKEY exported", `export LESSKEY=/dev/stdin; less x <<< 'x'`, "all"},
		{"wget --config stream", `wget --config=/dev/fd/3 http://u@h/ 3<<< 'use_askpass = rm -rf victim'`, "all"},
		{"man -C stream", `man -C /dev/fd/3 ls 3<<< 'DEFINE pager rm -rf victim'`, "all"},
		// Finding 9: m4 macro bodies and input that build syscmd.
		{"m4 -D body", `m4 -Dx='syscmd(rm -rf victim)' <<< x`, "all"},
		{"echo | m4 -D", `echo x | m4 -Dx='syscmd(rm -rf victim)'`, "all"},
		{"m4 --define", `m4 --define=x='syscmd(rm -rf victim)' <<< x`, "all"},
		{"m4 translit", "m4 <<'E'\ntranslit(`SYSCMD(rm -rf victim)', `A-Z', `a-z')\nE", "all"},
		{"m4 ifelse concatenation", "m4 <<'E'\nifelse(`x',`x',`sys'`cmd')(`rm -rf victim')\nE", "all"},
		{"m4 -D of unknown value", `m4 -Dx="$b" f.m4`, "all"},
		// Siblings: options whose value is a command.
	})
}

// TestBashRedTeam4CodeReadersHeld: lines of the same classes that matched before round 4
// (options whose value is a command, words of unknown value, /proc/… names) and must still.
func TestBashRedTeam4CodeReadersHeld(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"vim exe", `vim -es -c 'exe "!rm -rf victim"' -c q`, "all"},
		{"vim w backquote", "vim -es -c 'w `rm -rf victim`' -c q x", "all"},
		{"vim w wildcard", `vim -es -c 'w x$(rm)*' -c q x`, "all"},
		{"vim -c of unknown value", `c=':!rm -rf victim'; vim -es -c "$c" -c q`, "all"},
		{"vim glob option", `vim -es *`, "all"},
		{"vim -u stream", `vim -u <(echo 'call system("rm -rf victim")') -es +q`, "all"},
		{"here-document on fd 3", "tclsh /proc/self/fd/3 3<<'E'\nexec rm -rf victim\nE", "any"}, // /proc/…: may be a shell
		{"WGETRC procsubst", `WGETRC=<(echo 'use_askpass=rm -rf victim') wget http://u@h/`, "all"},
		{"m4 -D $1$2", "m4 -Dz='$1$2' <<'E'\nz(`sys',`cmd')(`rm -rf victim')\nE", "all"},
		{"gpg --photo-viewer", `gpg --photo-viewer 'rm -rf victim' --list-keys`, "rm"},
		{"script -c", `script -qc 'rm -rf victim' /dev/null`, "rm"},
		{"flock -c", `flock /tmp/l -c 'rm -rf victim'`, "rm"},
		{"watch", `watch -n1 rm -rf victim`, "rm"},
		{"less +!", `less '+!rm -rf victim' x`, "rm"},
		{"LESSOPEN", `LESSOPEN='|rm -rf victim %s' less x`, "rm"},
		{"LESSCLOSE", `LESSCLOSE='rm -rf victim' less x`, "rm"},
		{"man -P", `man -P 'rm -rf victim' ls`, "rm"},
		{"man -H", `man -H'rm -rf victim' ls`, "rm"},
		{"git -c core.pager", `git -c core.pager='rm -rf victim' log`, "all"},
	})
}

// TestBashRedTeam4CodeReadersNearMisses: the common uses of the same programs match no rule
// for rm.
func TestBashRedTeam4CodeReadersNearMisses(t *testing.T) {
	t.Parallel()
	var tests []denyCase
	for _, c := range []string{
		`vim file.txt`,
		`vim -c wq file.txt`,
		`vim +42 file.txt`,
		`vim -es -c '%s/foo/bar/g' -c wq file.txt`,
		`vim -es -c '%s#a/b#c#ge' -c 'x' file.txt`,
		`vim -c 'set ts=4 sw=4 et nonumber' -c 'wq!' x`,
		`vim -es -c '1,$d' -c 'w out.txt' -c q x`,
		`vi -c ':q!' x`,
		`nvim --headless -c 'qa!'`,
		`vim src/*.go`,
		`less README.md`,
		`less +F log.txt`,
		`less -R +G log.txt`,
		`git log | less`,
		`make test`,
		`make -C sub build`,
		`make -f Makefile.ci lint`,
		`strace -o trace.txt ls`,
		`strace -f -o /tmp/t.txt -e trace=openat ls`,
		`strace -fo trace.txt ls`,
		`ltrace -o out.txt ls`,
		`m4 x.m4`,
		`m4 -DVERSION=1.2 -I include x.m4`,
		`echo VERSION | m4 -DVERSION=1.2`,
		`man -C /etc/man_db.conf ls`,
		`wget --config=./wgetrc https://example.com/f`,
		`cat /dev/fd/3 3<<< 'rm -rf victim'`,
		`grep x /dev/fd/3 3<<< 'rm -rf victim'`,
		`diff <(echo a) <(echo b)`,
		`cat <<'EOF' > notes.txt` + "\nrm -rf is blocked\nEOF",
		`exec 3<<< 'data'; cat /dev/fd/3`,
		`tclsh /dev/fd/3 3<<< 'puts hello'`,
		`LOG=/tmp/x.log make test`,
	} {
		tests = append(tests, denyCase{c, c, "none"})
	}
	runDenyCases(t, tests)
}

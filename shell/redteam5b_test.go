package shell_test

import "testing"

// TestBashRedTeam5EscapeLanguages: red team round 5, findings 2 and 6 to 10 — programs
// whose own escape or template language builds the command they run (the exact lines
// first, rm -rf d as written, each confirmed to delete d with bash; each passed
// Bash(rm *) before).
func TestBashRedTeam5EscapeLanguages(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// Finding 2: awk decodes its string literals before running them.
		{"awk system octal", `awk 'BEGIN{system("\162m -rf d")}'`, "rm"},
		{"awk getline octal", `awk 'BEGIN{"\162m -rf d" | getline}'`, "rm"},
		{"awk printf pipe octal", `awk 'BEGIN{printf "" | "\162m -rf d"}'`, "rm"},
		{"awk hex", `awk 'BEGIN{system("\x72m -rf d")}'`, "rm"},
		{"awk unknown escape (mawk)", `awk 'BEGIN{system("echo \'"'"'; rm -rf d #")}'`, "all"}, // gawk's reading does not parse: fails closed (red team 6)
		{"awk long hex", `awk 'BEGIN{system("\x072m")}'`, "all"},
		// Finding 6: any xargs replace string.
		{"xargs -I%", `echo r | xargs -I% env %m -rf d`, "all"},
		{"xargs --replace=Q", `echo r | xargs --replace=Q env Qm -rf d`, "all"},
		{"xargs -IQ", `echo r | xargs -IQ env Qm -rf d`, "all"},
		{"xargs -I% wrapper option", `echo -Srm | xargs -I% env -% -rf d`, "all"},
		{"parallel {= perl =}", `parallel 'echo {= qx{\x72m -rf d} =}' ::: r`, "all"},
		// Finding 7: ssh % tokens.
		{"ssh %h", `ssh -o 'ProxyCommand=%hm -rf d' r`, "rm"},
		{"ssh %r", `ssh -o 'ProxyCommand=%rm -rf d' -l r x`, "rm"},
		{"ssh -o with blank", `ssh -o 'ProxyCommand %hm -rf d' r`, "rm"},
		{"ssh attached -o", `ssh '-oLocalCommand=%nm -rf d' -oPermitLocalCommand=yes r`, "rm"},
		{"scp %h", `scp -o 'ProxyCommand=%hm -rf d' r:x .`, "rm"},
		// Finding 8: less's templates.
		{"LESSOPEN %s", `echo | LESSOPEN='|%sm -rf d' less r`, "rm"},
		{"LESSOPEN |-", `LESSOPEN='|-%sm -rf d' less r`, "rm"},
		{"LESSCLOSE %s", `LESSCLOSE='%sm -rf d' less r`, "rm"},
		{"LESSEDIT conditional", `LESSEDIT='r?xq.m -rf d' less +v x`, "all"},
		{"LESSOPEN exported", `export LESSOPEN='|%sm -rf d'; less r`, "rm"},
		// Finding 9: sqlite3's dot-commands.
		{"sqlite3 .shell octal", `sqlite3 :memory: '.shell "\162m" -rf d'`, "rm"},
		{"sqlite3 .read |", `sqlite3 :memory: '.read "|\162m -rf d"'`, "rm"},
		{"sqlite3 .once |", `sqlite3 :memory: '.once "|\162m -rf d"' 'select 1;'`, "rm"},
		{"sqlite3 .import |", `sqlite3 :memory: '.import "|\162m -rf d" t'`, "rm"},
		{"sqlite3 -cmd", `echo | sqlite3 -cmd ".shell \"\\162m\" -rf d"`, "rm"},
		{"sqlite3 .system prefix", `sqlite3 :memory: '.sys "\162m -rf d"'`, "rm"},
		{"sqlite3 .output |", `sqlite3 :memory: '.output "|\162m -rf d"'`, "rm"},
		{"sqlite3 stdin", `sqlite3 :memory: <<< '.shell "\162m" -rf d'`, "rm"},
		{"sqlite3 here-doc", "sqlite3 :memory: <<'E'\n.read \"|\\162m -rf d\"\nE", "rm"},
		{"sqlite3 edit()", `sqlite3 :memory: "select edit('', 'r'||'m -rf d')"`, "all"},
		{"sqlite3 .load", `sqlite3 :memory: '.load ./x'`, "all"},
		// Finding 10: gdb commands that run or format commands.
		{"gdb eval", `gdb -batch -ex 'eval "shell %cm -rf d", 114'`, "all"},
		{"gdb --eval-command=", `gdb -batch --eval-command='eval "shell %cm -rf d", 114'`, "all"},
		{"gdb -iex", `gdb -batch -iex 'eval "shell %cm -rf d", 114'`, "all"},
		{"gdb $_shell", `gdb -batch -ex 'p $_shell("rm -rf d")'`, "all"},
		{"gdb python", `gdb -batch -ex 'python import os; os.system("rm -rf d")'`, "all"},
		{"gdb pipe", `gdb -batch -ex 'pipe bt | rm -rf d'`, "all"},
		{"gdb stdin eval", `gdb -batch <<< 'eval "shell %cm -rf d", 114'`, "all"},
		{"gdb thread apply", `gdb -batch -ex 'thread apply all shell rm -rf d'`, "all"},
	})
}

// TestBashRedTeam5EscapeLanguagesHeld: lines of the same classes that matched before
// round 5 and must still.
func TestBashRedTeam5EscapeLanguagesHeld(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"awk unknown escape (gawk)", `awk 'BEGIN{system("'"'"'r\m'"'"' -rf d")}'`, "rm"},
		{"awk NUL cuts", `awk 'BEGIN{system("rm -rf d\0x")}'`, "rm"},
		{"xargs -i%", `echo r | xargs -i% env %m -rf d`, "all"},
		{"xargs -J %", `echo r | xargs -J % env %m -rf d`, "all"},
		{"ssh quoted token", `ssh -o 'ProxyCommand=sh -c "%h"' x`, "all"},
		{"sqlite3 unknown command", `c='.shell rm'; sqlite3 :memory: "$c"`, "all"},
		{"gdb run args", "gdb -batch -ex 'run `rm -rf d`' ./a.out", "all"},
		{"parallel --rpl", `parallel --rpl '{R} qx{\x72m -rf d}' echo {R} ::: r`, "all"},
		{"awk system plain", `awk 'BEGIN{system("rm -rf d")}'`, "rm"},
		{"awk built at run time", `awk 'BEGIN{system("r" "m -rf d")}'`, "all"},
		{"awk sprintf", `awk 'BEGIN{system(sprintf("%cm -rf d", 114))}'`, "all"},
		{"xargs -I{}", `echo r | xargs -I{} env {}m -rf d`, "all"},
		{"ssh ProxyCommand plain", `ssh -o 'ProxyCommand=rm -rf d' x`, "rm"},
		{"LESSOPEN plain", `LESSOPEN='|rm -rf d %s' less x`, "rm"},
		{"sqlite3 .shell plain", `sqlite3 :memory: '.shell rm -rf d'`, "rm"},
		{"gdb shell", `gdb -batch -ex 'shell rm -rf d'`, "rm"},
		{"gdb -x stream", `gdb -batch -x /dev/fd/3 3<<< 'shell rm -rf d'`, "rm"},
	})
}

// TestBashRedTeam5EscapeLanguagesNearMisses: the common uses of the same programs match no
// rule for rm.
func TestBashRedTeam5EscapeLanguagesNearMisses(t *testing.T) {
	t.Parallel()
	var tests []denyCase
	for _, c := range []string{
		`awk '{print $1}' f`,
		`awk 'BEGIN{print "a\tb"}'`,
		`awk 'BEGIN{system("ls -l")}'`,
		`awk '{print | "sort -u"}' f`,
		`xargs -I{} cp {} dst/`,
		`xargs -I% echo %`,
		`parallel gzip {} ::: a b`,
		`find . -name '*.go' | xargs -I% gofmt -l %`,
		`ssh host ls`,
		`ssh -o ProxyCommand='ssh -W %h:%p bastion' host`,
		`scp -o ProxyCommand='ssh -W %h:%p bastion' f host:`,
		`less README.md`,
		`sqlite3 db 'select 1'`,
		`sqlite3 db .tables`,
		`sqlite3 -cmd '.mode csv' db 'select * from t'`,
		`sqlite3 db '.import data.csv t'`,
		`sqlite3 db <<< 'select 1;'`,
		`gdb -batch -ex bt ./a.out`,
		`gdb -batch -ex run -ex bt --args ./a.out x`,
		`gdb -batch -ex 'thread apply all bt' -p 123`,
		`gdb -q -ex 'info registers' -ex 'p x' ./a.out core`,
	} {
		tests = append(tests, denyCase{c, c, "none"})
	}
	runDenyCases(t, tests)
}

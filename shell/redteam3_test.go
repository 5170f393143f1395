package shell_test

import "testing"

// TestBashRedTeam3: red team round 3 (the exact lines first, rm -rf foo as written).
func TestBashRedTeam3(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// Finding 1: awk program text read from a stream.
		{"awk -f /dev/fd/3", `awk -f /dev/fd/3 3<<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		{"awk -f /dev/stdin", `awk -f /dev/stdin /etc/hostname <<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		{"awk -f procsubst", `awk -f <(echo 'BEGIN{system("rm -rf foo")}')`, "all"},
		{"awk -f - heredoc", "awk -f - <<'E'\nBEGIN{system(\"rm -rf foo\")}\nE", "all"},
		{"echo | awk -f -", `echo 'BEGIN{system("rm -rf foo")}' | awk -f -`, "all"},
		{"gawk -i /dev/stdin", `gawk -i /dev/stdin 'BEGIN{}' <<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		{"gawk --include=/dev/stdin", `gawk --include=/dev/stdin 'BEGIN{}' <<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		{"gawk --exec=/dev/stdin", `gawk --exec=/dev/stdin <<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		{"gawk -E /proc/self/fd/0", `gawk -E /proc/self/fd/0 <<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		{"awk -f4 attached", `awk -f/dev/fd/4 4<<< 'BEGIN{system("rm -rf foo")}'`, "all"},
		// Finding 2: the same for sed.
		{"sed -f /dev/fd/3", `sed -f /dev/fd/3 /etc/hostname 3<<< '1e rm -rf foo'`, "all"},
		{"sed -f procsubst", `echo x | sed -f <(echo '1e rm -rf foo')`, "all"},
		{"sed -f - heredoc", "sed -f - /etc/hostname <<'E'\n1e rm -rf foo\nE", "all"},
		{"echo | sed -f -", `echo '1e rm -rf foo' | sed -f - /etc/hostname`, "all"},
		{"printf | sed -f /dev/stdin", `printf '1e rm -rf foo\n' | sed -f /dev/stdin /etc/hostname`, "all"},
		{"sed --file=/dev/stdin", `sed --file=/dev/stdin /etc/hostname <<< '1e rm -rf foo'`, "all"},
		// Finding 3: ed and m4 run commands from their input.
		{"echo | ed", `echo '!rm -rf foo' | ed`, "rm"},
		{"ed here-string", `ed -s /etc/hostname <<< '!rm -rf foo'`, "rm"},
		{"ed w !", `echo 'w !rm -rf foo' | ed -s /etc/hostname`, "rm"},
		{"red", `echo '!rm -rf foo' | red`, "rm"},
		{"ed file !cmd", `ed -s '!rm -rf foo'`, "all"}, // round 37: ed reads its commands from a stdin the line does not spell
		{"m4 syscmd", `echo 'syscmd(rm -rf foo)' | m4`, "all"},
		{"gm4 esyscmd", `gm4 <<< 'esyscmd(rm -rf foo)'`, "all"},
		// The inert list checked again: bash's hash -p and fc run commands (already analysed).
		{"hash -p", `hash -p /bin/rm ls; ls -rf foo`, "rm"},
		{"fc -e", `set -o history; echo foo; fc -e 'rm -rf' -1`, "all"},
		{"fc -s", `set -o history; echo rm -rf foo; fc -s echo=rm`, "all"},
		// Finding 4: git grep -O attached in a cluster.
		{"git grep -iO", `git grep -iO'rm -rf foo' x`, "rm"},
		{"git grep -nO", `git grep -nO'rm -rf foo' x`, "rm"},
		{"git grep -iO next word", `git grep -iO 'rm -rf foo' x`, "rm"},
		// Finding 5: git difftool -x.
		{"git difftool -yx", `git difftool -yx'rm -rf foo'`, "rm"},
		{"git difftool -y -x", `git difftool -y -x'rm -rf foo'`, "rm"},
		{"git rebase -ix", `git rebase -ix'rm -rf foo' main`, "rm"},
		// Finding 6: zip -TT attached.
		{"zip -TT attached", `zip -T a.zip zx -TT'rm -rf foo'`, "rm"},
		{"zip -TT escaped", `zip -T -TTrm\ -rf\ foo a.zip zx`, "rm"},
		// Finding 7: vim +cmd (an Ex command not proven harmless matches every deny rule
		// since red team 4: redteam4b_test.go).
		{"vim +!cmd", `vim -es +'!rm -rf foo' +q`, "any"},
		{"vi +cmd", `vi -es '+!rm -rf foo' +q`, "any"},
		{"ex +cmd", `ex '+!rm -rf foo' +q`, "any"},
		{"nvim +cmd", `nvim --headless '+!rm -rf foo' +q`, "any"},
	})
}

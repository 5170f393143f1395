package shell_test

import "testing"

// TestBashRedTeam3: red team round 3 (the exact lines first, rm -rf foo as written).
func TestBashRedTeam3(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// Finding 3: ed and m4 run commands from their input.
		{"echo | ed", `echo '!rm -rf foo' | ed`, "rm"},
		{"ed here-string", `ed -s /etc/hostname <<< '!rm -rf foo'`, "rm"},
		{"ed w !", `echo 'w !rm -rf foo' | ed -s /etc/hostname`, "rm"},
		{"red", `echo '!rm -rf foo' | red`, "rm"},
		{"ed file !cmd", `ed -s '!rm -rf foo'`, "rm"},
		{"m4 syscmd", `echo 'syscmd(rm -rf foo)' | m4`, "all"},
		{"gm4 esyscmd", `gm4 <<< 'esyscmd(rm -rf foo)'`, "all"},
		// The inert list checked again: bash's hash -p and fc run commands (already analysed).
		{"hash -p", `hash -p /bin/rm ls; ls -rf foo`, "rm"},
		{"fc -e", `set -o history; echo foo; fc -e 'rm -rf' -1`, "all"},
		{"fc -s", `set -o history; echo rm -rf foo; fc -s echo=rm`, "all"},
	})
}

package shell_test

import "testing"

// TestTailSource: in a suffix of a program's words, `. FILE` is no builtin of this shell:
// `go run . "$x"` is go's package and an operand (a false positive before round 64: every
// deny rule matched), while a program that hands the words to a shell sources a file, a
// file's content; a script's `. "$x"` still fails closed.
func TestTailSource(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"go run . \"$x\"", `go run . "$x"`, "none"},
		{"go run . \"$x\" -v", `go run . "$x" -v`, "none"},
		{"go run . $x", `go run . $x`, "none"},
		{"x=source, a file", `x=source; go build "$x" f`, "none"},
		{"sh -c '. \"$x\"'", `sh -c '. "$x"'`, "all"},
		{". \"$x\"", `. "$x"`, "all"},
		{"builtin . \"$x\"", `builtin . "$x"`, "all"},
		{"a file the line names", `x=1; go run . "$x"`, "all"},
		{"a substitution", `go run . "$(cat f)"`, "all"},
		{"a stream", `watch . /dev/stdin <<< 'rm -rf x'`, "any"},
		{"x=source, a stream", `x=source; go build "$x" /dev/stdin`, "all"},
	})
}

// TestProgramVarFile: a file a program reads as code, named by a variable npm defines from
// its own flags, is not the agent's environment (round 64).
func TestProgramVarFile(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"sourced in a suffix", `npm exec -c 'ssh h . "$npm_config_x"' --x=/dev/stdin`, "all"},
		{"awk -f", `npm exec -c 'awk -f "$npm_config_x" f' --x=/dev/stdin`, "all"},
		{"sed -f", `npm exec -c 'sed -f "$npm_config_x" f' --x=/dev/stdin`, "all"},
		{"an environment variable", `npm exec -c 'awk -f "$AWKPROG" f'`, "none"},
	})
}

package shell_test

import "testing"

// TestBashRedTeam6HdocJoin: red team round 6, finding 1 — under an unquoted delimiter bash
// joins a body line that ends in a backslash with the next before it compares it with the
// delimiter, so "EO\" and "F" end the body where the parser reads on (docs/decisions.md,
// "Red team round 6: parse fallbacks"). The exact line first; each passed Bash(rm *).
func TestBashRedTeam6HdocJoin(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"EO\\ F", "cat <<EOF\nEO\\\nF\nrm -rf d\nEOF", "all"},
		{"E\\ O\\ F", "cat <<EOF\nE\\\nO\\\nF\nrm -rf d\nEOF", "all"},
		{"<<- joined", "cat <<-EOF\n\tEO\\\nF\nrm -rf d\nEOF", "all"},
		{"in bash -c", "bash -c $'cat <<EOF\\nEO\\\\\\nF\\nrm -rf d\\nEOF'", "all"},
		{"in eval", "eval $'cat <<EOF\\nEO\\\\\\nF\\nrm -rf d\\nEOF'", "all"},
		{"second here-document", "cat <<A; cat <<EOF\nx\nA\nEO\\\nF\nrm -rf d\nEOF", "all"},
	})
}

// TestBashRedTeam6Unparsed: red team round 6, finding 2 — text read as shell code that the
// parser rejects (an unterminated here-document at the end, which bash runs with a
// warning; a stray quote) was split into words at blanks, so ";rm" was never a command.
// The exact lines first, with rm -rf d as the red team wrote them.
func TestBashRedTeam6Unparsed(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// Read as code on a guess (an operand, a value): cut at operators (guessText).
		{"make --eval", `make -f /dev/null --eval="x': ;rm -rf d"`, "rm"},
		{"tmux new", `tmux new -d 'echo;rm -rf d <<EOF'`, "rm"},
		{"tar --to-command", `tar xf a.tar --to-command='cat>/dev/null;rm -rf d <<EOF'`, "rm"},
		{"GIT_EDITOR", `GIT_EDITOR='true;rm -rf d <<EOF' git commit --allow-empty --amend`, "rm"},
		{"any value", `x='echo;rm -rf d <<EOF'`, "rm"},
		{"export value", `export x='echo|rm -rf d <<EOF'`, "rm"},
		{"value with &&", `x="echo&&rm -rf d 'EOF"`, "rm"},
		{"operand with a substitution", `foo 'echo $(rm -rf d) <<EOF'`, "all"},
		{"operand with backquotes", "foo 'a[`rm -rf d`]'", "all"},
		{"operand with a backslash-newline", "foo $'x\\' ;r\\\\\\nm -rf d'", "rm"},
		{"stdin line of a non-shell", "foo <<< 'echo;rm -rf d <<EOF'", "rm"},
		// Run by a program as shell by its spec: every deny rule matches.
		{"ed !", `ed -s <<< '!echo;rm -rf d <<EOF'`, "all"},
		{"awk system", `awk 'BEGIN{system("echo;rm -rf d <<EOF")}'`, "all"},
		{"sed e", `sed -n '1e echo;rm -rf d <<EOF' f1`, "all"},
		{"strace -o |", `strace -o '|echo;rm -rf d <<EOF' true`, "all"},
		{"git rebase -x", `git rebase -x 'true;rm -rf d <<EOF' HEAD~1`, "all"},
		{"git rebase --exec=", `git rebase --exec='true;rm -rf d "' HEAD~1`, "all"},
		{"awk pipe", `awk 'BEGIN{print "x" | "cat;rm -rf d <<EOF"}'`, "all"},
	})
}

// TestBashRedTeam6Held: the same lines inside the contexts that already failed closed (the
// red team reports they held) must still match.
func TestBashRedTeam6Held(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		{"sh -c", `sh -c 'echo;rm -rf d <<EOF'`, "all"},
		{"eval", `eval 'echo;rm -rf d <<EOF'`, "all"},
		{"flock -c", `flock l -c 'echo;rm -rf d <<EOF'`, "all"},
		{"script -c", `script -qc 'echo;rm -rf d <<EOF' /dev/null`, "all"},
		{"watch", `watch 'echo;rm -rf d <<EOF'`, "all"},
		{"trap", `trap 'echo;rm -rf d <<EOF' EXIT`, "all"},
		{"| sh", `echo 'echo;rm -rf d <<EOF' | sh`, "all"},
		{"quoted delimiter keeps the backslash", "cat <<'EOF'\na\\\nEOF\necho;rm -rf d\nEOF", "any"},
	})
}

// TestBashRedTeam6NearMisses: here-documents with ordinary bodies, and text that does not
// parse as shell but holds no command, match no rule for rm.
func TestBashRedTeam6NearMisses(t *testing.T) {
	t.Parallel()
	var tests []denyCase
	for _, c := range []string{
		"cat <<EOF\nhello\nEOF",
		"cat <<EOF\nline one \\\n  continued\nEOF",
		"cat > run.sh <<EOF\ndocker run \\\n  -v x \\\n  img\nEOF",
		"cat <<EOF\na\\\\\nEOF",
		"cat <<EOF\nx\\\nEOF\nrm -rf d\nEOF", // "x\" joins "EOF": bash and the parser both read on
		"cat <<'EOF'\nEO\\\nF\nrm -rf is blocked\nEOF",
		"cat <<'EOF'\nends in a backslash \\\nEOF",
		"cat <<-EOF\n\tx \\\n\ty\n\tEOF",
		`awk 'BEGIN{system("ls")}'`,
		`git commit -m "it's"`,
		`msg="it's done"; echo "$msg"`,
		`python3 -c 'print(1)'`,
		`python3 -c 'import sys; print(sys.version)'`,
		`sqlite3 db 'select * from t'`,
		`psql -c "select name from users where note = 'it''s'"`,
		`foo --title="don't stop"`,
		"python3 - <<'EOF'\nimport os\nprint(os.getcwd())\nEOF",
	} {
		tests = append(tests, denyCase{c, c, "none"})
	}
	runDenyCases(t, tests)
}

package shell_test

import "testing"

// TestMakeExpandsDollar: make expands the '$' references in its variables' values, -E
// texts, MAKEFLAGS and imported environment itself, and defines variables (RM is "rm -f")
// that the agent's environment does not have; a literal '$' that reaches it is not the
// agent's environment (red team round 64, bashmake.go).
func TestMakeExpandsDollar(t *testing.T) {
	t.Parallel()
	runDenyCases(t, []denyCase{
		// The implicit rule for x from x.c runs $(CC) $(CFLAGS) … = rm -f -r DIR -- x.c -o x.
		{"operands", `make 'CC=${RM}' 'CFLAGS=-r DIR --' x`, "all"},
		{"-E texts", `make -E 'CC = ${RM}' -E 'CFLAGS = -r DIR --' x`, "all"},
		{"--eval", `make --eval='CC = ${RM}' x`, "all"},
		{"operator :=", `make 'CC:=${RM}' x`, "all"},
		{"operator ::=", `make 'CC::=${RM}' x`, "all"},
		{"operator +=", `make 'CC+=${RM}' x`, "all"},
		{"operator ?=", `make 'CC?=$(RM)' x`, "all"},
		{"escaped in double quotes", `make "CC=\${RM}" x`, "all"},
		{"escaped unquoted", `make CC=\${RM} x`, "all"},
		{"ANSI-C", `make $'CC=\x24{RM}' x`, "all"},
		{"'$' before an expansion", `make "CC=\$$x" x`, "all"},
		{"'$$' in a value", `make 'CC=$$(printf rm)' 'CFLAGS=-rf DIR' x`, "all"},
		{"literal beside an expansion", `make "CC=\${RM}$x" x`, "all"},
		{"a glob may match such a file", `make CC=* x`, "all"},
		{"gmake", `gmake 'CC=${RM}' x`, "all"},
		{"bmake", `bmake 'CC=${RM}' x`, "all"},
		{"a path", `/usr/bin/make 'CC=${RM}' x`, "all"},
		{"under sudo", `sudo make 'CC=${RM}' x`, "all"},
		{"under nice", `nice make 'CC=${RM}' x`, "all"},
		{"in sh -c", `sh -c "make 'CC=\${RM}' x"`, "all"},
		{"xargs -I fills it", `echo 'CC=${RM}' | xargs -I{} make {} x`, "all"},
		{"gnumake", `gnumake 'CC=${RM}' x`, "all"},
		{"parallel's arguments", `parallel make ::: 'CC=${RM}'`, "all"},
		{"parallel's stdin", `echo 'CC=${RM}' | parallel make x`, "all"},
		{"parallel's argument file", `parallel make :::: f`, "all"},
		{"a makefile on stdin", "make -f - x <<< $'CC = ${RM}\\nCFLAGS = -r DIR --'", "all"},
		{"a makefile in a here-document", "make -f - x <<'EOF'\nCC = ${RM}\nEOF", "all"},
		{"a makefile piped by echo", `echo 'CC = ${RM}' | make -f - x`, "all"},
		{"a makefile on another descriptor", `make -f /dev/fd/3 x 3<<< 'CC = ${RM}'`, "all"},
		{"a makefile on a descriptor exec opened", `exec 3<<< 'CC = ${RM}'; make --file=/dev/fd/3 x`, "all"},
		// Through the environment make imports.
		{"prefix assignments", `CC='${RM}' CFLAGS='-r DIR --' make x`, "all"},
		{"export", `export CC='${RM}'; make x`, "all"},
		{"declare -x", `declare -x CC='${RM}'; make x`, "all"},
		{"a name the environment may export", `CC='${RM}'; make x`, "all"},
		{"MAKEFLAGS", `MAKEFLAGS='CC=${RM} CFLAGS=-r\ DIR' make x`, "all"},
		{"GNUMAKEFLAGS", `GNUMAKEFLAGS='CC=${RM}' make x`, "all"},
		{"make -e", `CC='${RM}' make -e x`, "all"},
		{"env", `env CC='${RM}' make x`, "all"},
		{"in a nested shell", `sh -c 'CC=\${RM} make x'`, "all"},
		{"a value read", `read -r x <<< '${RM}'; CC=$x make x`, "all"},
		{"a loop value", `for c in '${RM}'; do CC=$c make x; done`, "all"},
		{"a substitution's output to make's CC", `CC=$(printf '\x24{RM}'); make x`, "all"},
		{"make's CC read", `read CC; make x`, "all"},
		{"through another variable", `x=$(cat f); CC=$x; make x`, "all"},
		{"set -a and a value read", `set -a; read X; make`, "all"},
		// npm's variables, from its own flags, in the script it runs.
		{"npm exec -c, a literal before", `npm exec -c 'r${npm_config_preid}' --preid='m -rf v'`, "all"},
		{"npx -c, a literal before", `npx -c 'r${npm_config_preid}' --preid='m -rf v'`, "all"},
		{"npm exec -c, unbraced", `npm exec -c 'r$npm_config_preid' --preid='m -rf v'`, "all"},
		// Common forms: '$' the shell expands, no '$', another language's '$'.
		{"make PREFIX=$HOME", `make PREFIX=$HOME install`, "none"},
		{"make -C \"$DIR\"", `make -C "$DIR"`, "none"},
		{"make CC=gcc", `make CC=gcc CFLAGS=-O2`, "none"},
		{"PREFIX=$HOME make", `PREFIX=$HOME make install`, "none"},
		{"VERSION=1.2 make", `VERSION=1.2 make release`, "none"},
		{"make in a loop", `for d in a b; do make -C "$d"; done`, "none"},
		{"make and a value elsewhere", `x=1; make -j4 V=1`, "none"},
		{"env PATH=\"$PATH:/x\" make", `env PATH="$PATH:/x" make`, "none"},
		{"a substitution's output to another name", `V=$(git rev-parse HEAD); make build`, "none"},
		{"make's output in a variable", `OUT=$(make test 2>&1); echo "$OUT" | tail`, "none"},
		{"a glob loop beside make", `for f in *.txt; do cat "$f"; done; make`, "none"},
		{"read beside make", `read -p "go?" ans; make`, "none"},
		{"a '$' that ends a value", `make test RUN='^TestFoo$'`, "none"},
		{"parallel make", `parallel -j4 make -C ::: a b`, "none"},
		{"go test -run", `go test -run "Test$i"`, "none"},
		{"vim -c", `vim -c '1,$d' f`, "none"},
		{"npm exec -c", `npm exec -c 'eslint .'`, "none"},
		{"npm's variable as an argument", `npx -c 'echo $npm_package_version'`, "none"},
	})
}

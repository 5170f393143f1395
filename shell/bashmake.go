package shell

import "strings"

// make expands '$' references itself: in the values of the variables given on its command
// line (NAME=VALUE with any of its assignment operators, = := ::= :::= += ?= !=), in the
// texts of -E and --eval, in MAKEFLAGS and GNUMAKEFLAGS (which hold such definitions), in
// the variables it imports from its environment (every one, -e or not), and in the
// recipes of its built-in rules, which read variables it defines itself (RM is "rm -f",
// CC, AR, …): `make 'CC=${RM}' 'CFLAGS=-r DIR --' x` with an x.c present runs `rm -f -r
// DIR -- x.c -o x` (red team round 64). The analysis reads such a '$' as the shell would,
// a parameter of the agent's environment, which it is not. So, for deny rules:
//
//   - a word of make's arguments whose value may hold a '$' the shell did not expand (a
//     quoted or escaped one, a glob that may match a file named so, a command
//     substitution's output, a word xargs or find fills in) makes every deny rule match
//     (makeArgs), whatever option or operand it is: a target or a directory with a '$'
//     is rare, and telling which words make expands would be another parser of make's
//     command line;
//   - a line that runs make and binds any variable to such a value (x='${RM}', a value
//     read by read or printf -v, a command substitution's output) matches every deny
//     rule (settleDeny): a prefix assignment, an export, env's or sudo's, and an
//     assignment to a name the agent's environment already exports all reach make's
//     environment, and whether a name is exported there is not known.
//
// A '$' the shell expands ($HOME, "$DIR") is the agent's environment and stays as it was:
// `make PREFIX=$HOME install`, `make -C "$DIR"`, `PREFIX=$HOME make install`.

// makeProgram reports whether base, a program's base name, is a make that expands '$'
// references in its arguments and environment: GNU make, BSD make and their names.
func makeProgram(base string) bool {
	switch base {
	case "make", "gmake", "gnumake", "bmake", "pmake", "remake", "fmake", "dmake", "mingw32-make", "colormake":
		return true
	}
	return false
}

// makeArgs records that the line runs make, and makes every deny rule match when one of
// its arguments args may hold a '$' the shell did not expand (literalDollar), or is filled
// in at run time (xargs -I's marker, find -exec's braces). See the top of this file.
func (b *Commands) makeArgs(args []word, c ctx) {
	b.makeRuns = true
	for _, a := range args {
		if literalDollar(a) || c.marker != "" && strings.Contains(a.text, c.marker) ||
			c.braces && strings.Contains(a.text, "{}") {
			b.denyAll = true
			return
		}
	}
}

// literalDollar reports whether the value of w may hold a '$' that the shell does not
// expand: a static value with one ('${RM}', "\$(CC)", $'\x24x'), a literal run of a word
// that is not static with one ("\${RM}$x"), or a value the analysis does not know (a
// command substitution, ${x:-...}, a glob, a name bound by read: w.exp nil or dyn). A
// word that only reads variables ($HOME, "$DIR/bin") does not: their values are the
// agent's environment, or the line's own bindings, which bindValue checks.
func literalDollar(w word) bool {
	if w.static {
		return strings.IndexByte(w.text, '$') >= 0
	}
	if w.exp == nil || w.exp.dyn || w.exp.glob != nil || w.pieces == nil {
		return true
	}
	for _, p := range w.pieces {
		if !p.hole && strings.IndexByte(p.text, '$') >= 0 {
			return true
		}
	}
	return false
}

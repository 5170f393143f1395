package shell

import (
	"slices"
	"strings"
)

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
//   - a line that runs make and binds any variable to a value with a '$' written in it
//     (x='${RM}', "\$x") matches every deny rule (settleDeny): a prefix assignment, an
//     export, env's or sudo's, and an assignment to a name the agent's environment already
//     exports all reach make's environment, and whether a name is exported there is not
//     known; so does one that binds a value of unknown text (a command substitution's
//     output, a value read by read or printf -v, a glob's file name) where it reaches a
//     program's environment, to a name the line exports, or to one of make's own variables
//     (makeBinds);
//   - a standard input the line gives make that holds a '$', or any stream the line
//     spells that does when make runs (settleStreams), makes every deny rule match: `make
//     -f - x <<< 'CC = ${RM}'` and `make -f /dev/fd/3 x 3<<< …` read it as a makefile. A
//     makefile the line writes first and then names (-f m.mk) is a file written then run
//     (docs/security.md), not caught.
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
// in at run time (xargs -I's marker, find -exec's braces), or when the standard input the
// line gives it (a here-document or here-string, an echo piped to it) holds a '$': make
// -f - reads a makefile there. See the top of this file.
func (b *Commands) makeArgs(args []word, c ctx) {
	b.makeRuns = true
	if c.in != nil && strings.IndexByte(c.in.script, '$') >= 0 {
		b.denyAll = true // a makefile it may read from stdin (-f -): make -f - x <<< 'CC = ${RM}'
		return
	}
	for _, a := range args {
		if literalDollar(a) || c.marker != "" && strings.Contains(a.text, c.marker) ||
			c.braces && strings.Contains(a.text, "{}") {
			b.denyAll = true
			return
		}
	}
}

// noteDollar records, for the line's settling, what the value v bound to name may bring to
// make's environment (see the top of this file): a '$' written in it (dollarText) always;
// a value the analysis does not know (unknownValue: a command substitution's output, a
// value read, a glob's file name) by name, settled by makeBinds. reaches tells that the
// binding puts the value in a program's environment (a prefix assignment, export, env).
func (b *Commands) noteDollar(name string, v word, reaches bool) {
	switch {
	case dollarText(v):
		b.dollarBind = true
	case !unknownValue(v):
		if !v.static && len(v.exp.vars) > 0 { // CC=$x: unknown when x is (makeBinds)
			b.valueReads = append(b.valueReads, valueRead{name: name, vars: v.exp.vars, reaches: reaches})
		}
	case reaches:
		b.dollarBind = true
	default:
		b.unknownVals = append(b.unknownVals, name)
	}
}

// makeBinds reports whether a line that runs make may give it a value holding a '$' it
// expands: one written on the line (dollarBind), or a value of unknown text bound to a
// name the line exports, or to one of make's own variables, which the agent's environment
// may already export (CC, CFLAGS under conda or nix): `CC=$(printf '\x24{RM}'); make x`.
// Other names bound to values of unknown text (OUT=$(make test), read ans, a glob loop's
// variable) reach make only if the agent's environment exports them and a makefile
// reads them: not caught (docs/decisions.md, round 64).
func (b *Commands) makeBinds() bool {
	if b.dollarBind {
		return true
	}
	unknown := slices.Clone(b.unknownVals)
	for changed := true; changed; { // x=$(cat f); CC=$x; y=$CC …: the names whose text is not known
		changed = false
		for _, r := range b.valueReads {
			if slices.Contains(unknown, r.name) || !slices.ContainsFunc(r.vars, func(v string) bool { return slices.Contains(unknown, v) }) {
				continue
			}
			if r.reaches {
				return true
			}
			unknown, changed = append(unknown, r.name), true
		}
	}
	for _, n := range unknown {
		if b.allexport || b.exported[n] || makeVariable(n) {
			return true
		}
	}
	return false
}

// valueRead is a binding of name to a value that reads the variables vars (CC=$x,
// CC="$x/bin"), which makeBinds follows; reaches as for noteDollar.
type valueRead struct {
	name    string
	vars    []string
	reaches bool
}

// makeVariable reports whether name is a variable GNU make defines itself and its built-in
// rules read (make -p), or one it reads its options and makefiles from.
func makeVariable(name string) bool {
	switch name {
	case "AR", "AS", "CC", "CXX", "CPP", "FC", "M2C", "PC", "CO", "GET", "LEX", "YACC", "LINT",
		"MAKEINFO", "TEX", "TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "RM", "LD", "OBJC",
		"ARFLAGS", "ASFLAGS", "CFLAGS", "CXXFLAGS", "COFLAGS", "CPPFLAGS", "FFLAGS", "GFLAGS",
		"LDFLAGS", "LDLIBS", "LFLAGS", "YFLAGS", "PFLAGS", "RFLAGS", "LINTFLAGS", "OBJCFLAGS",
		"TARGET_ARCH", "TARGET_MACH", "OUTPUT_OPTION", "MAKE", "MAKEFLAGS", "GNUMAKEFLAGS",
		"MFLAGS", "MAKEFILES", "MAKEOVERRIDES", "MAKELEVEL", "SHELL", "MAKESHELL", "LOADLIBES":
		return true
	}
	return false
}

// wrapperValue returns the value of a, a NAME=VALUE word that env, sudo or systemd-run -E
// is given, whose text after the '=' is v: for a word that is not static nor a glob, with
// what is known of its expansions (a's pieces, the name's letters in the first, and exp),
// which noteDollar reads: `env PATH="$PATH:/x" make` reads a variable, it writes no '$'.
func wrapperValue(a word, v string) word {
	w := word{text: v, static: a.static}
	if !a.static && a.exp != nil && a.exp.glob == nil {
		w.pieces, w.exp = a.pieces, a.exp
	}
	return w
}

// literalDollar reports whether the value of w may hold a '$' that the shell does not
// expand: a static value with one ('${RM}', "\$(CC)", $'\x24x'), a literal run of a word
// that is not static with one ("\${RM}$x"), or a value the analysis does not know (a
// command substitution, ${x:-...}, a glob, a name bound by read: w.exp nil or dyn). A
// word that only reads variables ($HOME, "$DIR/bin") does not: their values are the
// agent's environment, or the line's own bindings, which bindValue checks.
func literalDollar(w word) bool { return dollarText(w) || unknownValue(w) }

// dollarText reports whether w's text holds a '$' the shell does not expand: in a static
// value, or in a literal run of a word that is not static. A '$' that ends the word names
// nothing make could expand (`make test RUN='^TestFoo$'`); one before an expansion does
// ("\$$x": x may be "{RM}").
func dollarText(w word) bool {
	if w.static {
		return strings.IndexByte(strings.TrimSuffix(w.text, "$"), '$') >= 0
	}
	for i, p := range w.pieces {
		t := p.text
		if i == len(w.pieces)-1 {
			t = strings.TrimSuffix(t, "$")
		}
		if !p.hole && strings.IndexByte(t, '$') >= 0 {
			return true
		}
	}
	return false
}

// unknownValue reports whether w, when not static, expands to text the analysis does not
// know: anything but plain variable reads ($x, "${x}/bin") and literal runs.
func unknownValue(w word) bool {
	return !w.static && (w.exp == nil || w.exp.dyn || w.exp.glob != nil || w.pieces == nil)
}

package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A program reads more streams than its standard input: a here-string or here-document
// on any descriptor (3<<< TEXT, 3<<EOF), or the output of a process substitution read by
// < (3< <(printf …)), reaches any program of the statement that opens it by name
// (/dev/fd/3, /proc/self/fd/3), and a stream given to a compound command ({ …; } <<< TEXT,
// a loop, a subshell), piped into one, or opened by `exec 3<<< TEXT` reaches every program
// run in it or after it (red team 4, finding 7: tclsh /dev/fd/3 3<<< 'exec rm -rf x',
// sqlite3 -init /dev/fd/3, make -f /dev/fd/3, groff's .sy, ssh -F's ProxyCommand, gdb -x
// ran commands that no analysis looked at). For deny rules, the stdin rule of
// bashstdin.go is therefore applied to every such stream, wherever it is on the line:
//
//   - the stdin of a simple command is still its own (stdinOf, stdinData);
//   - every other stream the line spells (any descriptor but 0 of any statement, and
//     descriptor 0 of a statement that is not a simple command or is `exec` alone) is
//     ambient: when the line runs any program not known to be inert (a reader), each
//     ambient text is analysed as that program's stdin would be, once as shell (parsed
//     whole or line by line) and once per reader's own language (escapeText: ed's `!`,
//     m4's macros, vim's Ex). Which statement opened which descriptor is not tracked: a
//     text is read for every reader of the line, which errs toward matching.
//
// A text with an expansion (3<<< "exec rm -rf $d") is analysed as its source, the
// expansions as words of unknown value. A stream the line does not spell (3<file, a
// process substitution of another program) is data, like a file's content. Allow rules
// are unchanged.

// ambient is a stream text the line spells outside a simple command's stdin.
type ambient struct {
	in      *input
	depth   int
	shell   bool // analysed as shell code already
	readers int  // the readers (Commands.readers) whose language it was checked for
}

// maxAmbient bounds the ambient streams of one line; more make every deny rule match.
const maxAmbient = 64

// ambientStreams records the stream texts that the statement s, in a script nested depth
// levels deep, spells outside a simple command's stdin (see the top of this file).
func (b *Commands) ambientStreams(s *syntax.Stmt, src string, depth int, br *braces) {
	call, simple := s.Cmd.(*syntax.CallExpr)
	execOnly := simple && len(call.Args) == 1 && len(call.Args[0].Parts) == 1 && literalIs(call.Args[0], "exec")
	own := simple && !execOnly // descriptor 0 is the command's own stdin (stdinOf)
	for _, r := range s.Redirs {
		if own && (r.N == nil || r.N.Value == "0") {
			continue
		}
		b.addAmbient(streamInput(r, src, br), depth)
	}
	if in := b.piped[s]; in != nil && !simple {
		b.addAmbient(in, depth) // echo … | { …; }, echo … | while …; done
	}
}

// literalIs reports whether w is the unquoted literal text t.
func literalIs(w *syntax.Word, t string) bool {
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && l.Value == t
}

// addAmbient records in, when the line spells it, as an ambient stream.
func (b *Commands) addAmbient(in *input, depth int) {
	if in == nil || strings.TrimSpace(in.script) == "" {
		return
	}
	if len(b.ambient) >= maxAmbient {
		b.denyAll = true
		return
	}
	b.ambient = append(b.ambient, &ambient{in: in, depth: depth})
}

// addReader records that the line runs base, a program not known to be inert that may
// open an ambient stream by name.
func (b *Commands) addReader(base string) {
	for _, r := range b.readers {
		if r == base {
			return
		}
	}
	if len(b.readers) >= maxAmbient {
		b.denyAll = true
		return
	}
	b.readers = append(b.readers, base)
}

// settleStreams analyses, for deny rules, every ambient stream for every reader of the
// line (see the top of this file). An analysis may add streams and readers (a text that
// holds a here-document); the loop runs until none is left unread, bounded by
// maxAmbient and maxShellDepth.
func (b *Commands) settleStreams() {
	for changed := true; changed && !b.all && len(b.readers) > 0; {
		changed = false
		for i := 0; i < len(b.ambient) && !b.all; i++ {
			a := b.ambient[i]
			c := ctx{depth: a.depth}
			if !a.shell {
				a.shell, changed = true, true
				b.stdinText(a.in.script, c)
			}
			for ; a.readers < len(b.readers) && !b.all; a.readers++ {
				changed = true
				base := b.readers[a.readers]
				if mayBeShell(base, base, []word{{text: base}}) {
					b.codeString(a.in.script, c)
				}
				if makeProgram(base) && strings.IndexByte(a.in.script, '$') >= 0 {
					b.denyAll = true // a makefile it expands (-f /dev/fd/3: bashmake.go)
				}
				b.escapeText(base, a.in, c)
			}
		}
	}
}

// streamValue reports whether v, a value assigned to a variable, names a stream the line
// may write: a /dev/fd/N, /dev/stdin or /proc/…/fd/N path (streamPath, "-" aside), or a
// process substitution. A program reads such a variable as the name of a file of code or
// settings (LESSKEYIN and LESSKEY for less's #env LESSOPEN, WGETRC, RIPGREP_CONFIG_PATH's
// --pre, VIMINIT's and EXINIT's files, …), which no list can hold: the line then matches
// every deny rule (red team 4, finding 8: LESSKEYIN=/dev/fd/3 less x 3<<< …).
func streamValue(v word) bool {
	if v.static {
		return v.text != "-" && v.text != "" && streamPath(v.text)
	}
	return strings.Contains(v.text, "<(") || strings.Contains(v.text, ">(") || streamPath(v.text)
}

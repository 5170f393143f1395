package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shell analyses the arguments of a shell (sh, bash, dash, zsh, ksh, ...): its options,
// where -o, +o, -O, +O, --rcfile, --init-file and --emulate take an argument and "--" or
// "-" ends them, then its script. With -c (alone or in a group such as -ec) the script is
// the first operand; with -s or no operand it is read from stdin; otherwise the first
// operand is a script file, whose content is unknown and is not looked into, unless it is
// stdin (/dev/stdin) or a descriptor (/dev/fd/3, as from a <(...) process substitution),
// which match every rule unless stdin is a static here-document or here-string. A word
// among the options that is not static ($FLAGS may be -c) matches every rule.
func (b *Commands) shell(args []word, c ctx) {
	cflag, sflag := false, false
	i := 0
options:
	for ; i < len(args); i++ {
		if !args[i].static {
			b.all = true
			return
		}
		t := args[i].text
		switch {
		case t == "--" || t == "-":
			i++
			break options
		case strings.HasPrefix(t, "--"):
			if zshRiskyOption(word{text: t[2:], static: true}) {
				b.all = true // zsh --globsubst (zsh.go)
				return
			}
			if t == "--rcfile" || t == "--init-file" || t == "--emulate" {
				i++
				if t != "--emulate" && (i >= len(args) || !args[i].static || args[i].text != "/dev/null") {
					b.all = true // an interactive shell sources the file: its content is unknown
					return
				}
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for j := 1; j < len(t); j++ {
				switch t[j] {
				case 'c':
					cflag = true
				case 's':
					sflag = true
				case 'H', 'i': // histexpand, interactive: history expansion (bashexpand.go)
					b.expand.histOn = true
				case 'o', 'O':
					if i++; i < len(args) && !args[i].static {
						b.all = true
						return
					}
					if i < len(args) && t[j] == 'o' && histOption(args[i]) {
						b.expand.histOn = true
					}
					if i < len(args) && t[j] == 'o' && zshRiskyOption(args[i]) {
						b.all = true // zsh -o globsubst (zsh.go)
						return
					}
				}
			}
		default:
			break options
		}
	}
	var rest []word
	if i < len(args) {
		rest = args[i:]
	}
	switch {
	case cflag && len(rest) > 0:
		if len(rest) > 2 { // sh -c SCRIPT NAME ARGS: ARGS are the positional parameters
			b.eval.positional = true
		}
		b.script(rest[0], c)
	case c.xargs && (cflag || sflag || len(rest) == 0): // xargs appends the script
		b.all = true
	case cflag: // no script: an error
	case sflag || len(rest) == 0:
		b.stdinShell(c)
	default:
		b.scriptFile(rest[0], c)
	}
}

// scriptFile analyses the script file that a shell or `source` reads (see shell).
func (b *Commands) scriptFile(w word, c ctx) {
	t := w.text
	switch {
	case !w.static:
		b.all = true
	case t == "/dev/stdin" || t == "/dev/fd/0" || t == "/proc/self/fd/0":
		b.stdinShell(c)
	case stdinPath(t):
		// The terminal or a standard stream however spelled (/dev/tty, /dev/pts/0,
		// //dev/tty, /dev/./stdin, /dev/stdout): a script typed later, which no hook sees
		// (red team round 43, with the real Codex: `bash /dev/tty`, then write_stdin).
		b.all = true
	case strings.HasPrefix(t, "/dev/fd/") || strings.HasPrefix(t, "/proc/") && strings.Contains(t, "/fd/"):
		b.all = true
	}
}

// stdinShell analyses a shell that reads its script from stdin: a static here-document or
// here-string on the command is parsed as a script; anything else (a pipe, a file, the
// agent's own stdin) is unknown and matches every rule.
func (b *Commands) stdinShell(c ctx) {
	switch {
	case c.in == nil || c.in.pipe || c.in.source: // for deny rules only: unknown here
		b.all = true
	case !c.in.read: // read once: a second read adds the same texts
		c.in.read = true
		b.collect(c.in.script, c.depth+1)
	}
}

// source analyses `source FILE` and `. FILE`: see scriptFile.
func (b *Commands) source(args []word, c ctx) {
	if len(args) > 0 && args[0].text == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return
	}
	if c.tail && !args[0].static {
		// A suffix of a program's words: `go run . "$x"` is go's package and operand, and a
		// program that hands the words to a shell (watch . "$x") sources a file named by
		// the variable in that shell: a file's content, as `awk -f "$f"` reads one, when
		// the line does not set the variable (programFile, settleDeny). Red team round 64's
		// false positive: go run . "$x" matched every deny rule.
		b.programFile(args[0])
		return
	}
	b.scriptFile(args[0], c)
}

// trap analyses `trap [-lpP] [--] ACTION SIGNAL...`: ACTION is a script that runs later.
func (b *Commands) trap(args []word, c ctx) {
	i := 0
	for i < len(args) && len(args[i].text) > 1 && args[i].text[0] == '-' {
		i++
		if args[i-1].text == "--" {
			break
		}
	}
	ops := args[i:]
	if len(ops) < 2 || ops[0].static && ops[0].text == "-" {
		return // a reset, or a listing
	}
	b.script(ops[0], c)
}

// aliasDef is one alias definition.
type aliasDef struct {
	value   string
	words   []word // the value's words, when it is one simple command
	blank   bool   // the value ends in a blank: the word after it is also an alias
	complex bool   // the value is not static, not one simple command, or was defined twice
	hash    bool   // hash -p: any command named NAME runs the value, quoted or not
}

// alias analyses `alias NAME=VALUE...`: a command whose first word is NAME is also matched
// with NAME replaced by VALUE (see expandAlias), so `alias x='rm -rf'; x X` matches
// Bash(rm *). The definition alone runs nothing.
func (b *Commands) alias(args []word) {
	for _, a := range args {
		if !a.static {
			b.all = true // it may define any alias
			return
		}
		if strings.HasPrefix(a.text, "-") && a.text != "-p" && a.text != "--" {
			b.all = true // zsh's alias -g (expanded anywhere) and -s (by file suffix)
			return
		}
		name, value, ok := strings.Cut(a.text, "=")
		if !ok || name == "" || strings.HasPrefix(a.text, "-") {
			continue
		}
		b.define(name, value)
		if b.all {
			return
		}
	}
}

// define records the alias name=value.
func (b *Commands) define(name, value string) {
	if old, ok := b.aliases[name]; ok {
		if old.value != value {
			old.complex = true
		}
		return
	}
	if b.second { // the first pass saw every definition
		b.all = true
		return
	}
	if b.aliases == nil {
		b.aliases = make(map[string]*aliasDef)
	}
	d := &aliasDef{value: value, complex: true}
	d.blank = strings.HasSuffix(value, " ") || strings.HasSuffix(value, "\t")
	if f, ok := parse(value); ok && aliasStandsAlone(value) {
		switch {
		case len(f.Stmts) == 0:
			d.complex = false
		case len(f.Stmts) == 1:
			s := f.Stmts[0]
			call, ok := s.Cmd.(*syntax.CallExpr)
			if ok && len(call.Assigns) == 0 && len(s.Redirs) == 0 && !s.Negated && !s.Background && !s.Coprocess {
				words, ok := renderArgs(call.Args, value, &braces{script: value, line: &b.braceWords})
				d.words, d.complex = words, !ok
			}
		}
	}
	b.aliases[name] = d
}

// expandAlias adds the command "NAME rest..." whose first word NAME is the alias d, with
// NAME replaced by d's value, one nesting level deeper: the shell may expand it (aliases are on
// in sh, zsh and interactive bash), and the command is matched as written too. After a value
// that ends in a blank the next word is expanded as well, as the shell does. An alias whose
// value is not one static simple command matches every rule.
func (b *Commands) expandAlias(d *aliasDef, rest []word, c ctx, name string) {
	if d.complex || c.depth+1 > maxShellDepth || !b.grow(len(d.value)) {
		b.all = true
		return
	}
	out := slices.Clone(d.words)
	for n := 0; d.blank && len(rest) > 0 && rest[0].plain; n++ {
		next, ok := b.aliases[rest[0].text]
		if !ok {
			break
		}
		if next.complex || n >= maxWrappers || !b.grow(len(next.value)) {
			b.all = true
			return
		}
		out, d, rest = append(out, next.words...), next, rest[1:]
	}
	out = append(out, rest...)
	if len(out) == 0 {
		return
	}
	if out[0].text == name { // alias ls='ls -l': the shell does not expand ls again
		out[0].plain = false
	}
	c.depth++
	b.addCall(out, c)
}

// stdinOf returns the standard input that a statement's redirections give its command:
// the last redirection of descriptor 0 wins; a here-document or here-string is its text
// (streamInput), anything else is unknown. redirected tells whether any redirection of
// descriptor 0 was found (a pipe's input then does not reach the command).
func stdinOf(redirs []*syntax.Redirect, src string, br *braces) (in *input, redirected bool) {
	for _, r := range redirs {
		switch {
		case r.N != nil && r.N.Value == "0":
		case r.N == nil && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut || r.Op == syntax.DplIn ||
			r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc):
		default:
			continue
		}
		in, redirected = streamInput(r, src, br), true
	}
	return in, redirected
}

// streamInput returns the text a redirection r gives a descriptor when the line spells it,
// or nil: a here-document's body (heredoc), a here-string's word and newline, or the output
// of an echo or printf in a process substitution read by < (pipeOutput: for deny rules
// only). A here-document or here-string with an expansion is its source text, for deny
// rules only (input.source).
func streamInput(r *syntax.Redirect, src string, br *braces) *input {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		if in := heredoc(r); in != nil {
			return in
		}
		if r.Hdoc != nil {
			return &input{script: sourceOf(r.Hdoc, src), source: true}
		}
	case syntax.WordHdoc:
		w := renderWord(r.Word, src)
		return &input{script: w.text + "\n", source: !w.static}
	case syntax.RdrIn:
		if len(r.Word.Parts) == 1 {
			if p, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && p.Op == syntax.CmdIn && len(p.Stmts) == 1 {
				return pipeOutput(p.Stmts[0], src, br)
			}
		}
	}
	return nil
}

// heredoc returns the body of a here-document: as written when its delimiter is quoted
// (<<'EOF'), else with the backslash escapes of $ ` \ and newline removed; a body with an
// expansion ($X, $(cmd)) is not static: nil.
func heredoc(r *syntax.Redirect) *input {
	quoted := false
	for _, p := range r.Word.Parts {
		if l, ok := p.(*syntax.Lit); !ok || strings.ContainsRune(l.Value, '\\') {
			quoted = true
		}
	}
	if r.Hdoc == nil {
		return &input{}
	}
	var sb strings.Builder
	for _, p := range r.Hdoc.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return nil
		}
		if quoted {
			sb.WriteString(l.Value)
		} else {
			sb.WriteString(unescape(l.Value, func(c byte) bool { return strings.IndexByte("$`\\\n", c) >= 0 }))
		}
	}
	return &input{script: sb.String()}
}

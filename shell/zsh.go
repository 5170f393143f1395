package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The line may run in zsh, whatever the analysis parses it as (red team round 45, F3;
// docs/decisions.md, "Commands that zsh runs"): Claude Code runs its Bash tool in zsh when
// CLAUDE_CODE_SHELL or SHELL names zsh, and when SHELL names neither bash nor zsh and zsh
// is installed; Codex's exec_command takes the shell from the model, which the hook input
// does not carry. The analysis parses every line as bash and cannot know which shell runs
// it, so the zsh shapes that run code or change which command runs, and that bash parses
// as something inert, are read as zsh runs them or make the line opaque (Opaque: every
// deny rule matches, no allow rule permits), in every line and every script the line
// runs. Each shape was run under zsh 5.9:
//
//   - A glob qualifier: zsh reads a group "(...)" at the end of a pattern as qualifiers,
//     and e:CODE:, e{CODE}, e[CODE], +FUNC run code for each file (echo *(e:'rm -rf
//     d':)); with extendedglob, (#q...) too. Every group bash parses as an extglob (?( *(
//     +( @( !(), wherever zsh generates file names: arguments, arrays, redirections, loops, [[ -n ]]
//     operands, assignments (globassign). Not a case pattern or the pattern of [[ == ]],
//     [[ != ]] or [[ =~ ]], which zsh matches without generating file names (extglobOK).
//     Inside ${x:-WORD} (and :+ - + :? ? := =) the parser reads no extglob, but zsh
//     generates file names from WORD: an unquoted WORD with a '(' counts too. A group
//     after a plain word (a(e:...:)) does not parse as bash: opaque already.
//   - Parameter flags bash reads as text: $=x (split), $~x (glob: a value that holds a
//     qualifier runs it), $^x; in a word or in double quotes (zshParamFlag). ${=x},
//     ${~x}, ${(e)x}, =(...) and zsh's other syntax do not parse as bash.
//   - Equals expansion: a command name that starts with '=' (=rm, ="rm", =r''m; not ==)
//     is the path of the command after it, looked up in the command hash table (hash
//     NAME=PATH) but not among aliases. It is read as a wrapper is (zshEquals in
//     addCall): the name as written is a text and a unit, then the command after the
//     '=' is analysed, so =rm -rf d matches Bash(rm *) and an allow rule must permit
//     "=rm -rf d" too.
//
// What this leaves to the rest of the engine: zsh's precommand modifiers (noglob,
// nocorrect, -), repeat, emulate -c, zpty and zargs are programs not known to be inert,
// whose suffixes and operands are read as code (bashtail.go); aliases are expanded as
// bash's are (bashshell.go); zsh's own syntax (always, foreach, for x (...), &!, {...}
// without ';') does not parse as bash.

// zshWord checks one node of a parsed script for the zsh shapes above: an extglob group
// outside a pattern (pattern tells that n is inside a case pattern or the pattern of a
// [[ ]] match), the word of an unquoted ${x:-WORD} with a '(' (dq tells that n is inside
// double quotes), and a parameter flag in a word or a double-quoted string. It reports
// whether the line is opaque.
func zshWord(n syntax.Node, pattern, dq bool) bool {
	switch n := n.(type) {
	case *syntax.ExtGlob:
		return !pattern
	case *syntax.ParamExp:
		return !dq && !pattern && n.Exp != nil && n.Exp.Word != nil && wordOp(n.Exp.Op) &&
			slices.ContainsFunc(n.Exp.Word.Parts, func(p syntax.WordPart) bool {
				l, ok := p.(*syntax.Lit)
				return ok && strings.Contains(l.Value, "(")
			})
	case *syntax.Word:
		return zshParamFlag(n.Parts)
	case *syntax.DblQuoted:
		return zshParamFlag(n.Parts)
	}
	return false
}

// wordOp reports whether op, the operator of ${x OP WORD}, makes WORD a word of the
// command (:- - :+ + :? ? := =) rather than a pattern (# % and the others).
func wordOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// extglobOK returns the words of n in which zsh matches a pattern without generating
// file names: the patterns of a case item, and the right side of [[ == ]], [[ = ]],
// [[ != ]] and [[ =~ ]].
func extglobOK(n syntax.Node) []*syntax.Word {
	switch n := n.(type) {
	case *syntax.CaseItem:
		return n.Patterns
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch, syntax.TsReMatch:
			if w, ok := n.Y.(*syntax.Word); ok {
				return []*syntax.Word{w}
			}
		}
	}
	return nil
}

// zshParamFlag reports whether parts, the parts of a word or of a double-quoted string,
// hold $=, $~ or $^ followed by a byte that is not a blank, the '$' not escaped by a
// backslash: zsh expands $=x, $~x and $^x where bash reads the text as it is written. The
// parser splits "$=x" into the literals "$" and "=x", so adjacent literals are joined
// first.
func zshParamFlag(parts []syntax.WordPart) bool {
	var run strings.Builder
	flush := func() bool {
		s := run.String()
		run.Reset()
		for i := 0; i+2 < len(s); i++ {
			switch {
			case s[i] == '\\':
				i++ // the byte after it is escaped
			case s[i] == '$' && strings.IndexByte("=~^", s[i+1]) >= 0 && strings.IndexByte(" \t\n", s[i+2]) < 0:
				return true
			}
		}
		return false
	}
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok {
			run.WriteString(l.Value)
			continue
		}
		if flush() {
			return true
		}
	}
	return flush()
}

// zshEquals reports whether name, a static command name, is one zsh's equals expansion
// replaces by a command's path: it starts with '=' and the next byte is not '='.
func zshEquals(name string) bool {
	return len(name) > 1 && name[0] == '=' && name[1] != '='
}

// zsh also changes which command runs, or reads a value as a pattern, through state the
// line sets. Each of these makes the line opaque (checked with zsh 5.9):
//
//   - Options (zshRiskyOption): globsubst makes the value of every unquoted expansion a
//     pattern (x=$(cat f); setopt globsubst; echo $x runs a qualifier held in f), braceccl
//     makes {p}ush the word push, and bareglobqual, extendedglob, equals, magicequalsubst,
//     globassign, shglob, kshglob and promptsubst turn qualifiers, =cmd and prompt
//     substitution back on where Claude Code turns them off (it runs `setopt
//     NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST NO_EQUALS`
//     before each command) or where an emulation (emulate sh turns globsubst on) left
//     them off. They are set by setopt and unsetopt (any case, '_' ignored, a "no"
//     prefix, -m patterns), set -o, emulate -o, a shell's -o or --NAME, and the options
//     table.
//   - The tables of zsh/parameter (zshTable): commands[ls]=/bin/rm makes ls run rm,
//     aliases[x]=..., functions[x]=..., options[globsubst]=on; subscripted, as an array
//     (commands=(ls /bin/rm)) or read into. A scalar assignment is an error in zsh and
//     stays a plain variable (options="-v" is common in bash).
//   - hash NAME=PATH, zsh's spelling of bash's hash -p PATH NAME, is read as it is
//     (basheval.go).
//   - Files zsh sources or loads: $ZDOTDIR/.zshenv for every zsh started (as BASH_ENV),
//     and the modules zmodload loads from $module_path (zmodload takes a module name,
//     not a path: zmodload ./evil is refused); and $NULLCMD or $READNULLCMD, the command
//     zsh runs for a line that is only a redirection, when the line sets it to a value
//     not known (a static value is read as a command line, as every value is).

// zshRisky reports whether name, a zsh option name lower case and without '_', is one of
// the options above.
func zshRisky(name string) bool {
	switch name {
	case "globsubst", "braceccl", "bareglobqual", "extendedglob", "equals", "magicequalsubst",
		"globassign", "shglob", "kshglob", "promptsubst":
		return true
	}
	return false
}

// zshRiskyOption reports whether w, a word that names a zsh option, may name one zshRisky
// accepts: it is not static, holds a pattern byte, or names one once lower-cased, stripped
// of '_' and '-' (zsh --glob-subst) and of a leading "no".
func zshRiskyOption(w word) bool {
	if !w.static {
		return true
	}
	t := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(w.text))
	return strings.ContainsAny(t, "*?[<(") || zshRisky(t) || zshRisky(strings.TrimPrefix(t, "no"))
}

// zshSetopt analyses setopt and unsetopt: every word is an option name, or a flag group
// where m makes the names patterns.
func (b *Commands) zshSetopt(args []word) {
	for _, a := range args {
		if a.static && len(a.text) > 1 && (a.text[0] == '-' || a.text[0] == '+') {
			if strings.Contains(a.text, "m") {
				b.all = true
				return
			}
			continue
		}
		if zshRiskyOption(a) {
			b.all = true
			return
		}
	}
}

// zshOptionArgs analyses the words of set and emulate: the word after a flag group that
// ends in o (-o, +o, -eo) is an option name. It stops at -c (emulate's code, analysed as
// an operand) and, for set, at the first word that is not a flag group.
func (b *Commands) zshOptionArgs(args []word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			b.all = true
			return
		}
		t := a.text
		if t == "-c" || t == "--" {
			return
		}
		if len(t) > 1 && (t[0] == '-' || t[0] == '+') && t[1] != '-' && t[len(t)-1] == 'o' {
			if i++; i < len(args) && zshRiskyOption(args[i]) {
				b.all = true
				return
			}
		}
	}
}

// zshTable reports whether name is one of zsh/parameter's tables of commands, aliases,
// functions and options (see above).
func zshTable(name string) bool {
	switch name {
	case "commands", "aliases", "galiases", "saliases", "functions", "options",
		"dis_aliases", "dis_galiases", "dis_saliases", "dis_functions":
		return true
	}
	return false
}

// zshRead analyses read's words for zsh's read -A, which reads an array: into one of
// zshTable, key and value pairs (read -A commands <<< 'ls /bin/rm').
func (b *Commands) zshRead(args []word) {
	array := false
	for _, a := range args {
		if strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "A") {
			array = true
		}
		if array && zshTable(baseName(a.text)) {
			b.all = true
			return
		}
	}
}

package shell

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Bash re-reads some strings as code (issue 10 item 3): arithmetic evaluates a variable's
// value as an expression and expands an array subscript in it (x='a[$(rm -rf X)]'; (( x ))
// runs rm), a name given to declare, read, printf -v, test -v, unset or ${!x} may be a
// subscripted name, prompt strings and $PROMPT_COMMAND are expanded or run, BASH_ENV and
// ENV name (and expand) a file a shell sources, and some builtins take a command
// (mapfile -C, complete -C, bind -x). The principle: a word that can reach such a context
// and is not provably inert (a static text with no '$', '`' or '[') is analysed as a nested
// script when it is a static string, and otherwise makes the line match every rule (deny)
// and be allowed by none (allow): the hook runs and decides.
//
// Values are tracked for the whole line, not per variable: tainted records that some
// variable may hold a value that is not inert (an assignment, read, mapfile, for list,
// ${x:=...}, a function's or set's arguments, a sourced file); varSink that a context above
// evaluates some variable's value. A line with both matches every rule. Variables the line
// does not set come from the agent's environment, which the model does not write.

// inert reports whether w is a static text with no '$', '`' or '[': a value that no
// evaluation turns into code.
func inert(w word) bool { return w.static && !strings.ContainsAny(w.text, "$`[") }

// evalState is what the line's evaluating contexts and bindings found (see above).
type evalState struct {
	tainted    bool // a variable may hold a value that is not inert
	varSink    bool // an evaluating context reads a variable's value
	argData    bool // a command has an argument that is not inert
	positional bool // arguments become positional parameters: functions, set, sh -c S ARGS

	// escTainted records that a variable may hold a value that is not static or has a
	// backslash, escSink that a context decodes a variable's backslash escapes before
	// reading it as code: ${x@P} anywhere (prompt expansion decodes \044 to '$', then
	// expands $(...) and `...`), ${x@E} in arithmetic (\x5b is '[', a subscript that is
	// expanded). A line with both matches every rule (red team, round 5, finding 1).
	escTainted bool
	escSink    bool
}

// settle applies the line-level rules at the end of the analysis: the evaluating contexts'
// (settleEval), then the deny-only analyses' (settleDeny).
func (b *Commands) settle() {
	b.settleEval()
	b.settleExpand()
	if !b.all {
		b.settleStreams()
	}
	if !b.all {
		b.settleDeny()
	}
}

// settleEval applies the rule of the evaluating contexts: a tainted variable read by one
// makes the line opaque.
func (b *Commands) settleEval() {
	e := &b.eval
	if e.argData && e.positional {
		e.tainted = true
	}
	if e.tainted && e.varSink || (e.tainted || e.escTainted) && e.escSink {
		b.all = true
	}
}

// bind records a value bound to a variable.
func (b *Commands) bind(w word) {
	if !inert(w) {
		b.eval.tainted = true
	}
	if !w.static || strings.ContainsRune(w.text, '\\') {
		b.eval.escTainted = true
	}
}

// arith examines an arithmetic expression: a number is inert; a name or a parameter
// expansion reads a variable (varSink); a command substitution's output is evaluated
// (matches every rule); a quoted static string is analysed as the expression it holds.
// Nested arithmetic and parameter expansions are examined when the walk reaches them.
func (b *Commands) arith(x syntax.Node, c ctx) {
	if x == nil || b.all {
		return
	}
	syntax.Walk(x, func(n syntax.Node) bool {
		if b.all {
			return false
		}
		switch n := n.(type) {
		case *syntax.Lit:
			if n.Value != "" && isIdentByte(n.Value[0], true) {
				b.eval.varSink = true
				b.derived(identPrefix(n.Value))
				b.markUnknown(identPrefix(n.Value)) // (( x = 5 )), x++: a value not tracked (bashvalues.go)
			}
		case *syntax.ParamExp:
			b.eval.varSink = true
			if op := paramOp(n); op == "E" || op == "P" {
				b.eval.escSink = true
			}
			if n.Param != nil {
				b.derived(n.Param.Value)
			}
			b.operands(n)
			return false
		case *syntax.CmdSubst, *syntax.ProcSubst:
			b.all = true
			return false
		case *syntax.SglQuoted:
			if n.Dollar {
				b.all = true
			} else {
				b.arithText(n.Value, c)
			}
			return false
		case *syntax.DblQuoted:
			if text, ok := litParts(n.Parts); ok && !n.Dollar {
				b.arithText(text, c)
				return false
			}
		case *syntax.ArithmExp:
			return n == x
		}
		return true
	})
}

// litParts returns the text of parts when all are literals.
func litParts(parts []syntax.WordPart) (string, bool) {
	var sb strings.Builder
	for _, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		sb.WriteString(unescape(l.Value, func(c byte) bool { return strings.IndexByte("$`\"\\\n", c) >= 0 }))
	}
	return sb.String(), true
}

// arithText analyses text, a static string bash evaluates as an arithmetic expression, as
// the script "(( text ))" one level deeper (a text that breaks out of the parentheses is
// analysed as the commands it then spells, which errs toward matching).
func (b *Commands) arithText(text string, c ctx) {
	if !strings.ContainsAny(text, "$`[") && !hasIdent(text) {
		return
	}
	b.script(word{text: "(( " + text + " ))", static: true}, c)
}

// arithWord analyses a shell word that bash evaluates as an arithmetic expression.
func (b *Commands) arithWord(w word, c ctx) {
	if w.static {
		b.arithText(w.text, c)
		return
	}
	b.all = true
}

// hasIdent reports whether text holds a letter or '_': a name, whose value arithmetic reads.
func hasIdent(text string) bool {
	for i := 0; i < len(text); i++ {
		if isIdentByte(text[i], true) {
			return true
		}
	}
	return false
}

// nameSink analyses w, a word bash uses as a variable name (declare, read, printf -v,
// test -v, unset, a nameref's target): a subscripted name's subscript is evaluated.
func (b *Commands) nameSink(w word, c ctx) {
	switch {
	case inert(w):
	case w.static:
		name, _, _ := strings.Cut(w.text, "=")
		if strings.ContainsAny(name, "$`[") {
			b.arithText(name, c)
		}
	default:
		b.all = true
	}
}

// bindName analyses w, a name that read, mapfile, getopts, printf -v or wait -p binds
// data to: a name (nameSink), and one whose value bash runs (read PS4, printf -v BASH_ENV)
// matches every rule.
func (b *Commands) bindName(w word, c ctx) {
	if w.static {
		name, _, _ := strings.Cut(w.text, "[")
		b.bindVar(name)
	} else {
		b.anyBound = true
	}
	if w.static && (specialVar(baseName(w.text)) || strings.Contains(w.text, "[") && zshTable(baseName(w.text))) {
		b.all = true
		return
	}
	b.nameSink(w, c)
}

// assign analyses one assignment of a parsed script: its subscript, its value (a binding)
// and the variables whose value bash runs or sources.
func (b *Commands) assign(a *syntax.Assign, src string, c ctx) {
	if a.Index != nil {
		b.arith(a.Index, c)
	}
	if a.Naked || a.Name == nil {
		return
	}
	if a.Array != nil {
		if specialVar(a.Name.Value) || zshTable(a.Name.Value) {
			b.all = true
		}
		return // the elements are examined when the walk reaches them
	}
	v := word{static: true}
	if a.Value != nil {
		v = renderWord(a.Value, src)
	}
	b.bind(v)
	if a.Index != nil && zshTable(a.Name.Value) {
		b.all = true // commands[ls]=/bin/rm (zsh.go)
		return
	}
	b.special(a.Name.Value, v, c)
}

// intVar reports whether bash evaluates a value assigned to the variable name as an
// arithmetic expression: its integer variables RANDOM, SRANDOM, OPTIND and HISTCMD.
func intVar(name string) bool {
	switch name {
	case "RANDOM", "SRANDOM", "OPTIND", "HISTCMD":
		return true
	}
	return false
}

// specialVar reports whether bash or zsh runs, sources or expands the value of the
// variable name (see special), or bash looks commands up in it (cmdTable). zsh's tables
// (zshTable) are special only as arrays or subscripted: see their callers.
func specialVar(name string) bool {
	switch name {
	case "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4",
		"ZDOTDIR", "MODULE_PATH", "module_path", "NULLCMD", "READNULLCMD":
		return true
	}
	return intVar(name) || cmdTable(name) || strings.HasPrefix(name, "BASH_FUNC_")
}

// cmdTable reports whether name is one of bash's command tables: BASH_CMDS (the hash
// table: BASH_CMDS[ls]=/bin/rm makes ls run rm) and BASH_ALIASES (BASH_ALIASES[x]='rm
// -rf' defines the alias x). An assignment to them in any form (subscripted, compound,
// declare, read, printf -v, mapfile, a nameref) makes the line opaque (red team 2,
// finding 1): unlike `alias` and `hash -p`, whose words the engine expands, these are
// bound through subscripts and arrays whose values are not tracked.
func cmdTable(name string) bool { return name == "BASH_CMDS" || name == "BASH_ALIASES" }

// baseName returns the variable name of a possibly subscripted name ("A" of "A[k]").
func baseName(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		return name[:i]
	}
	return name
}

// special analyses the value v assigned to name when bash runs, sources or expands it:
// BASH_ENV and ENV (a file a shell sources, its name expanded first) and BASH_FUNC_*
// (exported functions, from env) match every rule unless empty; PROMPT_COMMAND is a script;
// a prompt string PS0-PS4 (expanded, PS4 by set -x) that holds '$', '`' or '\' matches
// every rule. For zsh (zsh.go): ZDOTDIR, MODULE_PATH and module_path as BASH_ENV, NULLCMD
// and READNULLCMD when not static, and a subscripted name of zshTable (commands[ls]).
func (b *Commands) special(name string, v word, c ctx) {
	sub := strings.Contains(name, "[")
	name = baseName(name)
	switch {
	case cmdTable(name), sub && zshTable(name):
		b.all = true
	case name == "BASH_ENV" || name == "ENV" || strings.HasPrefix(name, "BASH_FUNC_") ||
		name == "ZDOTDIR" || name == "MODULE_PATH" || name == "module_path":
		if !v.static || v.text != "" {
			b.all = true
		}
	case name == "NULLCMD" || name == "READNULLCMD":
		if !v.static {
			b.all = true // a static value is read as a command line (bashenv.go)
		}
	case name == "PROMPT_COMMAND":
		b.script(v, c)
	case intVar(name):
		b.arithWord(v, c)
	case len(name) == 3 && strings.HasPrefix(name, "PS") && name[2] >= '0' && name[2] <= '4':
		if !v.static || strings.ContainsAny(v.text, "$`\\") {
			b.all = true
		}
	}
}

// paramExp analyses a parameter expansion: its subscript and substring offsets are
// arithmetic, ${!x} uses x's value as a name, ${x@P} expands x's value as a prompt, and
// ${x:=v} binds v.
func (b *Commands) paramExp(p *syntax.ParamExp, src string, c ctx) {
	if p.Index != nil {
		b.arith(p.Index, c)
	}
	if p.Slice != nil {
		b.arith(p.Slice.Offset, c)
		b.arith(p.Slice.Length, c)
	}
	if p.Excl && p.Names == 0 && !isAllIndex(p.Index) {
		b.eval.varSink = true
		if p.Param != nil {
			b.derived(p.Param.Value)
		}
	}
	if p.Exp != nil {
		switch p.Exp.Op {
		case syntax.OtherParamOps:
			if op := paramOp(p); op == "" || op == "P" {
				b.eval.varSink = true
				b.eval.escSink = true
				if p.Param != nil {
					b.derived(p.Param.Value)
				}
			}
		case syntax.AssignUnset, syntax.AssignUnsetOrNull:
			v := word{static: true}
			if p.Exp.Word != nil {
				v = renderWord(p.Exp.Word, src)
			}
			b.bind(v)
			if p.Param != nil {
				b.bindVar(p.Param.Value)
				b.special(p.Param.Value, v, c)
			}
		}
	}
}

// paramOp returns the operator of a ${x@OP} transformation (P, E, Q, A, ...): "" when the
// operator is not a static word, "-" when p is not such an expansion.
func paramOp(p *syntax.ParamExp) string {
	if p.Exp == nil || p.Exp.Op != syntax.OtherParamOps {
		return "-"
	}
	if p.Exp.Word == nil {
		return ""
	}
	if w := renderWord(p.Exp.Word, ""); w.static {
		return w.text
	}
	return ""
}

// shellDerived are the variables bash itself fills from what the line or the place it runs
// in holds: the last argument ($_), regex matches, alias and hash tables, the working
// directory (a repository's directory may be named '$(rm -rf x)'), the directory stack, the
// current command, function and source names, read's and mapfile's defaults, completion and
// readline state, and the positional parameters. None is "the agent's environment", so
// when an evaluating context (arithmetic, ${x@P}, ${!x}) reads one, its value is not known
// to be inert (red-team findings: echo $(($_)), ${PWD@P} after cd '$(...)',
// $((BASH_REMATCH)), $((BASH_ALIASES[v]))).
var shellDerived = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"_": true, "BASH_REMATCH": true, "BASH_ALIASES": true, "BASH_CMDS": true, "BASH_COMMAND": true,
		"BASH_ARGV": true, "BASH_ARGC": true, "BASH_SOURCE": true, "BASH_EXECUTION_STRING": true,
		"FUNCNAME": true, "PWD": true, "OLDPWD": true, "DIRSTACK": true, "REPLY": true, "MAPFILE": true,
		"READLINE_LINE": true, "COMP_LINE": true, "COMP_WORDS": true, "COMPREPLY": true,
		"@": true, "*": true, "#": true, "0": true, "1": true, "2": true, "3": true, "4": true,
		"5": true, "6": true, "7": true, "8": true, "9": true,
	}
})

// derived makes the line match every rule when an evaluating context reads a variable that
// bash fills itself (see shellDerived()).
func (b *Commands) derived(name string) {
	if shellDerived()[name] {
		b.all = true
	}
}

// identPrefix is the leading identifier of an arithmetic literal ("BASH_REMATCH" of
// "BASH_REMATCH[1]").
func identPrefix(s string) string {
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i], i == 0) {
			return s[:i]
		}
	}
	return s
}

// operands treats the words inside a parameter expansion read by an evaluating context —
// ${x:-WORD}, ${x+WORD}, ${x=WORD}, ${x/PAT/REP} — as values that reach it: one that is not
// inert makes the line match every rule (red-team finding: echo $((${x:-'a[$(rm -rf x)]'}))).
func (b *Commands) operands(p *syntax.ParamExp) {
	var words []*syntax.Word
	if p.Exp != nil && p.Exp.Word != nil {
		words = append(words, p.Exp.Word)
	}
	if p.Repl != nil {
		words = append(words, p.Repl.Orig, p.Repl.With)
	}
	for _, w := range words {
		if w == nil {
			continue
		}
		if v := renderWord(w, ""); !inert(v) {
			b.all = true
			return
		}
	}
}

// isAllIndex reports whether x is the subscript @ or * (${!a[@]} lists keys).
func isAllIndex(x syntax.ArithmExpr) bool {
	w, ok := x.(*syntax.Word)
	if !ok || len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && (l.Value == "@" || l.Value == "*")
}

// decl analyses declare, typeset, local, export, readonly and nameref (the command name
// variant), parsed or run as a command (builtin declare ...): flags, then names and
// NAME=value words. A name may be subscripted; -n makes the value a name, -i makes it
// arithmetic; a word that is not static may be any of these.
//
// A nameref declared without a target (declare -n r, local -n r, typeset -n r s) gets its
// target later, from whatever the line assigns to it (r='a[$(rm -rf x)]', read r, printf
// -v r, for r in ..., ${r:=...}), and each use of r then evaluates that name, subscript
// included (red team: declare -n r; r='a[$(rm -rf ~/x)]'; : $r runs rm). The engine does
// not track values per variable, so such a declaration makes the line match every rule.
// A nameref with a literal target (declare -n r=x) is a name like any other.
func (b *Commands) decl(variant string, args []word, parsed []*syntax.Assign, src string, c ctx) {
	nameref := variant == "nameref"
	reaches := variant == "export" // the values reach programs' environment (bashenv.go)
	for _, a := range args {
		if a.static && len(a.text) > 1 && a.text[0] == '-' && strings.Contains(a.text, "x") {
			reaches = true
		}
	}
	if variant != "export" && variant != "readonly" {
		for _, a := range args {
			if a.static && len(a.text) > 1 && (a.text[0] == '-' || a.text[0] == '+') && a.text != "--" &&
				strings.Contains(a.text[1:], "n") {
				nameref = true
			}
		}
	}
	for _, a := range args {
		if nameref || a.static && len(a.text) > 1 && (a.text[0] == '-' || a.text[0] == '+') &&
			strings.ContainsAny(a.text[1:], "lucin") {
			b.attrs = true // declare -l x: its values are changed when bound (bashvalues.go)
		}
	}
	flags := ""
	for _, a := range args {
		switch {
		case !a.static:
			b.all = true
			return
		case a.text == "--":
		case len(a.text) > 1 && (a.text[0] == '-' || a.text[0] == '+'):
			flags += a.text[1:]
			if a.text[0] == '-' && strings.Contains(a.text, "i") {
				b.eval.varSink = true // an integer variable evaluates the values bound to it
			}
		default:
			b.nameSink(a, c)
			name, value, ok := strings.Cut(a.text, "=")
			if !ok && nameref {
				b.all = true // a nameref with no target yet
				return
			}
			if !ok && reaches {
				b.exportVar(name)
			}
			if ok {
				v := word{text: value, static: true}
				b.bind(v)
				b.special(name, v, c)
				b.declValue(flags, name, v, c)
				b.envValue(name, v, reaches, c)
			}
		}
	}
	for _, a := range parsed {
		if nameref && a.Naked && a.Name != nil && a.Value == nil {
			b.all = true // a nameref with no target yet
			return
		}
		if a.Naked || a.Name == nil || a.Value == nil {
			continue
		}
		b.declValue(flags, a.Name.Value, renderWord(a.Value, src), c)
	}
}

// declValue analyses a declared value under the flags: -n makes it a name, -i arithmetic
// (and every value bound to an integer variable later is evaluated: a varSink).
//
// A quoted value that starts with '(' is read as a compound array assignment by declare -a
// or -A (and for a variable already an array): declare -a 'a=([$(rm)]=1)' runs rm. It is
// analysed as the assignment NAME=VALUE.
func (b *Commands) declValue(flags, name string, v word, c ctx) {
	switch {
	case v.static && strings.HasPrefix(strings.TrimLeft(v.text, " \t"), "(") && !inert(v):
		b.script(word{text: name + "=" + v.text, static: true}, c)
	case !v.static && strings.ContainsAny(flags, "aA"):
		b.all = true
	}
	if strings.Contains(flags, "n") {
		b.nameSink(v, c)
		if !v.static || specialVar(baseName(v.text)) || zshTable(baseName(v.text)) {
			b.all = true // a nameref to BASH_CMDS or PS4: its uses assign that variable
		}
	}
	if strings.Contains(flags, "i") {
		b.arithWord(v, c)
	}
}

// builtinEval analyses the builtins that take names, code or data (see the comment at the
// top of this file), run as command name base with args.
func (b *Commands) builtinEval(base string, args []word, c ctx) {
	switch base {
	case "declare", "typeset", "local", "export", "readonly":
		b.decl(base, args, nil, "", c)
	case "let":
		for _, a := range args {
			b.arithWord(a, c)
		}
	case "read", "getopts", "unset":
		// Every word may be a name, options included: read -a'a[$(rm)]' is getopt's
		// attached argument.
		b.eval.tainted = b.eval.tainted || base != "unset"
		if base == "getopts" {
			b.bindVar("OPTARG") // getopts a: o -a rm sets OPTARG to rm
		}
		if base == "read" {
			b.zshRead(args)
		}
		for _, a := range args {
			if base == "unset" {
				b.nameSink(a, c)
			} else {
				b.bindName(a, c)
			}
		}
	case "mapfile", "readarray":
		b.eval.tainted = true
		b.optionScripts(args, "C", c)
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-C") {
				b.bindName(a, c)
			}
		}
	case "printf", "wait":
		opt := "-v"
		if base == "wait" {
			opt = "-p"
		}
		for i, a := range args {
			switch {
			case a.text == "--" || !strings.HasPrefix(a.text, "-"):
				return
			case a.text == opt && i+1 < len(args):
				b.eval.tainted = true
				b.bindName(args[i+1], c)
			case strings.HasPrefix(a.text, opt):
				b.eval.tainted = true
				b.bindName(word{text: a.text[2:], static: a.static}, c)
			case !a.static:
				b.all = true // -$X may be -v
			}
		}
	case "test", "[":
		for i, a := range args {
			if (a.text == "-v" || a.text == "-R") && i+1 < len(args) {
				b.nameSink(args[i+1], c)
			}
		}
	case "complete", "compgen":
		b.optionScripts(args, "CF", c)
		for i, a := range args {
			if a.text == "-W" && i+1 < len(args) && !inert(args[i+1]) {
				b.all = true // the word list is expanded
			}
		}
	case "bind":
		for _, a := range args {
			if !a.static || strings.HasPrefix(a.text, "-") && strings.ContainsAny(a.text, "x") {
				b.all = true // bind -x runs a command
			}
		}
	case "enable":
		for _, a := range args {
			if !a.static || strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "f") {
				b.all = true // enable -f loads a builtin from a shared object
			}
		}
	case "fc":
		b.all = true // runs commands from the history or an editor
	case "hash":
		b.hash(args)
	case "setopt", "unsetopt":
		b.zshSetopt(args)
	case "emulate":
		b.zshOptionArgs(args)
	case "shopt":
		b.setHist(args) // shopt -o -s history histexpand
	case "set":
		b.setHist(args)
		b.zshOptionArgs(args) // set -o globsubst (zsh.go)
		if len(args) > 0 {
			b.eval.positional = true
		}
		for i, a := range args { // set -a, set -o allexport: every assignment is exported
			if !a.static || len(a.text) > 1 && a.text[0] == '-' && a.text[1] != '-' && strings.Contains(a.text, "a") ||
				a.text == "-o" && i+1 < len(args) && args[i+1].text == "allexport" {
				b.allexport = true
			}
			if a.text == "--" || a.text != "" && a.text[0] != '-' && a.text[0] != '+' && (i == 0 || args[i-1].text != "-o") {
				break // the positional parameters
			}
		}
	case "source", ".":
		if c.tail {
			// A suffix of a program's words (go run . "$x"): no program runs it as this
			// shell's builtin; one that hands it to a shell (watch, ssh) starts another,
			// whose variables are not the line's (source).
			break
		}
		b.eval.tainted = true                    // the file may set anything
		b.anyBound = b.anyBound || len(args) > 0 // without a file it is an error: d=. read as code
		if len(args) > 1 {
			b.eval.positional = true
		}
	}
}

// optionScripts analyses the arguments of the short options in opts (attached or not) as
// scripts: mapfile -C CALLBACK, complete -C COMMAND, complete -F FUNCTION.
func (b *Commands) optionScripts(args []word, opts string, c ctx) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static {
			b.all = true
			return
		}
		if len(a.text) < 2 || a.text[0] != '-' || a.text == "--" {
			continue
		}
		for j := 1; j < len(a.text); j++ {
			if strings.IndexByte(opts, a.text[j]) < 0 {
				continue
			}
			if j+1 < len(a.text) {
				b.script(word{text: a.text[j+1:], static: true}, c)
			} else if i+1 < len(args) {
				i++
				b.script(args[i], c)
			}
			break
		}
	}
}

// hash analyses `hash -p PATH NAME...` and zsh's `hash NAME=PATH...`: NAME then runs
// PATH, like an alias (hash -p /bin/rm ls; ls -rf X is rm -rf X).
func (b *Commands) hash(args []word) {
	dirs := false // zsh's hash -d NAME=PATH names a directory, not a command
	for i, a := range args {
		if !a.static {
			b.all = true
			return
		}
		if a.text == "-p" {
			if i+2 >= len(args) {
				return
			}
			for _, n := range args[i+2:] {
				if !n.static || !args[i+1].static {
					b.all = true
					return
				}
				b.hashPath(n.text, args[i+1].text)
			}
			return
		}
		if strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "p") {
			b.all = true
			return
		}
		dirs = dirs || strings.HasPrefix(a.text, "-") && strings.Contains(a.text, "d")
		if name, path, ok := strings.Cut(a.text, "="); ok && name != "" && !dirs && !strings.HasPrefix(a.text, "-") {
			b.hashPath(name, path) // zsh: hash ls=/bin/rm (zsh.go)
		}
	}
}

// hashPath records that the command name runs the program path, whatever alias name has:
// hash -p PATH NAME in bash, hash NAME=PATH in zsh.
func (b *Commands) hashPath(name, path string) {
	b.define(name, path)
	if d := b.aliases[name]; d != nil && d.value == path {
		d.hash = true
		if !d.complex {
			d.words = []word{{text: path, static: true}}
		}
	}
}

// isIdentByte reports whether c may appear in a shell name: a letter or _ anywhere, a
// digit (or -, which the callers exclude where bash does) after the first byte. It is the
// same test as match's rule-name scanner, kept here so shell imports nothing of match.
func isIdentByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		return true
	case c >= '0' && c <= '9', c == '-':
		return !first
	}
	return false
}

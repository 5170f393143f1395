package shell

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/internal/shbound"
)

// maxShellDepth bounds the nesting of scripts found inside a command: `bash -c SCRIPT`,
// `eval ARGS`, find's -exec commands, here-document and here-string scripts read by a shell,
// trap actions, alias expansions, `env -S STRING`, `su -c SCRIPT`, watch's and parallel's
// command strings. Deeper nesting matches every rule.
const maxShellDepth = 4

// maxWalkDepth bounds the depth of the syntax tree walked. The parser builds a long
// pipeline, && list or arithmetic expression as a tree as deep as it is long, and the walk
// recurses; a deeper tree matches every rule.
const maxWalkDepth = 1000

// maxWrappers bounds the wrapper commands stripped from one simple command ("sudo nice env
// rm" strips 3); each adds a text, so "sudo sudo ... rm" would otherwise grow quadratically.
// More wrappers match every rule. It also bounds the env -S strings spliced into one
// command and the aliases expanded in a row after an alias whose value ends in a blank.
const maxWrappers = 16

// maxTextBytes bounds the total size of the texts collected for one command (16 MiB);
// more matches every rule. Texts are linear in the command except where aliases are
// expanded: each use of an alias copies its value.
const maxTextBytes = 64 * shbound.MaxLen

// Commands is what a Bash permission rule sees of one command line: each simple command
// rendered as text, or all when the command can not be analysed (it does not parse, or a
// command name is not static) and so matches every rule. Parse builds it; it is read-only
// afterwards and safe for concurrent use.
type Commands struct {
	all   bool
	texts []string
	holes []holeText // the texts with a word whose value is not known, for deny rules (hole.go)
	size  int        // total bytes of texts and of alias values expanded (see maxTextBytes)

	// units holds, for allow rules, the text of each command the line runs as written:
	// leading assignments kept, the command name not reduced to its base name, and one
	// unit per command a wrapper, shell, eval or alias runs (see "Allow rules" in the
	// package doc). Every unit must be permitted for the line to be.
	units []string

	eval evalState // evaluating contexts and bindings (basheval.go)

	// aliases holds the `alias NAME=VALUE` definitions seen anywhere in the command. A
	// definition may come after a use in the text and still apply (a trap action runs
	// later), so a command that defines aliases is analysed twice, the second time with
	// every definition known.
	aliases map[string]*aliasDef
	second  bool // the second pass: a new alias name means the first pass missed one

	// The analyses for deny rules only (bashtail.go, bashenv.go): programs that are not
	// known to be inert, and values assigned to variables.
	denyAll     bool                // every deny rule matches; allow rules are as Units say
	headHole    bool                // a deny text starts with a word whose value is not known
	deny        int                 // > 0 inside denyScope: no units, opacity is denyAll
	bound       map[string]bool     // the variables the line sets
	anyBound    bool                // the line may set any variable (source, read $name)
	exported    map[string]bool     // the names the line exports without a value
	allexport   bool                // set -a: every assignment is exported
	pending     []pendingValue      // values that are not static, analysed if their name is exported
	reads       []string            // variables a file or program text is read from, inside denyScope
	nameReads   []nameRead          // commands whose name reads variables, inside denyScope (bashvalues.go)
	values      map[string][]string // per variable the line sets, the static values it sets it to (bashvalues.go)
	unknown     map[string]bool     // the variables the line may set to values not known (bashvalues.go)
	attrs       bool                // the line gives a variable an attribute that changes its values (declare -l)
	binds       int                 // the bindings recorded (bashvalues.go's settleNames)
	optSafe     map[string]safety   // per variable the line sets, what its values may be as options (bashunknown.go)
	optReads    []optionRead        // words of variables that may be code options (bashunknown.go)
	braceWords  int                 // the words brace expansion made (bashbrace.go)
	expand      expandState         // history expansion, $"...": settled at the end (bashexpand.go)
	guessing    int                 // > 0 while a text read as code on a guess is analysed (denyCode)
	guessLines  int                 // > 0 while such a text holds more than one command (; & | or a line end)
	makeRuns    bool                // the line runs make, which expands '$' in its arguments and environment (bashmake.go)
	dollarBind  bool                // the line binds a value make may expand again (bashmake.go)
	unknownVals []string            // the names the line binds to values of unknown text (bashmake.go)
	valueReads  []valueRead         // the bindings to values that read variables (bashmake.go)

	// piped holds the output of an echo or printf that a pipe feeds to the statement on its
	// right (bashstdin.go), for the walk to give that statement's command as its stdin.
	piped map[*syntax.Stmt]*input
	// feeders holds the commands a pipe feeds to the statement on its right, for the walk
	// to give an xargs or parallel there (bashfed.go).
	feeders map[*syntax.Stmt]*feed
	fed     []Fed

	// ambient and readers are the streams the line spells outside a simple command's stdin
	// and the programs not known to be inert that may open them (bashstream.go), settled
	// at the end.
	ambient []*ambient
	readers []string
}

// Parse analyses one bash command line: it parses it with mvdan.cc/sh (LangBash), walks
// every simple command it runs (through wrappers, shells, eval contexts and aliases; see the
// package doc) and collects their texts and units. It never fails: a command that does not
// parse, is longer than internal/shbound allows, nests deeper than 4 scripts or names a
// command that is not a fixed word gives Commands whose Opaque is true.
func Parse(command string) *Commands {
	b := &Commands{}
	b.collect(command, 0)
	if len(b.aliases) > 0 && !b.all {
		b.texts, b.holes, b.units, b.size, b.second = b.texts[:0], b.holes[:0], b.units[:0], 0, true
		b.denyAll, b.headHole, b.bound, b.anyBound, b.exported, b.allexport, b.pending, b.reads = false, false, nil, false, nil, false, nil, nil
		b.optSafe, b.optReads, b.braceWords = nil, nil, 0
		b.nameReads, b.values, b.unknown, b.attrs, b.binds = nil, nil, nil, false, 0
		b.makeRuns, b.dollarBind, b.unknownVals, b.valueReads = false, false, nil, nil
		b.eval, b.expand = evalState{}, expandState{}
		b.ambient, b.readers, b.feeders, b.fed = nil, nil, nil, nil
		b.collect(command, 0)
	}
	b.settle()
	b.piped, b.ambient, b.readers, b.feeders = nil, nil, nil, nil // needed by the walk only
	return b
}

// Opaque reports whether the command line could not be analysed: a deny rule must then
// assume it matches (Match is true for every pattern) and an allow rule must not permit it
// (Allows is false).
func (b *Commands) Opaque() bool { return b.all }

// MatchesAll reports whether every deny rule matches the line: it is Opaque, or an
// analysis for deny rules only could not be made (a program that is not known to be inert
// given a word of unknown value where a command may start, for one; see bashtail.go).
// Allow rules are not affected by the second kind.
func (b *Commands) MatchesAll() bool { return b.all || b.denyAll }

// Heads returns the first word of each of Texts, and true when every text a deny rule can
// match starts with one of them: false when MatchesAll, or when a text starts with a word
// whose value is not known (a glob where a command may start). A caller may skip a rule
// whose text must start with a word not among them (match's index does).
func (b *Commands) Heads() ([]string, bool) {
	if b.MatchesAll() || b.headHole {
		return nil, false
	}
	words := make([]string, 0, len(b.texts))
	for _, t := range b.texts {
		if i := strings.IndexAny(t, " \t\n\f\r"); i >= 0 {
			t = t[:i]
		}
		words = append(words, t)
	}
	return words, true
}

// Texts returns the text of each simple command the line runs, for deny rules: wrappers
// stripped, the command name reduced to its base name ("/bin/rm -rf x" is "rm -rf x"). It is
// empty when the line runs nothing or is Opaque. The caller must not modify the slice.
func (b *Commands) Texts() []string { return b.texts }

// Units returns the text of each command the line runs as written, for allow rules: leading
// assignments kept, the command name as written, and one unit per command a wrapper, shell,
// eval or alias runs, and per write redirection. The caller must not modify the slice.
func (b *Commands) Units() []string { return b.units }

// Match reports whether re matches one of Texts, for some value of the words whose value
// is not known (see MatchRule), or whether the line is Opaque: a guard's question ("may this
// line run what re names?"), answered yes when unsure. MatchRule with a Rule built once is
// cheaper when the line has such words.
func (b *Commands) Match(re *regexp.Regexp) bool {
	if b.MatchesAll() {
		return true
	}
	if len(b.holes) > 0 {
		return b.MatchRule(NewRule(re))
	}
	for _, t := range b.texts {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// ctx is what one simple command runs in, beyond its words.
type ctx struct {
	in     *input // its standard input; nil when unknown
	depth  int    // the nesting level of the script it is in (see maxShellDepth)
	xargs  bool   // run by xargs: words may be appended or replaced at run time
	tail   bool   // a suffix of a program's words (bashtail.go): its own suffixes are not tried
	braces bool   // run by find -exec: "{}" is replaced by a file name at run time
	marker string // run by xargs -I MARKER: MARKER in a word is replaced at run time
	guess  bool   // a text read as code on a guess, not by a program's spec (denyCode)
	feed   *feed  // the commands a pipe feeds to it (bashfed.go); nil when none
}

// input is a command's standard input when the command's text tells it: a static
// here-document or here-string.
type input struct {
	script string
	read   bool // a shell already read it (find -exec bash \; -exec bash \; share it)
	pipe   bool // the output of an echo or printf before a pipe: for deny rules only (bashstdin.go)
	data   bool // a program not known to be inert already had it analysed (stdinData)
	source bool // script is the source of a text with expansions: for deny rules only (bashstream.go)
}

// parse parses script as bash, or reports false when it is too long or too deep to parse
// safely (internal/shbound) or does not parse.
func parse(script string) (*syntax.File, bool) {
	if shbound.Check(script) != nil || lexDiverges(script) {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	return f, err == nil
}

// lexDiverges reports whether script has a byte sequence that mvdan.cc/sh reads
// differently from bash, so that the parse would not be what bash runs (red team, round 2):
//
//   - a backslash before a carriage return: bash keeps the CR as a literal character, so
//     "\\\r\n" ends the command where the parser reads a line continuation;
//
//   - a line with a '#' that ends in a backslash: if the '#' starts a comment, bash ends the
//     comment at the newline and runs the next line, which the parser joins to the comment.
//
//   - a mention of GIT_CONFIG (below).
//
// Such a script is not analysed (Opaque): a deny rule matches it and no allow rule permits
// it. The second test also catches a '#' that is not a comment ("a#b \\"), which is rare
// in an agent's command and costs only an unanalysed line.
func lexDiverges(script string) bool {
	if strings.Contains(script, "\\\r") {
		return true
	}
	// GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n,
	// GIT_CONFIG_GLOBAL / SYSTEM: settings (an alias '!rm …', core.fsmonitor) that a git
	// command reads from the environment, whichever way the line sets them (red team,
	// round 2). Not a lexing difference, but the same answer: do not analyse.
	if strings.Contains(script, "GIT_CONFIG") {
		return true
	}
	for line := range strings.SplitSeq(script, "\n") {
		if strings.HasSuffix(line, "\\") && strings.IndexByte(line, '#') >= 0 {
			return true
		}
	}
	return false
}

// collect parses script, a script nested depth levels deep, and adds its simple commands.
func (b *Commands) collect(script string, depth int) {
	if depth > maxShellDepth {
		b.all = true
		return
	}
	b.scanText(script)
	if b.all || b.collectPlain(script, depth) {
		return
	}
	f, ok := parse(script)
	if !ok {
		b.all = true
		return
	}
	b.walk(f, script, depth, false)
}

// walk adds the simple commands of root, a node of script nested depth levels deep; dq
// tells whether root is inside double quotes or an unquoted here-document body (see
// dqSingle).
func (b *Commands) walk(root syntax.Node, script string, depth int, dq bool) {
	level := 0               // depth in the tree of the node visited
	var stmt *syntax.Stmt    // the statement last entered: the parent of a CallExpr visited
	quoted := []bool{dq}     // per level: inside double quotes or a here-document body
	subst := []bool{false}   // per level: inside a command or process substitution
	pattern := []bool{false} // per level: inside a pattern zsh generates no file names from (zsh.go)
	var hdocs, patterns []*syntax.Word
	br := &braces{script: script, line: &b.braceWords}
	syntax.Walk(root, func(n syntax.Node) bool {
		if n == nil { // the children of a node are done
			level--
			quoted = quoted[:len(quoted)-1]
			subst = subst[:len(subst)-1]
			pattern = pattern[:len(pattern)-1]
			return true
		}
		if b.all {
			return false
		}
		if level >= maxWalkDepth {
			b.all = true
			return false
		}
		c := ctx{depth: depth}
		inDQ := quoted[len(quoted)-1]
		inSubst := subst[len(subst)-1]
		inPattern := pattern[len(pattern)-1]
		switch n := n.(type) {
		case *syntax.DblQuoted:
			inDQ = true
			if n.Dollar {
				b.expand.locale = true
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			inDQ = false // a new script: its quotes are quotes
			inSubst = true
			inPattern = false
		case *syntax.Word:
			if slices.Contains(hdocs, n) {
				inDQ = true
			}
			if slices.Contains(patterns, n) {
				inPattern = true
			}
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && (!hdocAgrees(n.Word) || !hdocEndAgrees(n, script, inSubst)) {
				b.all = true // bash may end the body elsewhere (bashexpand.go)
				return false
			}
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Hdoc != nil {
				hdocs = append(hdocs, n.Hdoc) // a quoted delimiter's body is one literal
			}
		case *syntax.SglQuoted:
			if inDQ {
				b.dqSingle(n, depth)
			}
		}
		patterns = append(patterns, extglobOK(n)...)
		if zshWord(n, inPattern, inDQ) {
			b.all = true // zsh runs it otherwise than bash reads it (zsh.go)
			return false
		}
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				if in := pipeOutput(n.X, script, br); in != nil {
					if b.piped == nil {
						b.piped = make(map[*syntax.Stmt]*input)
					}
					b.piped[n.Y] = in
				}
				if b.feeders == nil {
					b.feeders = make(map[*syntax.Stmt]*feed)
				}
				b.feeders[n.Y] = &feed{from: n.X, script: script}
			}
		case *syntax.Stmt:
			stmt = n
			b.ambientStreams(n, script, depth, br)
			if n.Cmd == nil && writes(n.Redirs) { // "> FILE" alone is a command too
				b.addUnit(sourceOf(n, script))
			} else {
				// A command's redirection that writes a file is a unit of its own: an allow
				// rule for the command does not permit writing anywhere (red team: "ls >
				// ~/.bashrc" under Bash(ls *)). Writing to /dev/null or another descriptor
				// is no write.
				for _, r := range n.Redirs {
					if writesFile(r) {
						b.addUnit(sourceOf(r, script))
					}
				}
			}
		case *syntax.Assign:
			b.assign(n, script, c)
		case *syntax.ArrayElem:
			b.arith(n.Index, c)
			if n.Value != nil {
				b.bind(renderWord(n.Value, script))
			}
		case *syntax.ArithmExp:
			b.arith(n, c)
		case *syntax.ArithmCmd:
			b.arith(n.X, c)
		case *syntax.LetClause:
			for _, x := range n.Exprs {
				b.arith(x, c)
			}
		case *syntax.CStyleLoop:
			b.arith(n.Init, c)
			b.arith(n.Cond, c)
			b.arith(n.Post, c)
		case *syntax.ParamExp:
			b.paramExp(n, script, c)
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
				b.arith(n.X, c)
				b.arith(n.Y, c)
			}
		case *syntax.UnaryTest:
			if w, ok := n.X.(*syntax.Word); ok && (n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar) {
				b.nameSink(renderWord(w, script), c)
			}
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				b.bindItems(it.Name.Value, it.Items, script, br)
				for _, w := range it.Items {
					b.bind(renderWord(w, script))
					b.special(it.Name.Value, renderWord(w, script), c)
				}
			}
		case *syntax.FuncDecl:
			b.eval.positional = true
		case *syntax.CallExpr:
			for _, a := range n.Assigns { // FOO=1 rm x: FOO=1 is a unit of its own
				b.addUnit(assignText(a, script))
				b.assignValue(a, script, len(n.Args) > 0, c)
			}
			if len(n.Args) == 0 {
				break
			}
			words, ok := renderArgs(n.Args, script, br)
			if !ok {
				b.all = true
				return false
			}
			for i, w := range words {
				if i > 0 && !inert(w) {
					b.eval.argData = true
				}
			}
			if stmt != nil && stmt.Cmd == n {
				var redirected bool
				if c.in, redirected = stdinOf(stmt.Redirs, script, br); !redirected {
					c.in = b.piped[stmt]
				}
				if !redirected {
					c.feed = b.feeders[stmt]
				}
			}
			b.addCall(words, c)
			if b.all {
				return false
			}
		case *syntax.DeclClause:
			text := declText(n, script)
			b.add(text)
			b.addUnit(text)
			var naked []word
			if n.Variant != nil && n.Variant.Value == "nameref" {
				naked = append(naked, word{text: "-n", static: true})
			}
			for _, a := range n.Args {
				if a.Naked && a.Value != nil {
					naked = append(naked, renderWord(a.Value, script))
				}
			}
			variant := "declare"
			if n.Variant != nil {
				variant = n.Variant.Value
			}
			b.decl(variant, naked, n.Args, script, c)
			b.declValues(variant, naked, n.Args, script, c)
		}
		if b.all {
			return false
		}
		level++
		quoted = append(quoted, inDQ)
		subst = append(subst, inSubst)
		pattern = append(pattern, inPattern)
		return true
	})
}

// dqSingle analyses a '...' or $'...' string that mvdan.cc/sh parsed inside double quotes
// or a here-document body, within a ${x:-...} (or -, =, :=, +, :+, nested ${...}, a
// subscript, a substring offset): bash reads its quotes there as literal characters, so
// the $(...), `...` and $x inside are expanded (red team: echo "${x:-'$(rm -rf ~/x)'}"
// runs rm). Its text is analysed as the body of a double-quoted word, one level deeper; a
// text that does not parse that way matches every rule. The pattern operators (#, %, /,
// ^, ,) do not expand it in bash 5.2, but are analysed alike: the error is toward matching.
func (b *Commands) dqSingle(q *syntax.SglQuoted, depth int) {
	if !strings.ContainsAny(q.Value, "$`") {
		return
	}
	if depth+1 > maxShellDepth {
		b.all = true
		return
	}
	script := ": \"" + q.Value + "\""
	f, ok := parse(script)
	if !ok {
		b.all = true
		return
	}
	// The expected shape is one command ":" with one double-quoted word: walk that word
	// alone, so that ":" is no unit an allow rule must permit. Any other shape (the text
	// held a '"') is walked whole.
	if len(f.Stmts) == 1 {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) == 2 && len(call.Assigns) == 0 &&
			len(f.Stmts[0].Redirs) == 0 {
			b.walk(call.Args[1], script, depth+1, true)
			return
		}
	}
	b.walk(f, script, depth+1, true)
}

// script analyses w, a shell script found in a command run in c, one level deeper. A
// script that is not static, that xargs may extend, or in which find -exec replaces "{}",
// matches every rule.
func (b *Commands) script(w word, c ctx) {
	if !w.static || c.xargs || c.braces && strings.Contains(w.text, "{}") {
		b.all = true
		return
	}
	b.collect(w.text, c.depth+1)
}

// word is one rendered shell word.
type word struct {
	text   string
	static bool // text is the word's value, not its source
	plain  bool // the word is unquoted literal text: an alias name if it comes first

	// pieces is, for a word that is not static, what is known of its value for deny rules:
	// literal runs and holes (see hole.go). nil for a word that is not static means the
	// whole value is unknown.
	pieces []piece
	tilde  bool       // the word starts with an unquoted ~: a home directory (deny rules, hole.go)
	exp    *expansion // for a word that is not static: what it expands
}

// expansion is what a word that is not static expands, for deny rules where a command may
// start (bashtail.go) or an option may stand (bashunknown.go): vars are the variables it
// reads by plain $x or ${x}; dyn tells that it holds another expansion too ($(...),
// ${x:-...}, $((...)), a brace expansion left unexpanded); glob is, for an unquoted glob,
// its pattern as pieces whose holes are runs of file-name bytes (hole.go).
type expansion struct {
	vars  []string
	dyn   bool
	glob  []piece
	split bool // an unquoted expansion (or braces left unexpanded): word splitting may make it several words
}

// addCall adds the texts of one simple command (see Commands).
func (b *Commands) addCall(words []word, c ctx) {
	if b.guessing > 0 {
		if bare, ok := makePrefixless(words); ok {
			b.addCall(bare, c) // make's recipe prefixes: "@-rm" runs rm (red team, round 7)
			if b.all || len(bare) == 0 {
				return
			}
		}
	}
	for step := 0; len(words) > 0; step++ {
		if step > maxWrappers {
			b.all = true
			return
		}
		name := words[0]
		if !name.static && b.deny > 0 {
			b.unknownName(words, c)
			return
		}
		if !name.static || (name.text != "[" && b.deny == 0 && strings.ContainsAny(name.text, "*?[{")) {
			b.all = true
			return
		}
		if !c.tail && (c.marker != "" && strings.Contains(name.text, c.marker) || c.braces && strings.Contains(name.text, "{}")) {
			b.all = true // xargs -I% … %m: the name is built from the input (red team 5, finding 6)
			return
		}
		if def, ok := b.aliases[name.text]; ok && !c.tail && (step == 0 && name.plain || def.hash) {
			b.expandAlias(def, words[1:], c, name.text)
			if b.all {
				return
			}
		}
		deny := denyWords(words, c)
		b.addWords(deny, "")
		unit := joinWords(words, "")
		if c.xargs {
			unit += xargsMore
		}
		b.addUnit(unit)
		base := path.Base(name.text)
		if base != name.text && name.text != "" {
			b.addWords(deny, base)
		}
		if b.all {
			return
		}
		if base == "git" && !b.gitSubcommand(words, c) {
			b.all = true
			return
		}
		args := words[1:]
		if zshEquals(name.text) { // zsh runs the command named after the '=' (zsh.go)
			words = append([]word{{text: name.text[1:], static: true}}, args...)
			continue
		}
		if spec, ok := wrapperSpec(base); ok {
			words, c = b.unwrap(base, spec, args, c)
			continue
		}
		b.builtinEval(base, args, c)
		if b.all {
			return
		}
		switch base {
		case "bash", "sh", "zsh", "dash", "ksh", "ash", "mksh", "rbash", "yash", "posh", "lksh", "oksh", "loksh",
			"pdksh", "ksh93", "hush", "bosh":
			b.shell(args, c)
		case "tmux":
			if script, ok := tmuxShellCommand(args); ok {
				b.shell([]word{{text: "-c", static: true}, script}, c)
			} else {
				b.program(base, words, c)
			}
		case "fish", "csh", "tcsh", "xonsh", "elvish", "nu", "pwsh", "rc", "es":
			b.all = true // not a POSIX shell: its scripts are not parsed here
		case "eval":
			for _, a := range args {
				if !a.static {
					b.all = true
					return
				}
			}
			b.script(word{text: joinWords(args, ""), static: true}, c)
		case "source", ".":
			b.source(args, c)
		case "trap":
			b.trap(args, c)
		case "alias":
			b.alias(args)
		case "find":
			b.findExec(args, c)
		case "git":
		default:
			b.program(base, words, c)
		}
		return
	}
}

// add adds text, within maxTextBytes.
func (b *Commands) add(text string) {
	if !b.grow(len(text)) {
		return
	}
	b.texts = append(b.texts, text)
}

// addUnit adds the text of a command the line runs, for allow rules, within maxTextBytes.
func (b *Commands) addUnit(text string) {
	if b.deny > 0 {
		return
	}
	if !b.grow(len(text)) {
		return
	}
	b.units = append(b.units, text)
}

// xargsMore ends the unit of a command run by xargs, which appends words to it at run time:
// a rule that ends in a prefix wildcard ("rm *") permits it, an exact one ("rm") does not.
const xargsMore = " \x00"

// grow counts n more bytes of texts, and reports false (and matches every rule) past
// maxTextBytes.
func (b *Commands) grow(n int) bool {
	b.size += n
	if b.size > maxTextBytes {
		b.all = true
		return false
	}
	return true
}

// findExec adds the commands of find's -exec, -execdir, -ok and -okdir actions, which run
// up to a ";" or "+" word, one nesting level deeper; a word whose value is not known may be
// such an action (findUnknown).
func (b *Commands) findExec(args []word, c ctx) {
	c.depth++
	c.braces = true
	skip := 0 // words left that are a primary's value (findArgs())
	for i := 0; i < len(args); i++ {
		value := skip > 0
		if value {
			skip--
		}
		switch args[i].text {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			switch {
			case !args[i].static && !value: // it may be -exec (bashunknown.go)
				b.findUnknown(args, i, c)
			case args[i].static && !value:
				skip = findArgWords(args[i].text)
			}
			continue
		}
		if c.depth > maxShellDepth {
			b.all = true
			return
		}
		j := i + 1
		for j < len(args) && args[j].text != ";" && args[j].text != "+" {
			j++
		}
		if j > i+1 {
			b.addCall(args[i+1:j], c)
			if b.all {
				return
			}
		}
		i = j
	}
}

// IsAssignment reports whether w has the shape NAME=value of a shell variable assignment:
// NAME a letter or _, then letters, digits or _ (bash's and POSIX sh's names).
func IsAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		if !isIdentByte(w[i], i == 0) || w[i] == '-' {
			return false
		}
	}
	return true
}

// CommandWords returns the blank-separated words of the command text unit (one of Units'
// texts) after its leading assignments (`A=1 B+=2 make x` gives make x): the program and
// its arguments; nil when it has none.
func CommandWords(unit string) []string {
	words := strings.Fields(unit)
	for len(words) > 0 && IsAssignmentWord(words[0]) {
		words = words[1:]
	}
	return words
}

// IsAssignmentWord is IsAssignment with bash's other forms of a command's leading
// assignment: NAME+=value and NAME[index]=value (a[0]=x, P+=x).
func IsAssignmentWord(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok {
		return false
	}
	name = strings.TrimSuffix(name, "+")
	if i := strings.IndexByte(name, '['); i > 0 && strings.HasSuffix(name, "]") {
		name = name[:i]
	}
	return name != "" && IsAssignment(name+"=")
}

// joinWords joins the words' texts with single spaces, the first replaced by name if set.
func joinWords(words []word, name string) string {
	if len(words) == 1 && name == "" {
		return words[0].text
	}
	var sb strings.Builder
	for i, w := range words {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if i == 0 && name != "" {
			sb.WriteString(name)
		} else {
			sb.WriteString(w.text)
		}
	}
	return sb.String()
}

// renderWord renders w from src: its value where static, else its source text. A word is
// not static when it holds an expansion (parameter, command, arithmetic, process), an
// unquoted glob (*, ?, [...]) or brace expansion ({a,b}, {1..3}), a $'...' string
// that does not decode to a plain value, or a $"..." string (its locale translation is not
// known: a hole; bashexpand.go); $'...' is decoded (ANSI-C escapes). The pieces of a word that is not
// static keep its literal runs and mark the rest as holes, for deny rules (hole.go).
func renderWord(w *syntax.Word, src string) word {
	var sb strings.Builder
	var pieces []piece
	var vars []string
	static, dyn, split := true, false, false
	lit := func(s string) {
		sb.WriteString(s)
		pieces = append(pieces, piece{text: s})
	}
	source := func(n syntax.Node) {
		static = false
		if p, ok := n.(*syntax.ParamExp); ok && plainParam(p) {
			vars = append(vars, p.Param.Value)
		} else {
			dyn = true
		}
		start, end := int(n.Pos().Offset()), int(n.End().Offset())
		if start >= 0 && start <= end && end <= len(src) {
			sb.WriteString(src[start:end])
		}
		pieces = append(pieces, piece{hole: true})
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			lit(unescape(p.Value, func(byte) bool { return true }))
		case *syntax.SglQuoted:
			if p.Dollar {
				v, ok := ansiC(p.Value)
				if !ok {
					source(p)
					continue
				}
				lit(v)
				continue
			}
			lit(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar { // $"...": its translation is not known (bashexpand.go)
				source(p)
				continue
			}
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					lit(unescape(l.Value, func(c byte) bool { return strings.IndexByte("$`\"\\\n", c) >= 0 }))
				} else {
					source(q)
				}
			}
		default:
			source(p)
			split = true // unquoted: word splitting applies
		}
	}
	plain := false
	if len(w.Parts) == 1 {
		l, ok := w.Parts[0].(*syntax.Lit)
		plain = ok && !strings.ContainsRune(l.Value, '\\')
	}
	if static && expands(w) { // a glob or brace expansion: any words, or none
		g := globPieces(w)
		return word{text: sb.String(), plain: plain, exp: &expansion{glob: g, dyn: g == nil, split: g == nil}}
	}
	if static {
		pieces = nil
	}
	tilde := false
	if len(w.Parts) > 0 {
		l, ok := w.Parts[0].(*syntax.Lit)
		tilde = ok && strings.HasPrefix(l.Value, "~")
	}
	var exp *expansion
	if !static {
		exp = &expansion{vars: vars, dyn: dyn, split: split}
	}
	return word{text: sb.String(), static: static, plain: plain, pieces: pieces, tilde: tilde, exp: exp}
}

// plainParam reports whether p is a plain $x or ${x}: no operator, index, slice, length or
// indirection.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && p.Index == nil && p.Slice == nil &&
		p.Repl == nil && p.Exp == nil && p.Names == 0
}

// unescape removes the backslash before each byte for which esc is true; a backslash before
// a newline removes both (line continuation).
func unescape(s string, esc func(byte) bool) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && esc(s[i+1]) {
			i++
			if s[i] != '\n' {
				sb.WriteByte(s[i])
			}
			continue
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

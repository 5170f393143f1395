package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookcore/hookcore/internal/shbound"
)

// shellWords are reserved words and builtins: a command starting with one of them always
// runs under sh, and its first word is never looked up in PATH.
var shellWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		// Reserved words.
		"!": true, "{": true, "}": true, "[[": true, "]]": true, "case": true, "coproc": true,
		"do": true, "done": true, "elif": true, "else": true, "esac": true, "fi": true,
		"for": true, "function": true, "if": true, "in": true, "select": true, "then": true,
		"time": true, "until": true, "while": true,
		// POSIX special builtins.
		".": true, ":": true, "break": true, "continue": true, "eval": true, "exec": true,
		"exit": true, "export": true, "readonly": true, "return": true, "set": true,
		"shift": true, "times": true, "trap": true, "unset": true,
		// Builtins that act on the shell itself or exist only as builtins.
		"alias": true, "bg": true, "cd": true, "command": true, "declare": true, "fc": true,
		"fg": true, "getopts": true, "hash": true, "jobs": true, "let": true, "local": true,
		"read": true, "shopt": true, "source": true, "type": true, "typeset": true,
		"ulimit": true, "umask": true, "unalias": true, "wait": true,
	}
})

// interpreters take a script file as their first non-flag argument; codeFlags are the
// flag letters that make them run code from the command line or stdin instead.
var interpreters = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"sh": "cs", "bash": "cs", "zsh": "cs", "python": "cm", "python3": "cm", "node": "ep",
		"ruby": "e", "perl": "eE", "deno": "", "bun": "e", "php": "r",
	}
})

// directSyntax holds every byte that makes a command string more than literal words.
const directSyntax = "'\"`$;|&<>(){}*?[~\\\n#"

// directWords returns the words of script when it is a single simple command of literal
// words with no shell syntax at all (no quotes, $, ; | & < > ( ) { }, glob characters, ~,
// backslash, newline, #, and no = in the first word) whose first word is not a reserved
// word or builtin. Such a command behaves the same run directly as under sh -c, so it is
// executed without a shell (a fork+exec saved per hook). ok is false otherwise.
func directWords(script string) (words []string, ok bool) {
	if strings.ContainsAny(script, directSyntax) {
		return nil, false
	}
	words = strings.FieldsFunc(script, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(words) == 0 || strings.Contains(words[0], "=") || shellWords()[words[0]] {
		return nil, false
	}
	return words, true
}

// firstCommand returns the words of the first command script runs, expanded as the shell
// will expand them in the environment env (KEY=value pairs: parameter expansion, tilde
// expansion with env's HOME, field splitting on env's IFS, quote removal), and the
// directory it runs in: leading `cd DIR` commands, alone or joined by `;` or `&&`, move dir
// as they will move the shell. The words stop before the first word whose value cannot be
// known without running something (a command or process substitution, an assignment in
// ${x:=y}, an unset variable under ${x?}) or that the shell would glob (an unquoted *, ?
// or [), so a script path built from a variable, `python3 "$CLAUDE_PROJECT_DIR"/h.py`, is
// checked as the path the interpreter will be given. ok is false when script does not
// parse, when it does not start with a simple command whose program name is known, and when
// it is too long or nested too deeply to parse safely (internal/shbound: the parser's
// recursion could exhaust the stack). Parsed with mvdan.cc/sh (bash syntax), expanded with
// its expand package; nothing is executed.
func firstCommand(script string, env []string, dir string) (words []string, cmdDir string, ok bool) {
	if shbound.Check(script) != nil {
		return nil, "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil, "", false
	}
	cfg := &expand.Config{Env: expand.ListEnviron(env...)}
	call, dir := leadingCall(cfg, f.Stmts, dir)
	if call == nil || len(call.Args) == 0 {
		return nil, "", false
	}
	for _, w := range call.Args {
		fields, known := expandWord(cfg, w)
		if !known {
			break
		}
		words = append(words, fields...)
	}
	return words, dir, len(words) > 0
}

// leadingCall returns the simple command stmts start with after any leading `cd DIR`
// (a statement of its own, or the left side of &&), and the directory it runs in. call is
// nil when the first command is anything else (a pipeline, a compound command, a cd whose
// directory is not known).
func leadingCall(cfg *expand.Config, stmts []*syntax.Stmt, dir string) (call *syntax.CallExpr, cmdDir string) {
	for len(stmts) > 0 {
		st := stmts[0]
		if st.Negated || st.Background || st.Coprocess {
			return nil, dir
		}
		switch cmd := st.Cmd.(type) {
		case *syntax.CallExpr:
			next, isCd := cdTarget(cfg, cmd, dir)
			if !isCd {
				return cmd, dir
			}
			if next == "" {
				return nil, dir
			}
			dir, stmts = next, stmts[1:]
		case *syntax.BinaryCmd:
			x, isCall := cmd.X.Cmd.(*syntax.CallExpr)
			if cmd.Op != syntax.AndStmt || !isCall {
				return nil, dir
			}
			next, isCd := cdTarget(cfg, x, dir)
			if !isCd {
				return x, dir
			}
			if next == "" {
				return nil, dir
			}
			dir, stmts = next, []*syntax.Stmt{cmd.Y}
		default:
			return nil, dir
		}
	}
	return nil, dir
}

// cdTarget reports whether call is a cd builtin and, when it is `cd DIR` with DIR known,
// the directory it moves to (absolute, or relative to dir); next is "" for any other cd
// (no argument, options, "-", an unknown word).
func cdTarget(cfg *expand.Config, call *syntax.CallExpr, dir string) (next string, isCd bool) {
	if len(call.Args) == 0 || len(call.Assigns) > 0 {
		return "", false
	}
	if name, isLit := literal(call.Args[0]); !isLit || name != "cd" {
		return "", false
	}
	if len(call.Args) != 2 {
		return "", true
	}
	fields, known := expandWord(cfg, call.Args[1])
	if !known || len(fields) != 1 || fields[0] == "" || fields[0] == "-" || fields[0][0] == '-' {
		return "", true
	}
	if filepath.IsAbs(fields[0]) {
		return fields[0], true
	}
	return filepath.Join(dir, fields[0]), true
}

// expandWord returns the fields w expands to, or known false when its value depends on
// running something or on globbing (see firstCommand).
func expandWord(cfg *expand.Config, w *syntax.Word) (fields []string, known bool) {
	runs := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ProcSubst, *syntax.CmdSubst:
			runs = true
		}
		return !runs
	})
	if runs { // expand has no handler for these (a nil ProcSubst handler panics)
		return nil, false
	}
	defer func() {
		if recover() != nil { // an expansion the package cannot do without a runner
			fields, known = nil, false
		}
	}()
	fields, err := expand.Fields(cfg, w)
	if err != nil {
		return nil, false
	}
	if globbed(w) {
		for _, f := range fields {
			if strings.ContainsAny(f, "*?[") {
				return nil, false
			}
		}
	}
	return fields, true
}

// globbed reports whether w has an unquoted part the shell may glob: literal text or a
// parameter expansion outside quotes.
func globbed(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[") {
				return true
			}
		case *syntax.ParamExp, *syntax.ArithmExp:
			return true
		}
	}
	return false
}

// literal returns the value of a word made only of literal text and quotes.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' && i+1 < len(v) {
					i++
				}
				b.WriteByte(v[i])
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, isLit := q.(*syntax.Lit)
				if !isLit || strings.Contains(l.Value, "\\") {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// checkLaunch reports why the command with these leading literal words can not start,
// and returns the path of its program (words[0]; "" for a reserved word or builtin): the
// program is not found (in the PATH of env, or relative to dir), or the command it runs
// cannot start (see wrapped). Claude Code issue 80697: `python3 missing.py` exits 2 and
// must not read as a deliberate block.
func checkLaunch(words []string, env []string, dir string) (path string, err error) {
	if !shellWords()[words[0]] {
		if path, err = lookPath(words[0], env, dir); err != nil {
			return "", err
		}
	}
	return path, wrapped(words, env, dir, 0, words[0])
}

// checkLaunchAs is checkLaunch, except that under checkDeferred a program given by an
// absolute path that is neither a wrapper nor an interpreter is not looked at: its exec
// fails if checkLaunch would (Execute then runs the checks to report why).
func checkLaunchAs(ck checks, words []string, env []string, dir string) (path string, err error) {
	if ck == checkDeferred && filepath.IsAbs(words[0]) {
		base := filepath.Base(words[0])
		_, isWrapper := wrappers()[base]
		_, isInterp := interpreters()[base]
		if !isWrapper && !isInterp {
			return words[0], nil
		}
	}
	return checkLaunch(words, env, dir)
}

// maxShellNesting bounds how many `sh -c CODE` levels wrapped looks into.
const maxShellNesting = 3

// wrapped reports why the program that words finally run cannot start. It looks through
// the wrappers that run the rest of their words as a command (exec, command, env, nice,
// nohup, timeout, stdbuf, setsid, after their options: the hook's exit status is the
// wrapped program's) and the code of `sh -c CODE` / `bash -c CODE` given no operands, to
// the program, which must be found, and, for a known interpreter, its script, which must
// exist relative to dir.
//
// The script argument is the first argument that is not an option; the options that take
// the next word (python3 -W ignore, -X dev; node -r MOD; bash -o pipefail) are skipped
// with it. It is only checked when it looks like a file (it has a slash or an extension).
// An option that makes the interpreter run code (-c, -e, -m, ...) or read stdin means there
// is no script. deno, bun and uv skip a leading "run" subcommand. A wrapper or interpreter
// option whose effect is not modelled (env -C DIR, env -S, ruby -C DIR) ends the check:
// nothing is reported, so a working hook is never refused.
//
// found is a program name lookPath has just found in dir, not looked up again ("" for none).
func wrapped(words []string, env []string, dir string, depth int, found string) error {
	words, err := unwrap(words, env, dir, found)
	if err != nil || len(words) == 0 {
		return err
	}
	prog := words[0]
	if shellWords()[prog] {
		return nil
	}
	if prog != found {
		if _, err := lookPath(prog, env, dir); err != nil {
			return err
		}
	}
	base := filepath.Base(prog)
	codeFlags, isInterp := interpreters()[base]
	if !isInterp {
		return nil
	}
	args := words[1:]
	if (base == "deno" || base == "bun") && len(args) > 0 && args[0] == "run" {
		args = args[1:]
	}
	shell := strings.Contains(codeFlags, "s") // sh, bash, zsh: -c CODE, -s
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return checkScript(base, args[i+1], dir)
			}
			return nil
		case interpStops(base, a):
			return nil
		case interpArgs()[base][a]:
			i++ // its value
		case strings.HasPrefix(a, "--"):
			switch a {
			case "--eval", "--print", "--command":
				return nil
			}
		case len(a) > 1 && (a[0] == '-' || shell && a[0] == '+'):
			if shell && strings.ContainsRune(a[1:], 'c') && a[0] == '-' {
				// sh -c CODE: the first operand is the code; with more operands ($0,
				// $1, ...) its expansions are not known here.
				if depth < maxShellNesting && i+2 == len(args) {
					if ws, cmdDir, ok := firstCommand(args[i+1], env, dir); ok {
						if _, err := checkLaunch(ws[:1], env, cmdDir); err != nil {
							return err
						}
						return wrapped(ws, env, cmdDir, depth+1, ws[0])
					}
				}
				return nil
			}
			if strings.ContainsAny(a[1:], codeFlags) {
				return nil
			}
			if shell && strings.ContainsAny(a[1:], "oO") {
				i++ // bash -eo pipefail
			}
		default:
			return checkScript(base, a, dir)
		}
	}
	return nil
}

// wrappers are the programs and builtins that run the rest of their words as a command,
// after options; the value is the set of their options that take the next word.
var wrappers = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"exec":    {"-a": true},
		"command": {},
		"env":     {"-u": true, "--unset": true},
		"nice":    {"-n": true, "--adjustment": true},
		"nohup":   {},
		"timeout": {"-s": true, "-k": true, "--signal": true, "--kill-after": true},
		"stdbuf":  {"-i": true, "-o": true, "-e": true},
		"setsid":  {},
	}
})

// unwrap returns the words of the command that words run once the wrappers in front are
// removed, checking that each wrapper that is a program exists. It returns no words when
// what runs is not known here (env -C DIR, -S STRING or -i, command with an option, a
// wrapper with nothing after it). found is as for wrapped.
func unwrap(words []string, env []string, dir string, found string) ([]string, error) {
	for len(words) > 0 {
		base := filepath.Base(words[0])
		opts, isWrapper := wrappers()[base]
		if !isWrapper || (base == "exec" || base == "command") && words[0] != base {
			return words, nil
		}
		if !shellWords()[base] && words[0] != found {
			if _, err := lookPath(words[0], env, dir); err != nil {
				return nil, err
			}
		}
		i := 1
	options:
		for i < len(words) {
			w := words[i]
			switch {
			case w == "--":
				i++
				break options
			case base == "env" && (strings.HasPrefix(w, "-C") || strings.HasPrefix(w, "--chdir") ||
				strings.HasPrefix(w, "-S") || strings.HasPrefix(w, "--split-string") ||
				w == "-" || w == "-i" || w == "--ignore-environment"),
				base == "command" && len(w) > 1 && w[0] == '-':
				// Another directory, words or PATH than the hook's; command -v and -V
				// only look the name up.
				return nil, nil
			case base == "env" && isAssignment(w):
				i++
			case len(w) > 1 && w[0] == '-':
				i++
				if opts[w] {
					i++
				}
			default:
				break options
			}
		}
		if base == "timeout" {
			i++ // the duration
		}
		if i >= len(words) {
			return nil, nil
		}
		words = words[i:]
	}
	return words, nil
}

// isAssignment reports whether w has the shape NAME=value.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// interpArgs are, per interpreter, the options whose value is the next word (the same
// tables as the trust cover's, trustcover.go).
var interpArgs = sync.OnceValue(func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"python":  {"-W": true, "-X": true, "-Q": true, "--check-hash-based-pycs": true},
		"python3": {"-W": true, "-X": true, "-Q": true, "--check-hash-based-pycs": true},
		"node":    {"-r": true, "--require": true, "--import": true, "--loader": true, "--experimental-loader": true, "-C": true, "--conditions": true, "--env-file": true},
		"ruby":    {"-r": true, "-I": true, "-E": true, "-F": true},
		"perl":    {"-I": true, "-M": true, "-m": true},
		"php":     {"-d": true, "-c": true, "-z": true},
		"sh":      {"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true},
		"bash":    {"-o": true, "+o": true, "-O": true, "+O": true, "--rcfile": true, "--init-file": true},
		"zsh":     {"-o": true, "+o": true},
	}
})

// interpStops reports whether option a of interpreter base makes its script something
// else than a plain operand relative to the working directory: ruby -C DIR and -xDIR,
// perl -xDIR change the directory; php -f names the script.
func interpStops(base, a string) bool {
	switch base {
	case "ruby":
		return strings.HasPrefix(a, "-C") || strings.HasPrefix(a, "-x") && len(a) > 2
	case "perl":
		return strings.HasPrefix(a, "-x") && len(a) > 2
	case "php":
		return a == "-f"
	}
	return false
}

func checkScript(interp, script, dir string) error {
	if !strings.Contains(script, "/") && filepath.Ext(strings.TrimPrefix(script, ".")) == "" {
		return nil
	}
	p := script
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if _, err := os.Stat(p); err != nil {
		return fmt.Errorf("%s script %q not found in %s", interp, script, dir)
	}
	return nil
}

// lookPath finds prog like the shell would: a name with a slash relative to dir, any other
// name in the PATH of env (the hook's environment, not ours). It returns an absolute path.
func lookPath(prog string, env []string, dir string) (string, error) {
	if strings.Contains(prog, "/") {
		p := prog
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := executable(p); err != nil {
			return "", fmt.Errorf("program %q: %w", prog, err)
		}
		return p, nil
	}
	pathVar := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathVar = v
		}
	}
	for _, d := range filepath.SplitList(pathVar) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, prog)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("program %q not found in PATH", prog)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory", p)
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable", p)
	}
	return nil
}

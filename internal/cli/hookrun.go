package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor/command"
	"github.com/hookcore/hookcore/shell"
)

// hookRun is one program a command hook of the config runs, found as the hook process will
// find it (executor/command's lookPath: a name with a slash relative to the working
// directory, any other in the PATH of the hook's environment). Red team round 50: the model
// put an exit-0 python3 earlier on PATH, and the guard `python3 no_rm_rf.py` ran it.
type hookRun struct {
	name string // as the command names it: "python3", "/usr/bin/env", "./guard.sh"
	file string // the file that runs, absolute; "" when it is not found
	// before are the PATH directories searched before file's (all of them when it is not
	// found): DIR/name in one of them would run instead (a shadow slot). Nil for a name
	// with a slash.
	before []string
	args   []string // the words after the program, as the hook gives them
	script string   // the script file an interpreter is given, absolute, when it names one
}

// maxScriptBytes bounds the shell script a hook runs that hookRuns reads for the programs
// it runs in turn (one level deep); a longer one is not read.
const maxScriptBytes = 64 << 10

// hookRunEnv is what the programs of one hook are resolved with.
type hookRunEnv struct {
	get   func(name string) (string, bool) // the hook's environment (HOOKCORE_CONFIG_DIR, ...)
	path  []string                         // the hook's PATH, split
	cwd   string                           // the working directory (the hook process's)
	cache *runCache                        // shared by the hooks of one config; never nil
}

// runCache holds what resolve and shebang found, once per name and file for a config whose
// hooks run the same programs (/bin/sh, python3) again and again.
type runCache struct {
	found    map[string]hookRun
	shebangs map[string][]string // the #! line's words; nil: none
}

// hookRuns returns the programs the command hooks of l's config that run would start: the
// user's layers, and the project's when its workspace is trusted (an untrusted project's
// hooks do not run). Each hook's command line is read by package shell (its commands,
// through wrappers and `sh -c`; a shell builtin or a function the line defines runs no
// program); the environment is the process's with the values hookcore gives every hook
// (HOOKCORE_CONFIG_DIR, CLAUDE_PROJECT_DIR, the plugin's directories), and a word whose
// value is not known there names no program.
func (e *env) hookRuns(l *loaded) []hookRun {
	return setRuns(l.set, l.projectTrusted, l.projectDir, e.cwd, os.LookupEnv)
}

// setRuns is hookRuns of set in the environment lookup (PATH, HOME, ...).
func setRuns(set *config.Set, projectTrusted bool, projectDir, cwd string, lookup func(string) (string, bool)) []hookRun {
	var out []hookRun
	seen := map[string]bool{}
	add := func(rs ...hookRun) {
		for _, r := range rs {
			k := r.name + "\x00" + r.file + "\x00" + r.script
			if !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	pathVar, _ := lookup("PATH")
	path := filepath.SplitList(pathVar)
	cache := &runCache{found: map[string]hookRun{}, shebangs: map[string][]string{}}
	for _, f := range set.Files {
		if !projectTrusted && (f.Layer == config.Project || f.Layer == config.Local) {
			continue
		}
		dir := filepath.Dir(f.Path)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		known := map[string]string{
			"HOOKCORE_CONFIG_DIR": dir, "CLAUDE_PROJECT_DIR": projectDir, "HOOKCORE_PROJECT_DIR": projectDir,
			"CLAUDE_PLUGIN_ROOT": f.PluginRoot, "CLAUDE_PLUGIN_DATA": f.PluginData,
		}
		re := hookRunEnv{path: path, cwd: cwd, cache: cache, get: func(name string) (string, bool) {
			if v, ok := known[name]; ok {
				return v, v != ""
			}
			return lookup(name)
		}}
		for i := range f.Hooks {
			if a := f.Hooks[i].Action; a.Type == config.TypeCommand {
				add(re.actionRuns(a)...)
			}
		}
	}
	return out
}

// actionRuns returns the programs a command action starts: the exec form's program (and
// what it runs), a shell-form command of literal words run directly, or the shell and the
// programs of the command line it runs.
func (re hookRunEnv) actionRuns(a config.Action) []hookRun {
	if a.Command == "" {
		words := make([]string, len(a.Args))
		for i, w := range a.Args {
			words[i] = shellQuote(expandKnown(w, re.get))
		}
		return re.lineRuns(strings.Join(words, " "), true, 0)
	}
	if _, ok := command.DirectWords(a.Command); ok && a.Shell != "powershell" {
		return re.lineRuns(a.Command, true, 0)
	}
	var out []hookRun
	switch a.Shell {
	case "", "sh":
		out = append(out, re.resolve(command.SystemShell))
	case "bash":
		out = append(out, re.resolve("bash"))
	case "powershell":
		return append(out, re.resolve("pwsh"), re.resolve("powershell"))
	}
	return append(out, re.lineRuns(a.Command, false, 0)...)
}

// lineRuns returns the programs the command line runs: each command of package shell's
// Units (as written, wrappers and nested shells each a command of its own), its program
// resolved unless it is a shell builtin (direct: the line is run without a shell, and only
// the reserved words are not programs) or a function the line defines; an interpreter's
// script file; a script's interpreter (its #! line), and the programs a shell script runs
// (one level deep).
func (re hookRunEnv) lineRuns(line string, direct bool, depth int) []hookRun {
	b := shell.Parse(expandKnown(line, re.get))
	if b.Opaque() {
		return nil
	}
	funcs := definedFuncs(line)
	var out []hookRun
	for _, u := range b.Units() {
		if redirectUnit(u) {
			continue
		}
		words := shell.CommandWords(u)
		if len(words) == 0 {
			continue
		}
		prog := tildeHome(words[0], re.get)
		if strings.ContainsAny(prog, "$`*?[{") || funcs[prog] || (config.IsShellBuiltin(prog) && !direct) || config.IsShellReservedWord(prog) {
			continue
		}
		r := re.resolve(prog)
		r.args = words[1:]
		r.script = re.scriptOf(filepath.Base(prog), r.args)
		out = append(out, r)
		out = append(out, re.scriptRuns(r, depth)...)
	}
	return out
}

// scriptRuns returns what the script r runs beyond r itself: the interpreter its #! line
// names, when r's file is such a script; and, one level deep, the programs of a shell
// script (r's file, or the script an sh-family interpreter is given).
func (re hookRunEnv) scriptRuns(r hookRun, depth int) []hookRun {
	var out []hookRun
	shellScript := ""
	if shellName(filepath.Base(r.name)) && r.script != "" {
		shellScript = r.script
	}
	if r.file != "" {
		if interp, args, ok := re.shebang(r.file); ok {
			if filepath.Base(interp) == "env" {
				out = append(out, hookRun{name: interp, file: interp})
				args = envProgram(args)
				if len(args) == 0 {
					return out
				}
				interp, args = args[0], args[1:]
			}
			ir := re.resolve(interp)
			ir.args, ir.script = append(args, r.file), r.file
			out = append(out, ir)
			if shellName(filepath.Base(interp)) {
				shellScript = r.file
			}
		}
	}
	if shellScript != "" && depth == 0 {
		if text, ok := readCapped(shellScript, maxScriptBytes); ok {
			out = append(out, re.lineRuns(text, false, depth+1)...)
		}
	}
	return out
}

// resolve finds the program name as the hook process will: with a slash, relative to the
// working directory; else the first executable DIR/name of the PATH (an empty or relative
// directory taken in the working directory), the directories before it kept as shadow
// slots.
func (re hookRunEnv) resolve(name string) hookRun {
	r, ok := re.cache.found[name]
	if !ok {
		r = re.find(name)
		re.cache.found[name] = r
	}
	return r
}

// find is resolve without the cache.
func (re hookRunEnv) find(name string) hookRun {
	r := hookRun{name: name}
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(re.cwd, p)
		}
		if executableFile(p) {
			r.file = filepath.Clean(p)
		}
		return r
	}
	r.before = []string{}
	for _, d := range re.path {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(re.cwd, d)
		}
		d = filepath.Clean(d)
		if p := filepath.Join(d, name); executableFile(p) {
			r.file = p
			return r
		}
		if !slices.Contains(r.before, d) {
			r.before = append(r.before, d)
		}
	}
	return r
}

// scriptOf returns the script file an interpreter (base: python3, node, bash, ...) is given
// in args, absolute, when it names an existing file: the first operand after the options
// (an option's value skipped), none when an option makes it run code (-c, -m, -e, ...).
func (re hookRunEnv) scriptOf(base string, args []string) string {
	codeFlags, valued := "", ""
	switch {
	case pythonProgram(base):
		codeFlags, valued = "cm", "WXQ"
	case base == "node" || base == "bun" || base == "deno":
		codeFlags, valued = "ep", "rC"
		if len(args) > 0 && args[0] == "run" {
			args = args[1:]
		}
	case shellName(base):
		codeFlags, valued = "cs", "oO"
	case base == "perl" || base == "ruby":
		codeFlags, valued = "eE", "IMmrF"
	default:
		return ""
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return re.existing(args[i+1])
			}
			return ""
		case strings.HasPrefix(a, "--"):
			if a == "--eval" || a == "--print" || a == "--command" {
				return ""
			}
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if strings.ContainsAny(a[1:], codeFlags) && a[0] == '-' {
				return ""
			}
			if strings.ContainsAny(a[len(a)-1:], valued) {
				i++
			}
		default:
			return re.existing(a)
		}
	}
	return ""
}

// existing returns the word w as an absolute path (~ the home, relative to the working
// directory) when it names a regular file.
func (re hookRunEnv) existing(w string) string {
	p := tildeHome(w, re.get)
	if strings.ContainsAny(p, "$`") {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(re.cwd, p)
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return filepath.Clean(p)
	}
	return ""
}

// shebang is the package's shebang, once per file.
func (re hookRunEnv) shebang(p string) (interp string, args []string, ok bool) {
	words, seen := re.cache.shebangs[p]
	if !seen {
		if interp, args, ok := shebang(p); ok {
			words = append([]string{interp}, args...)
		}
		re.cache.shebangs[p] = words
	}
	if len(words) == 0 {
		return "", nil, false
	}
	return words[0], slices.Clone(words[1:]), true
}

// shebang returns the interpreter and arguments of the #! line of the file p, when it has
// one (Linux passes the rest of the line as one argument; env -S splits it, which
// envProgram does).
func shebang(p string) (interp string, args []string, ok bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", nil, false
	}
	defer f.Close()
	var buf [256]byte
	n, _ := io.ReadFull(f, buf[:])
	head := buf[:n]
	if !bytes.HasPrefix(head, []byte("#!")) {
		return "", nil, false
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	fields := strings.Fields(string(head[2:]))
	if len(fields) == 0 {
		return "", nil, false
	}
	return fields[0], fields[1:], true
}

// envProgram returns the command env's arguments run: its options (-S splits the rest,
// -u NAME, -i) and NAME=VALUE words dropped.
func envProgram(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-S" || a == "--split-string":
			continue
		case strings.HasPrefix(a, "-S"):
			return append(strings.Fields(a[2:]), args[i+1:]...)
		case a == "-u" || a == "--unset":
			i++
		case strings.HasPrefix(a, "-") || shell.IsAssignmentWord(a):
		default:
			return args[i:]
		}
	}
	return nil
}

// readCapped returns the contents of the regular file p when it is at most limit bytes.
func readCapped(p string, limit int64) (string, bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, limit))
	return string(b), err == nil
}

// expandKnown returns line with each $NAME and ${NAME} whose value get knows and is a
// plain path (letters, digits and / . _ - + , : @ %) written in: package shell reads a
// command whose name is such a reference ("$HOOKCORE_CONFIG_DIR/guard.sh") as one it
// cannot know. Other expansions stay as written. Inside single quotes too: a value
// written in where the shell would not expand it names a program that may not run, which
// only protects more.
func expandKnown(line string, get func(string) (string, bool)) string {
	if !strings.Contains(line, "$") {
		return line
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '$' || i > 0 && line[i-1] == '\\' {
			b.WriteByte(c)
			continue
		}
		j, braced := i+1, false
		if j < len(line) && line[j] == '{' {
			j, braced = j+1, true
		}
		k := j
		for k < len(line) && (line[k] == '_' || 'a' <= line[k] && line[k] <= 'z' || 'A' <= line[k] && line[k] <= 'Z' || k > j && '0' <= line[k] && line[k] <= '9') {
			k++
		}
		end := k
		if braced {
			if k >= len(line) || line[k] != '}' {
				b.WriteByte(c)
				continue
			}
			end = k + 1
		}
		v, ok := get(line[j:k])
		if k == j || !ok || !plainValue(v) {
			b.WriteByte(c)
			continue
		}
		b.WriteString(v)
		i = end - 1
	}
	return b.String()
}

// plainValue reports whether v is a non-empty path of bytes the shell takes as they are.
func plainValue(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/._-+,:@%", c) >= 0) {
			return false
		}
	}
	return v != ""
}

// tildeHome returns w with a leading ~ or ~/ replaced by the HOME get knows.
func tildeHome(w string, get func(string) (string, bool)) string {
	if w != "~" && !strings.HasPrefix(w, "~/") {
		return w
	}
	if h, ok := get("HOME"); ok && h != "" {
		return h + w[1:]
	}
	return w
}

// definedFuncs returns the names of the functions the line defines (`name() ...`,
// `function name ...`): a command of that name runs the function, not a program.
func definedFuncs(line string) map[string]bool {
	out := map[string]bool{}
	if !strings.Contains(line, "(") && !strings.Contains(line, "function") {
		return out
	}
	fields := strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t\n;&|{}", r) })
	for i, w := range fields {
		if name, ok := strings.CutSuffix(w, "()"); ok && name != "" {
			out[name] = true
		} else if w == "function" && i+1 < len(fields) {
			out[strings.TrimSuffix(fields[i+1], "()")] = true
		} else if i+1 < len(fields) && strings.HasPrefix(fields[i+1], "()") {
			out[w] = true
		}
	}
	return out
}

// redirectUnit reports whether a unit of package shell's Units is a redirection ("> f",
// "2>> f", "&> f", "{fd}> f"), not a command.
func redirectUnit(u string) bool {
	u = strings.TrimLeft(u, "0123456789")
	if strings.HasPrefix(u, "{") {
		if i := strings.IndexByte(u, '}'); i > 0 {
			u = u[i+1:]
		}
	}
	return strings.HasPrefix(u, ">") || strings.HasPrefix(u, "<") || strings.HasPrefix(u, "&>")
}

// shellQuote quotes w for a POSIX shell when it is more than plain bytes.
func shellQuote(w string) string {
	if plainValue(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// shellName reports whether base is a POSIX-family shell that runs a script it is given.
func shellName(base string) bool {
	switch base {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox":
		return true
	}
	return false
}

// pythonProgram reports whether base names a Python interpreter: python, python3,
// python3.12.
func pythonProgram(base string) bool {
	v, ok := strings.CutPrefix(base, "python")
	return ok && strings.Trim(v, "0123456789.") == ""
}

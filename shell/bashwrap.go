package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// wrapper describes how a wrapper command's arguments are laid out, so that the command it
// runs can be found: options first (short ones may be combined, "-iu root"; "--" ends
// them), then fixed operands, then what it runs. The list is finite (see wrapperSpec): an
// unknown wrapper is covered for deny rules by the suffixes of bashtail.go.
type wrapper struct {
	argShort    string   // short options that take an argument: "u" for sudo -u USER
	argLong     []string // long options that take an argument unless written --opt=ARG
	scriptShort string   // short options whose argument is a shell script: "c" for su -c
	scriptLong  []string // long options whose argument is a shell script
	splitShort  string   // env -S: the argument is split into words that replace it
	splitLong   []string // env --split-string
	shellShort  string   // flags that, with no command, run a shell reading stdin: sudo -s
	shellLong   []string // sudo --shell, --login
	flagLong    []string // long options without an argument that the analysis looks for (watch --exec)
	noCommand   bool     // with no command or script, it runs a shell reading stdin (su)
	assign      bool     // NAME=value words among the options are skipped (env, sudo)
	operands    int      // operands before the command: timeout DURATION, chroot DIR
	rest        restKind // what follows the operands
}

// restKind tells what the words after a wrapper's options and operands are.
type restKind uint8

const (
	restCommand     restKind = iota // a command and its arguments (sudo rm -rf x)
	restShellString                 // words joined by spaces into a shell script (watch)
	restShellArgs                   // arguments of the user's shell (su USER -c SCRIPT)
	restNone                        // nothing that runs (script's log file)
)

// wrapperSpec returns the layout of the wrapper command name (a base name), and false for a
// command that is not a wrapper. Options that take an argument follow each tool's manual
// (sudo, doas, pkexec, GNU coreutils env/nice/nohup/timeout/stdbuf/chroot, GNU time, GNU
// findutils xargs, util-linux setsid/ionice/chrt/taskset/unshare/nsenter/flock/su/runuser/
// script, strace, busybox, procps watch, GNU parallel); best effort where options are many.
func wrapperSpec(name string) (wrapper, bool) {
	switch name {
	case "sudo":
		return wrapper{argShort: "CDghpRrTtUu", argLong: []string{"--user", "--group", "--host", "--prompt", "--chdir", "--chroot",
			"--role", "--type", "--other-user", "--close-from", "--command-timeout"}, shellShort: "is",
			shellLong: []string{"--shell", "--login"}, assign: true}, true
	case "doas":
		return wrapper{argShort: "uC", shellShort: "s"}, true
	case "pkexec":
		return wrapper{argLong: []string{"--user"}}, true
	case "env":
		return wrapper{argShort: "uCa", argLong: []string{"--unset", "--chdir", "--argv0"},
			splitShort: "S", splitLong: []string{"--split-string"}, assign: true}, true
	case "time":
		return wrapper{argShort: "fo", argLong: []string{"--format", "--output"}}, true
	case "exec":
		return wrapper{argShort: "a"}, true
	case "xargs":
		return wrapper{argShort: "ILnPsdEaJ", argLong: []string{"--arg-file", "--delimiter", "--max-args", "--max-procs",
			"--max-chars", "--max-lines", "--eof", "--process-slot-var"}, flagLong: []string{"--replace"}}, true
	case "nice":
		return wrapper{argShort: "n", argLong: []string{"--adjustment"}}, true
	case "timeout":
		return wrapper{argShort: "sk", argLong: []string{"--signal", "--kill-after"}, operands: 1}, true
	case "stdbuf":
		return wrapper{argShort: "ioe", argLong: []string{"--input", "--output", "--error"}}, true
	case "ionice":
		return wrapper{argShort: "cnpPu", argLong: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"}}, true
	case "chrt":
		return wrapper{argShort: "TPD", argLong: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}, operands: 1}, true
	case "taskset":
		return wrapper{operands: 1}, true
	case "unshare":
		return wrapper{argShort: "RwSG", argLong: []string{"--propagation", "--setgroups", "--root", "--wd", "--setuid", "--setgid",
			"--monotonic", "--boottime", "--map-user", "--map-group", "--map-users", "--map-groups", "--load-interp"}, noCommand: true}, true
	case "nsenter":
		return wrapper{argShort: "tSG", argLong: []string{"--target", "--setuid", "--setgid"}, noCommand: true}, true
	case "chroot":
		return wrapper{argLong: []string{"--userspec", "--groups"}, operands: 1, noCommand: true}, true
	case "strace", "ltrace":
		return wrapper{argShort: "abeEIoOpPsSuUX", argLong: []string{"--output", "--trace", "--signal", "--string-limit",
			"--attach", "--user", "--env", "--trace-path", "--status", "--quiet", "--decode-fds"}}, true
	case "flock":
		return wrapper{argShort: "Ew", argLong: []string{"--timeout", "--conflict-exit-code"}, scriptShort: "c",
			scriptLong: []string{"--command"}, operands: 1}, true
	case "su", "runuser":
		return wrapper{argShort: "gGswu", argLong: []string{"--group", "--supp-group", "--shell", "--whitelist-environment", "--user"},
			scriptShort: "cC", scriptLong: []string{"--command", "--session-command"}, noCommand: true, rest: restShellArgs}, true
	case "script":
		return wrapper{argShort: "EIOBTmo", argLong: []string{"--echo", "--log-in", "--log-out", "--log-io", "--log-timing",
			"--logging-format", "--output-limit"}, scriptShort: "c", scriptLong: []string{"--command"}, noCommand: true, rest: restNone}, true
	case "watch":
		return wrapper{argShort: "nq", argLong: []string{"--interval", "--equexit"}, flagLong: []string{"--exec"},
			rest: restShellString}, true
	case "parallel":
		return wrapper{argShort: "jSadEINnLP", argLong: []string{"--jobs", "--sshlogin", "--sshloginfile", "--arg-file", "--delimiter",
			"--colsep", "--max-args", "--joblog", "--results", "--timeout", "--delay", "--tmpdir", "--workdir", "--env",
			"--memfree", "--load", "--max-replace-args", "--tagstring", "--basefile", "--return", "--halt"}, rest: restShellString}, true
	case "nohup", "command", "builtin", "setsid", "busybox", "toybox":
		return wrapper{}, true
	}
	return wrapper{}, false
}

// option is one option a wrapper was given: "-u", "--user"; value is its argument, if any.
type option struct {
	name  string
	value word
}

// parseOptions splits a wrapper's args into its options and what follows them, splicing
// env -S strings in. It reports false when an option word is not static or a split string
// can not be analysed.
func (spec wrapper) parseOptions(args []word) (opts []option, rest []word, ok bool) {
	splices := 0
	i := 0
	next := func() word { // the argument of an option, consumed
		i++
		if i < len(args) {
			return args[i]
		}
		return word{static: true}
	}
	splice := func(w word) bool { // replace args[:i+1] by the words of w
		splices++
		words, ok := splitString(w)
		if !ok || splices > maxWrappers {
			return false
		}
		if i+1 < len(args) {
			words = append(words, args[i+1:]...)
		}
		args = words
		i = -1
		return true
	}
loop:
	for ; i < len(args); i++ {
		w := args[i].text
		switch {
		case w == "--":
			i++
			break loop
		case spec.assign && IsAssignment(w):
		case w != "" && w[0] == '-' && !args[i].static: // -$X may be any options
			return nil, nil, false
		case strings.HasPrefix(w, "--"):
			name, value, eq := strings.Cut(w, "=")
			name = longName(name, spec.splitLong, spec.scriptLong, spec.argLong, spec.shellLong, spec.flagLong)
			o := option{name: name, value: word{text: value, static: args[i].static}}
			switch {
			case slices.Contains(spec.splitLong, name):
				if !eq {
					o.value = next()
				}
				if !splice(o.value) {
					return nil, nil, false
				}
				continue
			case !eq && (slices.Contains(spec.argLong, name) || slices.Contains(spec.scriptLong, name)):
				o.value = next()
			}
			opts = append(opts, o)
		case len(w) > 1 && w[0] == '-':
			for j := 1; j < len(w); j++ {
				o := option{name: "-" + w[j:j+1]}
				takes := strings.IndexByte(spec.argShort+spec.scriptShort+spec.splitShort, w[j]) >= 0
				if takes {
					if j+1 < len(w) {
						o.value = word{text: w[j+1:], static: args[i].static}
					} else {
						o.value = next()
					}
				}
				if strings.IndexByte(spec.splitShort, w[j]) >= 0 {
					if !splice(o.value) {
						return nil, nil, false
					}
					break
				}
				opts = append(opts, o)
				if takes {
					break
				}
			}
		default:
			break loop
		}
	}
	if i > len(args) {
		i = len(args)
	}
	return opts, args[i:], true
}

// unwrap analyses a wrapper command's args and returns the command it runs, if any, with
// the context that command runs in.
func (b *Commands) unwrap(name string, spec wrapper, args []word, c ctx) ([]word, ctx) {
	if c.marker != "" && slices.ContainsFunc(args, func(a word) bool {
		return strings.HasPrefix(a.text, "-") && strings.Contains(a.text, c.marker)
	}) {
		b.all = true // xargs -I% env -% …: the input may be -S CMD
		return nil, c
	}
	if spec.assign { // env NAME=value: BASH_ENV, BASH_FUNC_x%%, PS4 reach a shell it runs
		for _, a := range args {
			if n, v, ok := strings.Cut(a.text, "="); ok && !strings.HasPrefix(a.text, "-") {
				b.special(n, word{text: v, static: a.static}, c)
				b.bind(word{text: v, static: a.static}) // read by a ${x@P} in a shell it runs
				b.envValue(n, wrapperValue(a, v), true, c)
			} else if !strings.HasPrefix(a.text, "-") {
				break
			}
		}
		if b.all {
			return nil, c
		}
	}
	opts, rest, ok := spec.parseOptions(args)
	if !ok {
		b.all = true
		return nil, c
	}
	has := func(names ...string) bool {
		return slices.ContainsFunc(opts, func(o option) bool { return slices.Contains(names, o.name) })
	}
	scripts := 0
	runScripts := func(opts []option) {
		for _, o := range opts {
			if slices.Contains(spec.scriptLong, o.name) || len(o.name) == 2 && strings.Contains(spec.scriptShort, o.name[1:]) {
				scripts++
				b.script(o.value, c)
			}
		}
	}
	runScripts(opts)
	if name == "strace" || name == "ltrace" {
		b.traceOptions(opts, c)
	}
	if (name == "su" || name == "runuser") && len(rest) > 0 && rest[0].text == "-" {
		rest = rest[1:] // su - USER: a login shell
	}
	operands := spec.operands
	kind := spec.rest
	switch {
	case name == "runuser" && has("-u", "--user"):
		kind = restCommand // runuser -u USER COMMAND runs COMMAND itself
	case name == "su" || name == "runuser":
		operands = 1 // the user
	case name == "watch" && has("-x", "--exec"):
		kind = restCommand
	}
	for k := 0; k < operands && len(rest) > 0; k++ {
		rest = rest[1:]
	}
	if kind == restShellArgs { // su USER -c SCRIPT: su's options may follow the user
		var more []option
		if more, rest, ok = spec.parseOptions(rest); !ok {
			b.all = true
			return nil, c
		}
		runScripts(more)
		opts = append(opts, more...)
	}
	if name == "flock" && len(rest) > 1 && (rest[0].text == "-c" || longOption(rest[0].text, "--command")) {
		scripts++
		b.script(rest[1], c) // flock FILE -c SCRIPT
		rest = nil
	}
	if b.all {
		return nil, c
	}
	if c.xargs && kind != restCommand { // xargs appends words: to a script or to options
		b.all = true
		return nil, c
	}
	if name == "parallel" && slices.ContainsFunc(args, func(a word) bool {
		return strings.Contains(a.text, "{=") || longOption(a.text, "--rpl") || a.text == "--rpl"
	}) {
		b.all = true // {= perl expression =}, --rpl: perl code (red team 5, siblings)
		return nil, c
	}
	if name == "parallel" {
		full := rest
		if rest = parallelCommand(rest); len(rest) > 0 {
			b.addFed(name, opts, full, rest, c)
			b.parallelMake(full, rest)
		}
		if len(rest) == 0 { // the commands are in the arguments or on stdin
			b.all = true
			return nil, c
		}
	}
	if kind == restNone && scripts == 0 { // script [FILE] runs an interactive shell
		b.stdinShell(c)
		return nil, c
	}
	if len(rest) == 0 && scripts == 0 {
		switch {
		case c.xargs: // xargs appends the command
			b.all = true
		case spec.noCommand || spec.shellShort != "" && slices.ContainsFunc(opts, func(o option) bool {
			return len(o.name) == 2 && strings.Contains(spec.shellShort, o.name[1:]) || slices.Contains(spec.shellLong, o.name)
		}):
			b.stdinShell(c)
		}
		return nil, c
	}
	switch kind {
	case restShellString:
		if len(rest) > 0 {
			b.script(joinStatic(rest), c)
		}
		return nil, c
	case restShellArgs:
		if len(rest) > 0 {
			b.shell(rest, c)
		}
		return nil, c
	case restNone:
		return nil, c
	}
	if name == "xargs" {
		c.xargs = true
		attached := xargsAttached(args[:len(args)-len(rest)])
		for _, o := range opts { // xargs -I R (-iR, --replace=R, BSD -J R) replaces R in the command's words
			r := o.value.text
			if o.name == "-i" && attached != "" {
				r = attached
			} else if o.name == "-i" || o.name == "--replace" && r == "" {
				r = "{}"
			}
			replace := o.name == "-I" || o.name == "-i" || o.name == "--replace" || o.name == "-J"
			if replace && (r == "" || !o.value.static || strings.Contains(rest[0].text, r)) {
				b.all = true
				return nil, c
			}
			if replace {
				c.marker = r
			}
		}
		if len(rest) > 0 {
			b.addFed(name, opts, rest, rest, c)
		}
	}
	return rest, c
}

// xargsAttached returns the replace string attached to GNU xargs's -i in one of opts, the
// words of its options (-i%, -0iQ: getopt's optional argument), or "".
func xargsAttached(opts []word) string {
	r := ""
	for _, o := range opts {
		t := o.text
		if len(t) < 3 || t[0] != '-' || t[1] == '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if strings.IndexByte("ILnPsdEaJel", t[j]) >= 0 {
				break // the rest of the word is this option's value
			}
			if t[j] == 'i' {
				if j+1 < len(t) {
					r = t[j+1:]
				}
				break
			}
		}
	}
	return r
}

// parallelMake makes every deny rule match when cmd, the command GNU parallel runs (the
// words before its first separator in full), holds a make and the words parallel appends
// to it may hold a '$' make expands (bashmake.go): an argument after ":::" or ":::+" that
// may (literalDollar), a file of them ("::::"), or the lines of its stdin (no separator).
// parallel quotes the words it appends, so make gets `echo 'CC=${RM}' | parallel make x`'s
// CC=${RM} as written (red team round 64).
func (b *Commands) parallelMake(full, cmd []word) {
	if !slices.ContainsFunc(cmd, func(w word) bool { return makeProgram(path.Base(w.text)) }) {
		return
	}
	if len(cmd) == len(full) {
		b.denyAll = true
		return
	}
	for _, a := range full[len(cmd):] {
		if a.text == "::::" || a.text == "::::+" || literalDollar(a) {
			b.denyAll = true
			return
		}
	}
}

// parallelCommand returns the command of GNU parallel's words: those before the first
// ":::", "::::", ":::+" or "::::+" separator.
func parallelCommand(rest []word) []word {
	for i, w := range rest {
		switch w.text {
		case ":::", "::::", ":::+", "::::+":
			return rest[:i]
		}
	}
	return rest
}

// joinStatic joins words with single spaces into one word, static when all are.
func joinStatic(words []word) word {
	static := true
	for _, w := range words {
		static = static && w.static
	}
	return word{text: joinWords(words, ""), static: static}
}

// gitGlobal lists git's global options, those before the subcommand (git(1), git.c's
// handle_options), with the number of following words each takes unless written
// --opt=ARG: 0, 1, or gitMaybe where git versions differ (--super-prefix takes the next
// word in git 2.39, only =ARG elsewhere): both readings are then tried. -C and -c always
// take the next word.
var gitGlobal = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"-C": 1, "-c": 1, "--git-dir": 1, "--work-tree": 1, "--namespace": 1, "--config-env": 1,
		"--shallow-file": 1, "--attr-source": gitMaybe, "--super-prefix": gitMaybe, "--list-cmds": gitMaybe,
		"--exec-path": 0, "-p": 0, "--paginate": 0, "-P": 0, "--no-pager": 0, "--bare": 0,
		"--no-replace-objects": 0, "--no-lazy-fetch": 0, "--no-optional-locks": 0, "--no-advice": 0,
		"--literal-pathspecs": 0, "--no-literal-pathspecs": 0, "--glob-pathspecs": 0,
		"--noglob-pathspecs": 0, "--icase-pathspecs": 0,
	}
})

// gitMaybe is the arity of a git global option that may or may not take the next word.
const gitMaybe = -1

// gitInertConfig reports whether `git -c KEY=VALUE` (or --config-env KEY=ENV) sets a key
// known to run no command. Many keys do (alias.* with '!', core.pager, core.editor,
// core.sshCommand, core.fsmonitor, core.hooksPath, credential.helper, diff.external,
// filter.*, gpg.program, include.path, ...), and a list of those would fail open on the
// next one, so the list is of harmless keys: identity, colours, advice and common
// behaviour switches. The key is case-insensitive.
// gitConfigInert reports whether `git config ARGS` cannot make a later git run a command:
// it only reads (--get, --list, get, list, …), or sets a key gitInertConfig allows. A word
// whose value is not known, or --edit (which runs the editor), is not inert (red team,
// round 2: `git config alias.p push; git p` and `git config core.fsmonitor 'rm x'`).
func gitConfigInert(args []word) bool {
	key := ""
	for _, a := range args {
		if !a.static {
			return false
		}
		switch a.text {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool",
			"-l", "--list", "get", "list":
			return true
		case "-e", "edit":
			return false
		}
		if longOption(a.text, "--edit") {
			return false
		}
		if key == "" && !strings.HasPrefix(a.text, "-") && strings.Contains(a.text, ".") {
			key = a.text
		}
	}
	return key == "" || gitInertConfig(key)
}

func gitInertConfig(kv string) bool {
	key, _, _ := strings.Cut(strings.ToLower(kv), "=")
	for _, p := range []string{"user.", "color.", "advice.", "init.", "pull.", "push.", "fetch.", "log.", "status.",
		"column.", "i18n.", "format.", "maintenance.", "gc."} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	switch key {
	case "safe.directory", "core.quotepath", "core.autocrlf", "core.filemode", "core.safecrlf", "core.eol",
		"core.ignorecase", "commit.gpgsign", "tag.gpgsign", "http.sslverify", "protocol.version",
		"merge.conflictstyle", "rebase.autosquash", "rebase.autostash", "diff.noprefix", "diff.renames":
		return true
	}
	return false
}

// gitSubcommand adds, for `git GLOBAL-OPTIONS SUB ARGS` (words[0] is git), the text
// "git SUB ARGS" with the global options skipped, so that Bash(git push:*) matches
// git -C . push origin main (red team). It reports false when a -c or --config-env sets a
// key that is not known to be inert (gitInertConfig: git -c alias.p='!rm -rf x' p and
// git -c core.pager='rm -rf x' log run a shell command, and an alias may name any
// subcommand), or when --exec-path=DIR runs git's subcommands from DIR: the line is then
// Opaque.
func (b *Commands) gitSubcommand(words []word, c ctx) bool {
	seen := make([]bool, len(words)+2)
	starts := []int{1} // the places a subcommand may be read from
	for len(starts) > 0 {
		i := starts[len(starts)-1]
		starts = starts[:len(starts)-1]
		if i >= len(words) || seen[i] {
			continue
		}
		seen[i] = true
		w := words[i]
		if !w.static {
			b.gitArgs(words[i:], c) // a hole already matches any subcommand at its place
			continue
		}
		name, value, eq := strings.Cut(w.text, "=")
		arity, ok := gitGlobal()[name]
		switch {
		case !ok || eq && (name == "-C" || name == "-c"):
			if i > 1 { // the subcommand (or an unknown option, which git refuses)
				b.addWords(append([]word{words[0]}, words[i:]...), "git")
			}
			b.gitArgs(words[i:], c)
			if w.text == "config" && !gitConfigInert(words[i+1:]) {
				return false // git config alias.x '!rm …', core.fsmonitor, core.pager: a later git runs it
			}
			continue
		case eq || arity == 0:
			starts = append(starts, i+1)
		case arity == gitMaybe:
			starts = append(starts, i+1, i+2)
		default:
			if i+1 < len(words) {
				value = words[i+1].text
				if !words[i+1].static && (name == "-c" || name == "--config-env") {
					return false
				}
			}
			starts = append(starts, i+2)
		}
		if (name == "-c" || name == "--config-env") && !gitInertConfig(value) || name == "--exec-path" && eq {
			return false // a setting that may run a command, or git-SUB programs from another directory
		}
	}
	return true
}

// traceOptions analyses, for deny rules, the options of strace (and ltrace) that reach
// another program: an -o/--output value that starts with '|' or '!' is a command strace
// pipes its trace to (strace(1); red team 4, finding 5: strace -o'|rm -rf x' true, also in
// a cluster, -fo'|…'), and an -E/--env NAME=VALUE is put in the traced command's
// environment, analysed as env's are. ltrace opens its -o value as a file; it is read the
// same way, which errs toward matching. An output value of unknown value that may start
// with '|' or '!' makes every deny rule match unless it only reads variables the line does
// not set.
func (b *Commands) traceOptions(opts []option, c ctx) {
	for _, o := range opts {
		v := o.value
		switch o.name {
		case "-o", "--output":
			switch {
			case v.static && (strings.HasPrefix(v.text, "|") || strings.HasPrefix(v.text, "!")):
				b.codeString(v.text, c)
			case !v.static && (strings.HasPrefix(v.text, "|") || strings.HasPrefix(v.text, "!") || len(v.pieces) == 0 || v.pieces[0].hole):
				b.denyScope(func() { b.unknownOption(v) })
			}
		case "-E", "--env":
			if n, val, ok := strings.Cut(v.text, "="); ok {
				b.special(n, word{text: val, static: v.static}, c)
				b.envValue(n, wrapperValue(v, val), true, c)
			}
		}
	}
}

package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Options say what to install where.
type Options struct {
	Agent string // claude, codex, gemini, cursor, copilot
	Scope Scope  // "" is the agent's default: project (codex: user)
	// Server, when set, is the URL of a `hookcore serve`: Claude Code gets type: http hooks
	// to SERVER/hook/claude, the other agents `hookcore hook AGENT --server SERVER`.
	Server string
	// Command is the program the agent runs as its hook command: an absolute path. A bare
	// name would be looked up on the PATH of the hook's environment, which a project's
	// settings can set (Claude Code's env: red team round 45); the CLI never passes one. An
	// entry of install's that names hookcore bare is recognised, and replaced or removed.
	Command string
	// Omit names events install writes no entry for (and takes its own out of): the ones
	// the agent's version rejects (Claude Code 2.1.88 runs none of a settings file's hooks
	// when one names an event it does not know, PreSkillShellCommand; observed, stop 29).
	Omit       []string
	Home       string // the user's home directory (User scope)
	ProjectDir string // the project root (Project and Local scopes)
}

// Plan is the change to one settings file: its path, its content before (nil: no file) and
// after. Changed is false when the file already says what it should (installing twice).
type Plan struct {
	Path string
	// Target is the file Path is a symbolic link to (all links resolved), the file Apply
	// writes; "" when Path is no link.
	Target   string
	Old, New []byte
	Changed  bool
	// Base is the directory Path is named from: the project root, or the home for the user
	// scope (the directory a patch of Diff applies in).
	Base string
	// Kept names the events left as they are because they hold a hookcore hook entry the
	// user wrote (not exactly one install writes): install adds no second entry there, and
	// uninstall removes none of the user's.
	Kept []string
	// Replaced names the events where install replaced an entry of the kind it writes
	// that ran hookcore otherwise (another binary, hookcore-hook for hookcore, another
	// --server URL) with the one it writes now; uninstall would remove it too.
	Replaced []string
	// ReplacedBare names the events of Replaced whose entry ran hookcore by a bare name
	// (`hookcore-hook hook claude`, as install wrote it before red team round 45): the
	// agent's shell looks such a name up on the PATH of the hook's environment, which a
	// project's settings can set.
	ReplacedBare []string
	// ReplacedShell names the events of Replaced whose entry was a shell-form command line
	// where install now writes exec form (Claude Code, before stop 29): the agent ran it with
	// `sh -c`, which a project's settings env can wrap in its own program
	// (CLAUDE_CODE_SHELL_PREFIX) or load its own code into (LD_PRELOAD) before hookcore
	// starts.
	ReplacedShell []string
	// Delete makes Apply remove the file (after its backup) instead of writing New: the CLI
	// sets it when uninstall leaves nothing of a file that install created (Leftover).
	Delete bool
	// BackupDir is where Apply keeps the old file; "" keeps it beside Path. The CLI gives
	// ~/.local/state/hookcore/backups for a file inside a project: a backup beside it is a new file of
	// the repository, and a backup of .claude/settings.local.json (which Claude Code keeps
	// out of git) is not ignored, so a `git add -A` committed the user's local settings.
	BackupDir string
	// Project is set for a file of the project or local scope (not the user's own).
	Project bool

	file string      // the file read (all links resolved), which Apply writes; "" for a Plan made by hand
	info fs.FileInfo // file's information when read; nil when there was no file
}

// Agents returns the agent names install knows, sorted.
func Agents() []string {
	out := make([]string, 0, len(agents))
	for n := range agents {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// resolve returns the agent, the settings file's path and the directory it is under (the
// home for User scope, else the project root), and whether the file must stay inside that
// directory (Project and Local scopes).
func (o *Options) resolve() (a *agent, path, base string, confined bool, err error) {
	a, ok := agents[o.Agent]
	if !ok {
		return nil, "", "", false, fmt.Errorf("unknown agent %q (known: %s)", o.Agent, strings.Join(Agents(), ", "))
	}
	scope := o.Scope
	if scope == "" {
		scope = a.def
	}
	rel, ok := a.files[scope]
	if !ok {
		return nil, "", "", false, fmt.Errorf("%s has no %s-scope hook file (scopes: %s)", a.name, scope, scopes(a))
	}
	base = o.ProjectDir
	if scope == User {
		base = o.Home
	}
	if base == "" {
		return nil, "", "", false, fmt.Errorf("no directory for the %s scope", scope)
	}
	return a, filepath.Join(base, filepath.FromSlash(rel)), base, scope != User, nil
}

func scopes(a *agent) string {
	var s []string
	for _, sc := range []Scope{User, Project, Local} {
		if _, ok := a.files[sc]; ok {
			s = append(s, string(sc))
		}
	}
	return strings.Join(s, ", ")
}

// Install plans adding hookcore's entries to the agent's settings file. The error is a
// file that cannot be read or is not a JSON object (it is never overwritten).
func Install(o Options) (*Plan, error) { return plan(o, true) }

// Uninstall plans removing hookcore's entries (and only those) from the settings file.
func Uninstall(o Options) (*Plan, error) { return plan(o, false) }

func plan(o Options, add bool) (*Plan, error) {
	a, path, base, confined, err := o.resolve()
	if err != nil {
		return nil, err
	}
	if o.Server != "" {
		if _, err := CheckServer(o.Server); err != nil {
			return nil, err
		}
	}
	if o.Command == "" {
		o.Command = "hookcore"
	}
	real, err := resolvePath(path)
	if err != nil {
		return nil, err
	}
	realBase, err := resolvePath(base)
	if err != nil {
		return nil, err
	}
	rel, _ := filepath.Rel(base, path)
	if _, in := under(real, realBase); confined && !in {
		// A repository's link (the file, or a directory on the way) would make install edit
		// the user's own settings and put their backup in the repository (red team 11).
		return nil, fmt.Errorf("%s resolves to %s, outside the project %s: hookcore does not follow a project's symbolic link out of the project (replace the link with a file, or use --scope user for your own settings)", path, real, base)
	}
	old, info, err := readRegular(real)
	if err != nil {
		return nil, err
	}
	p := &Plan{Path: path, Old: old, file: real, info: info, Project: confined, Base: base}
	if real != filepath.Join(realBase, rel) {
		p.Target = real
	}
	if err := p.merge(a, &o, add); err != nil {
		return nil, err
	}
	return p, nil
}

// Strip returns data, the content of o.Agent's settings file, as Uninstall would leave it:
// without the entries install writes. It is data itself when data holds none of them, is
// blank, or is not a settings file Uninstall can read (it would refuse it).
func Strip(o Options, data []byte) []byte {
	a, ok := agents[o.Agent]
	if !ok {
		return data
	}
	if o.Command == "" {
		o.Command = "hookcore"
	}
	p := &Plan{Old: data}
	if p.merge(a, &o, false) != nil || !p.Changed {
		return data
	}
	return p.New
}

// merge sets p.New, p.Changed, p.Kept and p.Replaced: p.Old with install's entries added
// (add) or removed. There is nothing to remove from no file or a blank one (uninstall of
// an empty file wrote "{}": new-user trial, stop 29). The error is a file that is not a
// JSON object or not in the agent's shape, named with p.Path.
func (p *Plan) merge(a *agent, o *Options, add bool) error {
	old, path := p.Old, p.Path
	if len(bytes.TrimSpace(old)) == 0 && !add {
		p.New = old
		return nil
	}
	root, err := parseObject(old)
	if err != nil {
		return fmt.Errorf("%s (fix or move it; hookcore does not overwrite a file it cannot read)", where(path, old, err))
	}
	hooks := &object{vals: map[string]json.RawMessage{}}
	if v, ok := root.get("hooks"); ok {
		if hooks, err = parseObject(v); err != nil {
			return fmt.Errorf("%s: \"hooks\": %v", path, err)
		}
	}
	if !a.grouped && add && len(bytes.TrimSpace(old)) == 0 {
		// Only a file install creates gets the "version": 1 the agents' docs show; a file
		// the user wrote is kept as written, so uninstall gives it back byte for byte.
		root.set("version", raw(1))
	}
	emptied := false
	for _, ev := range a.events {
		var list []json.RawMessage
		if v, ok := hooks.get(ev.name); ok {
			if err := json.Unmarshal(v, &list); err != nil {
				// Named as the file's user sees it, not as Go's decoder does (new-user trial,
				// stop 27: "cannot unmarshal object into Go value of type []json.RawMessage").
				return fmt.Errorf("%s: hooks.%s is %s, not a list of hook groups (fix or move it; hookcore does not overwrite a file it cannot read)", path, ev.name, jsonKind(v))
			}
		}
		before := list
		evAdd := add && !slices.Contains(o.Omit, ev.name) // an omitted event's entry goes
		list, kept, changed := mergeEvent(a, o, ev, list, evAdd)
		if kept {
			p.Kept = append(p.Kept, ev.name)
		}
		if evAdd && changed {
			if replaced, bare, shell := replacedOwn(a, o, ev, before); replaced {
				p.Replaced = append(p.Replaced, ev.name)
				if bare {
					p.ReplacedBare = append(p.ReplacedBare, ev.name)
				}
				if shell {
					p.ReplacedShell = append(p.ReplacedShell, ev.name)
				}
			}
		}
		switch {
		case !changed:
		case len(list) == 0:
			hooks.del(ev.name)
			emptied = true
		default:
			hooks.set(ev.name, raw(list))
		}
	}
	// "hooks" goes only when uninstall emptied it: a user's own "hooks": {} stays.
	if len(hooks.keys) == 0 && !add {
		if emptied {
			root.del("hooks")
		}
	} else {
		root.set("hooks", raw(hooks))
	}
	// The user's layout is kept where the file can be edited in place; else it is rewritten
	// whole with two-space indentation (same content).
	if edited, ok := spliced(old, root); ok {
		p.New = edited
	} else if p.New, err = indent(root); err != nil {
		return err
	}
	p.New = lineEndingsOf(old, p.New)
	p.Changed = !sameJSON(old, p.New)
	if !p.Changed {
		p.New = old
	}
	if p.Changed && len(p.New) > config.MaxFileSize {
		// hookcore reads no settings file past the cap: written, it could be neither
		// checked nor uninstalled (red team 12).
		return fmt.Errorf("%s would be %d bytes with hookcore's entries, over the %d KiB hookcore reads of a settings file; nothing written", p.Path, len(p.New), config.MaxFileSize>>10)
	}
	return nil
}

// Leftover reports whether New holds nothing but what install writes into a file it
// creates: an empty object, or one with "version": 1 alone (Cursor's, Copilot CLI's).
func (p *Plan) Leftover() bool {
	var m map[string]json.RawMessage
	if p.New == nil || json.Unmarshal(p.New, &m) != nil {
		return false
	}
	switch len(m) {
	case 0:
		return true
	case 1:
		return string(bytes.TrimSpace(m["version"])) == "1"
	}
	return false
}

// lineEndingsOf returns b with the line endings of old: a file whose every line ends in
// CRLF (written on Windows) gets CRLF on the lines install adds or rewrites, not a mix of
// both (new-user trial, stop 24). Inside JSON strings a line break is always escaped, so
// only layout changes.
func lineEndingsOf(old, b []byte) []byte {
	n := bytes.Count(old, []byte("\n"))
	if n == 0 || bytes.Count(old, []byte("\r\n")) != n {
		return b
	}
	return bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
}

// sameJSON reports whether a and b hold the same JSON (ignoring layout), so that installing
// twice leaves even a hand-formatted file alone.
func sameJSON(a, b []byte) bool {
	if a == nil {
		return false
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return string(raw(x)) == string(raw(y))
}

// entry is the hook entry hookcore writes for ev, keys in the order the agents' docs show:
// in exec form for an agent that takes it (Claude Code), else a shell command line.
func entry(a *agent, o *Options, ev event) *object { return entryForm(a, o, ev, a.exec) }

// entryForm is entry in exec form (exec: "command" is the program, "args" its arguments;
// Claude Code runs it with no shell) or in shell form (a command line, the program
// shell-quoted), whatever a takes: install's entries for Claude Code were shell form before
// stop 29, and are still install's own.
func entryForm(a *agent, o *Options, ev event, exec bool) *object {
	e := &object{vals: map[string]json.RawMessage{}}
	args := []string{"hook", a.name}
	if a.eventArg {
		args = append(args, ev.name)
	}
	if o.Server != "" {
		// Claude Code skips an http hook on an event that takes none (SessionStart, Setup:
		// "HTTP hooks are not supported for SessionStart", Claude Code 2.1.332): there the
		// hook command forwards to serve.
		if a.name == "claude" && hook.Event(ev.name).AcceptsHandler("http") {
			e.set("type", raw("http"))
			e.set("url", raw(strings.TrimRight(o.Server, "/")+"/hook/claude"))
			return e
		}
		args = append(args, "--server", o.Server)
	}
	if exec {
		// No shell: the program is named as it is, and ${CLAUDE_PROJECT_DIR} would be the
		// only thing Claude Code substitutes in it (observed with 2.1.332: $HOME stays as
		// written, "a b" is one argument).
		e.set("type", raw("command"))
		e.set("command", raw(o.Command))
		e.set("args", raw(args))
		return e
	}
	cmd := ShellQuote(o.Command)
	for _, w := range args {
		cmd += " " + ShellQuote(w)
	}
	switch a.name {
	case "gemini":
		e.set("type", raw("command"))
		e.set("name", raw("hookcore"))
		e.set("command", raw(cmd))
	case "cursor":
		e.set("command", raw(cmd))
	case "copilot":
		e.set("type", raw("command"))
		e.set("bash", raw(cmd))
		e.set("timeoutSec", raw(30))
	default:
		e.set("type", raw("command"))
		e.set("command", raw(cmd))
	}
	return e
}

// owner says whose a hook entry is.
type owner int

const (
	user      owner = iota // not hookcore's hook command: the user's, never touched
	installed              // exactly an entry install writes: install's to replace or remove
	written                // hookcore's hook command, written by hand: the user's, kept
)

// whose classifies a hook entry (raw JSON) of event ev for agent a. An entry is install's
// only when it is exactly what install writes for some binary (named hookcore or
// hookcore-hook, or o.Command) and some --server URL: the same keys and values, the command
// shell-quoted as entry quotes it. Any other entry that runs `‹hookcore› hook AGENT …` (more
// arguments, a timeout, another matcher key) or calls SERVER/hook/AGENT is the user's own
// (red team 11).
func whose(a *agent, o *Options, ev event, h json.RawMessage) owner {
	var e struct {
		URL string `json:"url"`
	}
	if json.Unmarshal(h, &e) != nil {
		return user
	}
	if e.URL != "" {
		base, ok := strings.CutSuffix(strings.TrimRight(e.URL, "/"), "/hook/"+a.name)
		if !ok {
			return user
		}
		if sameJSON(h, raw(entry(a, &Options{Command: o.Command, Server: base}, ev))) {
			return installed
		}
		return written
	}
	w, exec, ok := argv(h)
	if !hookcoreArgv(w, a.name, o.Command) {
		return user
	}
	if !ok || (strings.Contains(w[0], "/") && !filepath.IsAbs(w[0])) {
		// install writes a bare name or an absolute path: tools/hookcore is a project's
		// pinned binary, the user's entry (red team 12)
		return written
	}
	mine := Options{Command: w[0]}
	if n := len(w); n >= 2 && w[n-2] == "--server" {
		mine.Server = w[n-1]
	}
	// The form install writes now, or, for an agent it writes exec form for, the shell form
	// it wrote before (replaced, with a line saying why: ReplacedShell).
	if !exec || a.exec {
		if sameJSON(h, raw(entryForm(a, &mine, ev, exec))) {
			return installed
		}
	}
	return written
}

// argv returns the hook entry h's (raw JSON) program and arguments: in exec form (an
// "args" key, even an empty list: Claude Code 2.1.332 then runs "command" as the program,
// observed) "command" and the args as written; else the words of its command line
// ("command", or Copilot's "bash"), as a shell splits them. ok is false when h is not an
// object of that shape, or its command line holds anything a shell would expand or treat
// as an operator (words); w is then the line split at blanks.
func argv(h json.RawMessage) (w []string, exec, ok bool) {
	var e struct {
		Command string    `json:"command"`
		Bash    string    `json:"bash"`
		Args    *[]string `json:"args"`
	}
	if json.Unmarshal(h, &e) != nil {
		return nil, false, false
	}
	if e.Args != nil {
		return append([]string{e.Command}, *e.Args...), true, true
	}
	cmd := e.Command
	if cmd == "" {
		cmd = e.Bash
	}
	if w, ok = words(cmd); !ok {
		w = strings.Fields(cmd)
	}
	return w, false, ok && len(w) > 0
}

// mergeEvent adds (add) or removes install's entry in one event's list. On add, an existing
// entry of install's that differs (another --server, another path) is replaced in place. An
// event that holds a hookcore entry the user wrote is left as it is on add (no second entry:
// kept is true), and that entry is never removed. The user's entries are never touched.
// changed is false when the list is returned as it was.
func mergeEvent(a *agent, o *Options, ev event, list []json.RawMessage, add bool) (out []json.RawMessage, kept, changed bool) {
	defer func() { changed = !sameEntries(list, out) }()
	want := raw(entry(a, o, ev))
	if !a.grouped {
		placed := false
		for _, h := range list {
			switch whose(a, o, ev, h) {
			case written:
				kept = true
			case installed:
				if add && !placed {
					out = append(out, want)
					placed = true
				}
				continue
			}
			out = append(out, h)
		}
		if add && kept {
			return list, true, false
		}
		if add && !placed {
			out = append(out, want)
		}
		return out, kept, false
	}
	placed := false
	for _, g := range list {
		group, err := parseObject(g)
		if err != nil {
			out = append(out, g) // not ours to judge: keep it as it is
			continue
		}
		var hs []json.RawMessage
		if v, ok := group.get("hooks"); ok && json.Unmarshal(v, &hs) != nil {
			out = append(out, g)
			continue
		}
		var rest []json.RawMessage
		had := false
		shaped := installShaped(group, ev)
		for _, h := range hs {
			owner := whose(a, o, ev, h)
			if owner == installed && !shaped {
				// install's entry in a group of the user's (another matcher, keys of its
				// own): the group is the user's choice of coverage, not install's to
				// rewrite or drop (red team 12: a Bash-only group took the place of
				// install's "*" one, and uninstall deleted such groups whole).
				owner = written
			}
			switch owner {
			case written:
				kept = true
			case installed:
				had = true
				if add && !placed {
					rest = append(rest, want)
					placed = true
				}
				continue
			}
			rest = append(rest, h)
		}
		if !had {
			out = append(out, g)
			continue
		}
		if len(rest) == 0 {
			continue // the group held only install's entry
		}
		group.set("hooks", raw(rest))
		out = append(out, raw(group))
	}
	if add && kept {
		return list, true, false
	}
	if add && !placed {
		g := &object{vals: map[string]json.RawMessage{}}
		if ev.matcher != "" {
			g.set("matcher", raw(ev.matcher))
		}
		g.set("hooks", raw([]json.RawMessage{want}))
		out = append(out, raw(g))
	}
	return out, kept, false
}

// replacedOwn reports whether list (an event's entries before install) holds an entry of
// the kind install writes (whose: installed) that is not the one it writes now, whether
// such an entry names its program by a bare name (bareProgram), and whether it is a shell
// command line where install now writes exec form.
func replacedOwn(a *agent, o *Options, ev event, list []json.RawMessage) (replaced, bare, shell bool) {
	want := raw(entry(a, o, ev))
	var entries []json.RawMessage
	for _, g := range list {
		if !a.grouped {
			entries = append(entries, g)
			continue
		}
		group, err := parseObject(g)
		if err != nil {
			continue
		}
		var hs []json.RawMessage
		if v, ok := group.get("hooks"); ok && json.Unmarshal(v, &hs) == nil && installShaped(group, ev) {
			entries = append(entries, hs...)
		}
	}
	for _, h := range entries {
		if whose(a, o, ev, h) == installed && !sameJSON(h, want) {
			replaced = true
			bare = bare || bareProgram(h)
			if _, exec, _ := argv(h); a.exec && !exec {
				shell = true
			}
		}
	}
	return replaced, bare, shell
}

// bareProgram reports whether the hook entry h (raw JSON) runs a program named without a
// slash, which the agent's shell looks up on PATH (in exec form Claude Code looks it up
// itself, on the same PATH: observed with 2.1.332).
func bareProgram(h json.RawMessage) bool {
	w, _, ok := argv(h)
	return ok && !strings.Contains(w[0], "/")
}

// installShaped reports whether group has the shape of the groups install writes for ev: a
// "hooks" list and, when ev has one, ev's matcher, and no other key.
func installShaped(group *object, ev event) bool {
	for _, k := range group.keys {
		switch k {
		case "hooks":
		case "matcher":
			v, _ := group.get("matcher")
			var m string
			if ev.matcher == "" || json.Unmarshal(v, &m) != nil || m != ev.matcher {
				return false
			}
		default:
			return false
		}
	}
	if _, ok := group.get("matcher"); ev.matcher != "" && !ok {
		return false
	}
	return true
}

// sameEntries reports whether two lists hold the same JSON, element by element.
func sameEntries(a, b []json.RawMessage) bool {
	return len(a) == len(b) && (len(a) == 0 || sameJSON(raw(a), raw(b)))
}

// jsonKind names the kind of v, a JSON value that is not a list nor null: "an object",
// "a string", "a boolean", "a number".
func jsonKind(v json.RawMessage) string {
	switch t := bytes.TrimSpace(v); {
	case len(t) == 0:
		return "empty"
	case t[0] == '{':
		return "an object"
	case t[0] == '"':
		return "a string"
	case t[0] == 't' || t[0] == 'f':
		return "a boolean"
	}
	return "a number"
}

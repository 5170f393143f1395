package install

import (
	"bytes"
	"encoding/json"
	"errors"
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
	// Forward, with Server, gives Claude Code the command hook `hookcore hook claude
	// --server SERVER` on every event instead of type: http hooks: the command forwards to
	// serve and blocks a gate event when serve is unreachable, where Claude Code lets the
	// action through when an http hook's server is down. The other agents get the command
	// hook anyway.
	Forward bool
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
	// ReplacedHand names the events where install replaced a hookcore hook entry written by
	// hand with nothing of the user's in it (another spelling of the program, a bare name,
	// shell form), or its own entry in a group the user shaped, with the one it writes (new-
	// user trial, stop 30). Uninstall removes the new entry; the backup holds the old one.
	ReplacedHand []string
	// Widened names, as `EVENT (matcher "M")`, the events of ReplacedHand where such an
	// entry sat in a group whose matcher is narrower than install's ("Bash" where install
	// writes "*"): the tools outside it never reached hookcore. Install's entry, in a group
	// of its own for every tool, took its place; the user's group keeps its other hooks.
	Widened []string
	// Narrow names, as `EVENT (matcher "M")`, the events of Kept whose hookcore entries the
	// user wrote all sit in groups narrower than install's: the tools outside them never
	// reach hookcore, and install leaves them as they are.
	Narrow []string
	// ReplacedBare names the events of Replaced or ReplacedHand whose entry ran hookcore by a bare name
	// (`hookcore-hook hook claude`, as install wrote it before red team round 45): the
	// agent's shell looks such a name up on the PATH of the hook's environment, which a
	// project's settings can set.
	ReplacedBare []string
	// ReplacedShell names the events of Replaced or ReplacedHand whose entry was a shell-form command line
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

// Preview plans Install on data, the content of o.Agent's settings file of o.Scope (nil or
// blank: no file), reading and writing no file: what install would replace (Replaced,
// ReplacedHand, ReplacedBare, ReplacedShell, Widened) and keep (Kept, Narrow) there. check
// gives its advice from it, so that "run install again" is said only where install changes
// something (new-user trial, stop 30: the advice changed nothing). Path is empty.
func Preview(o Options, data []byte) (*Plan, error) {
	a, ok := agents[o.Agent]
	if !ok {
		return nil, fmt.Errorf("unknown agent %q (known: %s)", o.Agent, strings.Join(Agents(), ", "))
	}
	if o.Command == "" {
		o.Command = "hookcore"
	}
	p := &Plan{Old: data}
	if err := p.merge(a, &o, true); err != nil {
		return nil, err
	}
	return p, nil
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
			// At the bad value's file:line:col, as every other error of the file
			// (new-user trial, stop 33: `"hooks": not a JSON object`, no position).
			var dup *dupKeyError
			if off := valueOffset(old, "hooks"); errors.As(err, &dup) && off >= 0 {
				err = &dupKeyError{key: dup.key, Offset: int64(off) + dup.Offset}
				return fmt.Errorf("%s (fix or move it; hookcore does not overwrite a file it cannot read)", where(path, old, err))
			}
			return fmt.Errorf("%s: \"hooks\" is %s, not an object of events (fix or move it; hookcore does not overwrite a file it cannot read)", at(path, old, "hooks"), jsonKind(v))
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
				return fmt.Errorf("%s: hooks.%s is %s, not a list of hook groups (fix or move it; hookcore does not overwrite a file it cannot read)", at(path, old, "hooks", ev.name), ev.name, jsonKind(v))
			}
		}
		before := list
		evAdd := add && !slices.Contains(o.Omit, ev.name) // an omitted event's entry goes
		list, m, changed := mergeEvent(a, o, ev, list, evAdd)
		if m.kept {
			p.Kept = append(p.Kept, ev.name)
			if len(m.keptNarrow) > 0 {
				p.Narrow = append(p.Narrow, withMatchers(ev.name, m.keptNarrow))
			}
		}
		if evAdd && changed {
			replaced, bare, shell := replacedOwn(a, o, ev, before)
			if replaced {
				p.Replaced = append(p.Replaced, ev.name)
			}
			if m.hand {
				p.ReplacedHand = append(p.ReplacedHand, ev.name)
				if len(m.widened) > 0 {
					p.Widened = append(p.Widened, withMatchers(ev.name, m.widened))
				}
			}
			if (replaced || m.hand) && bare {
				p.ReplacedBare = append(p.ReplacedBare, ev.name)
			}
			if (replaced || m.hand) && shell {
				p.ReplacedShell = append(p.ReplacedShell, ev.name)
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

// withMatchers is "EVENT (matcher "M")", or "EVENT (matchers "M", "N")".
func withMatchers(event string, matchers []string) string {
	q := make([]string, 0, len(matchers))
	for _, m := range slices.Compact(slices.Clone(matchers)) {
		q = append(q, fmt.Sprintf("%q", m))
	}
	word := "matcher"
	if len(q) > 1 {
		word = "matchers"
	}
	return fmt.Sprintf("%s (%s %s)", event, word, strings.Join(q, ", "))
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
		if a.name == "claude" && !o.Forward && hook.Event(ev.name).AcceptsHandler("http") {
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
	// plain is hookcore's hook command written by hand with nothing of the user's in it:
	// another spelling of the program (a bare name, hookcore-hook AGENT without the word
	// hook), shell form, and no key or argument install does not write. install replaces
	// it with its own entry (new-user trial, stop 30: `hookcore-hook claude` under matcher
	// Bash was left as it is, and Write and Edit never reached hookcore); uninstall
	// leaves it, as a written one.
	plain
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
		mine.Server, mine.Forward = w[n-1], true // a command that forwards: --forward's
	}
	// The form install writes now, or, for an agent it writes exec form for, the shell form
	// it wrote before (replaced, with a line saying why: ReplacedShell).
	if !exec || a.exec {
		if sameJSON(h, raw(entryForm(a, &mine, ev, exec))) {
			return installed
		}
	}
	if plainEntry(a, ev, h, w) {
		return plain
	}
	return written
}

// plainEntry reports whether h (raw JSON), whose command is w, runs hookcore's hook command
// for agent a and event ev with nothing install would not write: the program (bare or an
// absolute path), the word hook (which the lean hookcore-hook may go without), the agent's
// name as install writes it, Copilot's event word, --server URL at most; and no key of the
// entry but the ones install writes, with install's values (the command in either form).
func plainEntry(a *agent, ev event, h json.RawMessage, w []string) bool {
	if len(w) < 2 {
		return false
	}
	rest := w[1:]
	lean := strings.TrimSuffix(filepath.Base(w[0]), ".exe") == "hookcore-hook"
	if rest[0] == "hook" {
		rest = rest[1:]
	} else if !lean {
		return false
	}
	if len(rest) == 0 || rest[0] != a.name {
		return false
	}
	rest = rest[1:]
	if a.eventArg {
		if len(rest) == 0 || rest[0] != ev.name {
			return false
		}
		rest = rest[1:]
	}
	server := ""
	if len(rest) == 2 && rest[0] == "--server" {
		server, rest = rest[1], nil
	}
	if len(rest) != 0 {
		return false
	}
	got, err := parseObject(h)
	if err != nil {
		return false
	}
	want := entryForm(a, &Options{Command: w[0], Server: server, Forward: true}, ev, false)
	for _, k := range got.keys {
		switch k {
		case "command", "args", "bash":
			continue
		}
		v, ok := want.get(k)
		if g, _ := got.get(k); !ok || !sameJSON(g, v) {
			return false
		}
	}
	return true
}

// merged is what mergeEvent did to one event's list.
type merged struct {
	// kept: the event holds a hookcore entry the user wrote (written), left as it is, and
	// on add the list is returned as it was.
	kept bool
	// keptNarrow are the matchers of the groups that hold those entries when each is
	// narrower than install's ("Bash" where install writes "*"), so that the tools
	// outside them never reach hookcore; nil when one covers every tool.
	keptNarrow []string
	// hand: on add, a hookcore entry written by hand (plain, or install's own entry in a
	// group the user shaped) was replaced by install's.
	hand bool
	// widened are the matchers of the groups, narrower than install's, such an entry was
	// taken out of: install's entry, in a group for every tool, took its place.
	widened []string
}

// groupMatcher returns group's matcher and whether it covers every tool the way install's
// matcher for ev does ("", "*", ".*" or install's own); an event without a matcher (Stop) is
// covered by any group.
func groupMatcher(group *object, ev event) (string, bool) {
	if ev.matcher == "" {
		return "", true
	}
	v, ok := group.get("matcher")
	if !ok {
		return "", true
	}
	var m string
	if json.Unmarshal(v, &m) != nil {
		return string(v), false
	}
	switch strings.TrimSpace(m) {
	case "", "*", ".*", ev.matcher:
		return m, true
	}
	return m, false
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
// entry of install's that differs (another --server, another path) is replaced in place, and
// so is a hookcore entry written by hand with nothing of the user's in it (plain), or
// install's own entry in a group the user shaped: where that group's matcher is narrower
// than install's, the entry is taken out of it (the group goes when nothing is left in it)
// and install's goes in a group of its own for every tool. An event that holds a hookcore
// entry the user wrote (written: flags, a timeout, a relative path) is left as it is on add
// (no second entry: m.kept), and that entry is never removed. Uninstall removes install's
// entries in install's groups only. The user's other entries are never touched. m.changed
// is false when the list is returned as it was.
func mergeEvent(a *agent, o *Options, ev event, list []json.RawMessage, add bool) (out []json.RawMessage, m merged, changed bool) {
	defer func() { changed = !sameEntries(list, out) }()
	want := raw(entry(a, o, ev))
	unchanged := func() ([]json.RawMessage, merged, bool) {
		return list, merged{kept: true, keptNarrow: m.keptNarrow}, false
	}
	if !a.grouped {
		placed := false
		for _, h := range list {
			switch own := whose(a, o, ev, h); {
			case own == written || own == plain && !add:
				m.kept = true
			case own == installed || own == plain:
				m.hand = m.hand || own == plain
				if add && !placed {
					out = append(out, want)
					placed = true
				}
				continue
			}
			out = append(out, h)
		}
		if add && m.kept {
			return unchanged()
		}
		if add && !placed {
			out = append(out, want)
		}
		return out, m, false
	}
	placed, keptWide := false, false
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
		shaped := installsGroup(a, o, group, ev, hs)
		matcher, wide := groupMatcher(group, ev)
		for _, h := range hs {
			own := whose(a, o, ev, h)
			// install's entry in a group of the user's (another matcher, keys of its own):
			// not install's to drop on uninstall (red team 12: uninstall deleted such groups
			// whole); install replaces it as one written by hand.
			hand := add && (own == plain || own == installed && !shaped)
			switch {
			case own == installed && shaped || hand && wide:
				m.hand = m.hand || hand
				had = true
				if add && !placed {
					rest = append(rest, want)
					placed = true
				}
				continue
			case hand:
				// A narrower group: the entry leaves it (red team 12's worry was install's
				// "*" group dropped for it, which left Bash alone guarded).
				m.hand, had = true, true
				m.widened = append(m.widened, matcher)
				continue
			case own != user:
				m.kept = true
				if wide {
					keptWide = true
				} else {
					m.keptNarrow = append(m.keptNarrow, matcher)
				}
			}
			rest = append(rest, h)
		}
		if !had {
			out = append(out, g)
			continue
		}
		if len(rest) == 0 {
			continue // the group held only hookcore's entry
		}
		group.set("hooks", raw(rest))
		out = append(out, raw(group))
	}
	if keptWide {
		m.keptNarrow = nil
	}
	if add && m.kept {
		return unchanged()
	}
	if add && !placed {
		g := &object{vals: map[string]json.RawMessage{}}
		if ev.matcher != "" {
			g.set("matcher", raw(ev.matcher))
		}
		g.set("hooks", raw([]json.RawMessage{want}))
		out = append(out, raw(g))
	}
	return out, m, false
}

// replacedOwn reports whether list (an event's entries before install) holds an entry of
// the kind install writes (whose: installed, in a group as install writes it) that is not
// the one it writes now, and whether such an entry, or one written by hand that install
// replaces (plain, or install's own in a group the user shaped), names its program by a
// bare name (bareProgram) or is a shell command line where install now writes exec form.
func replacedOwn(a *agent, o *Options, ev event, list []json.RawMessage) (replaced, bare, shell bool) {
	want := raw(entry(a, o, ev))
	type item struct {
		h      json.RawMessage
		shaped bool
	}
	var entries []item
	for _, g := range list {
		if !a.grouped {
			entries = append(entries, item{g, true})
			continue
		}
		group, err := parseObject(g)
		if err != nil {
			continue
		}
		var hs []json.RawMessage
		if v, ok := group.get("hooks"); ok && json.Unmarshal(v, &hs) == nil {
			shaped := installsGroup(a, o, group, ev, hs)
			for _, h := range hs {
				entries = append(entries, item{h, shaped})
			}
		}
	}
	for _, it := range entries {
		own := whose(a, o, ev, it.h)
		mine := own == installed && it.shaped
		if !mine && own != plain && own != installed || sameJSON(it.h, want) {
			continue
		}
		replaced = replaced || mine
		bare = bare || bareProgram(it.h)
		if _, exec, _ := argv(it.h); a.exec && !exec {
			shell = true
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

// installsGroup reports whether group, whose hooks are hs, is one install writes for ev:
// install's shape (installShaped) and nothing in it but install's own entries. A group that
// also holds another hook is one the user shaped (red team round 65: install's entry beside
// the user's notify-send in one Stop group was removed by uninstall): an entry of install's
// form there is the user's placement, which uninstall leaves and install adds no second of.
func installsGroup(a *agent, o *Options, group *object, ev event, hs []json.RawMessage) bool {
	if !installShaped(group, ev) || len(hs) == 0 {
		return false
	}
	for _, h := range hs {
		if whose(a, o, ev, h) != installed {
			return false
		}
	}
	return true
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

// jsonKind names the kind of v, a JSON value: "an object", "an array", "null", "a string",
// "a boolean", "a number".
func jsonKind(v json.RawMessage) string {
	switch t := bytes.TrimSpace(v); {
	case len(t) == 0:
		return "empty"
	case t[0] == '{':
		return "an object"
	case t[0] == '[':
		return "an array"
	case t[0] == 'n':
		return "null"
	case t[0] == '"':
		return "a string"
	case t[0] == 't' || t[0] == 'f':
		return "a boolean"
	}
	return "a number"
}

package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	// Command is how the agent should run hookcore: "hookcore" (on PATH) or an absolute path.
	Command    string
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

func (o *Options) resolve() (*agent, string, error) {
	a, ok := agents[o.Agent]
	if !ok {
		return nil, "", fmt.Errorf("unknown agent %q (known: %s)", o.Agent, strings.Join(Agents(), ", "))
	}
	scope := o.Scope
	if scope == "" {
		scope = a.def
	}
	rel, ok := a.files[scope]
	if !ok {
		return nil, "", fmt.Errorf("%s has no %s-scope hook file (scopes: %s)", a.name, scope, scopes(a))
	}
	base := o.ProjectDir
	if scope == User {
		base = o.Home
	}
	if base == "" {
		return nil, "", fmt.Errorf("no directory for the %s scope", scope)
	}
	return a, filepath.Join(base, filepath.FromSlash(rel)), nil
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
	a, path, err := o.resolve()
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
	real, err := target(path)
	if err != nil {
		return nil, err
	}
	old, err := os.ReadFile(real)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	p := &Plan{Path: path, Old: old}
	if real != path {
		p.Target = real
	}
	if old == nil && !add {
		return p, nil
	}
	root, err := parseObject(old)
	if err != nil {
		return nil, fmt.Errorf("%s (fix or move it; hookcore does not overwrite a file it cannot read)", where(path, old, err))
	}
	hooks := &object{vals: map[string]json.RawMessage{}}
	if v, ok := root.get("hooks"); ok {
		if hooks, err = parseObject(v); err != nil {
			return nil, fmt.Errorf("%s: \"hooks\": %v", path, err)
		}
	}
	if !a.grouped && add {
		if _, ok := root.get("version"); !ok {
			root.set("version", raw(1))
		}
	}
	for _, ev := range a.events {
		var list []json.RawMessage
		if v, ok := hooks.get(ev.name); ok {
			if err := json.Unmarshal(v, &list); err != nil {
				return nil, fmt.Errorf("%s: hooks.%s is not a list: %v", path, ev.name, err)
			}
		}
		list, err = mergeEvent(a, &o, ev, list, add)
		if err != nil {
			return nil, fmt.Errorf("%s: hooks.%s: %v", path, ev.name, err)
		}
		if len(list) == 0 {
			hooks.del(ev.name)
		} else {
			hooks.set(ev.name, raw(list))
		}
	}
	if len(hooks.keys) == 0 && !add {
		root.del("hooks")
	} else {
		root.set("hooks", raw(hooks))
	}
	// The user's layout is kept where the file can be edited in place; else it is rewritten
	// whole with two-space indentation (same content).
	if edited, ok := spliced(old, root); ok {
		p.New = edited
	} else if p.New, err = indent(root); err != nil {
		return nil, err
	}
	p.Changed = !sameJSON(old, p.New)
	if !p.Changed {
		p.New = old
	}
	return p, nil
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

// entry is the hook entry hookcore writes for ev, keys in the order the agents' docs show.
func entry(a *agent, o *Options, ev event) *object {
	e := &object{vals: map[string]json.RawMessage{}}
	cmd := o.Command + " hook " + a.name
	if a.eventArg {
		cmd += " " + ev.name
	}
	if o.Server != "" {
		if a.name == "claude" {
			e.set("type", raw("http"))
			e.set("url", raw(strings.TrimRight(o.Server, "/")+"/hook/claude"))
			return e
		}
		cmd += " --server " + o.Server
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

// isOurs reports whether a hook entry (raw JSON) is hookcore's for agent a.
func isOurs(a *agent, o *Options, h json.RawMessage) bool {
	var e struct {
		Command string `json:"command"`
		Bash    string `json:"bash"`
		URL     string `json:"url"`
	}
	if json.Unmarshal(h, &e) != nil {
		return false
	}
	cmd := e.Command
	if cmd == "" {
		cmd = e.Bash
	}
	return ours(cmd, e.URL, a.name, o.Command)
}

// mergeEvent adds (add) or removes hookcore's entry in one event's list. On add, an
// existing entry of ours that differs (another --server, another path) is replaced in
// place; the user's entries are never touched.
func mergeEvent(a *agent, o *Options, ev event, list []json.RawMessage, add bool) ([]json.RawMessage, error) {
	want := raw(entry(a, o, ev))
	if !a.grouped {
		var out []json.RawMessage
		placed := false
		for _, h := range list {
			if isOurs(a, o, h) {
				if add && !placed {
					out = append(out, want)
					placed = true
				}
				continue
			}
			out = append(out, h)
		}
		if add && !placed {
			out = append(out, want)
		}
		return out, nil
	}
	var out []json.RawMessage
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
		var kept []json.RawMessage
		had := false
		for _, h := range hs {
			if isOurs(a, o, h) {
				had = true
				if add && !placed {
					kept = append(kept, want)
					placed = true
				}
				continue
			}
			kept = append(kept, h)
		}
		if !had {
			out = append(out, g)
			continue
		}
		if len(kept) == 0 {
			continue // the group held only our entry
		}
		group.set("hooks", raw(kept))
		out = append(out, raw(group))
	}
	if add && !placed {
		g := &object{vals: map[string]json.RawMessage{}}
		if ev.matcher != "" {
			g.set("matcher", raw(ev.matcher))
		}
		g.set("hooks", raw([]json.RawMessage{want}))
		out = append(out, raw(g))
	}
	return out, nil
}

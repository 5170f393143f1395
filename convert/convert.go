// Package convert writes a parsed hook config (config.File, any dialect config reads) as
// another agent's hook file: Claude Code settings.json, Codex hooks.json, Gemini CLI
// settings.json, Cursor hooks.json, Copilot CLI .github/hooks/NAME.json, or hookcore's native
// YAML (issue 9 item 6). What the target cannot express is left out and reported as a Loss,
// one per hook and item; nothing is silently dropped or widened without a Loss.
//
// The target formats are those of ../shared/research/other-agents-hooks.md (section 1) and
// claude-code-hooks.md; the event and tool name tables are bridge.EventNames and
// bridge.ToolNames, the same the `hookcore hook AGENT` bridge decodes with.
package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/match"
)

// Targets are the names To accepts, in documentation order.
var Targets = []string{"claude", "codex", "gemini", "cursor", "copilot", "hookcore"}

// Loss is one thing a conversion could not carry over, or changed. Hook is the hook's id in
// the source file ("PreToolUse#1" or its `id`), Source its "file:line"; Dropped is true when
// the whole hook was left out (its event or handler type has no equivalent), false when only
// the item named in What was. Warning is true when the converted gate hook decides
// otherwise than the original: it now runs on calls its `if` excluded (so a command that
// blocks by itself blocks them all), or it no longer blocks (reject lost).
type Loss struct {
	Hook, Source string
	Dropped      bool
	Warning      bool
	What         string
}

// String returns "file:line: HOOK: dropped: WHAT", "file:line: HOOK: warning: WHAT" or
// "file:line: HOOK: WHAT".
//
// The source, the hook id and what was lost hold the input file's text (an event name, a
// Gemini hook's name): their control and format characters are shown as escapes (red team
// round 35: an event name set the terminal's title and cleared its screen).
func (l Loss) String() string {
	src, id, what := text.Printable(l.Source), text.Printable(l.Hook), text.Printable(l.What)
	switch {
	case l.Dropped:
		return fmt.Sprintf("%s: %s: dropped: %s", src, id, what)
	case l.Warning:
		return fmt.Sprintf("%s: %s: warning: %s", src, id, what)
	}
	return fmt.Sprintf("%s: %s: %s", src, id, what)
}

// Options are the settings of a conversion; the zero value works.
type Options struct {
	// ProjectDir is the project the converted file is for (an absolute path). A command's
	// directory variable that the target does not set ($HOOKCORE_CONFIG_DIR,
	// $HOOKCORE_PROJECT_DIR, and an agent's $CLAUDE_PROJECT_DIR, $GEMINI_PROJECT_DIR or
	// $CURSOR_PROJECT_DIR) becomes the target's project-directory variable plus the path
	// below it when the directory lies in ProjectDir, else the absolute path. "" means the
	// input file's own project: the parent of the dot-directory holding it (.claude,
	// .hookcore, ...), else the git top-level of its directory (config.ProjectRoot).
	ProjectDir string
}

// To is Options{}.To(f, target).
func To(f *config.File, target string) (out []byte, lost []Loss, err error) {
	return Options{}.To(f, target)
}

// To writes f's valid hooks (the enabled ones, for the agents' targets) in the target dialect (one of Targets) and returns the
// file's bytes (deterministic: events sorted by the target's name, hooks in file order
// within an event, fixed key order, two-space JSON indent, trailing newline) and what could
// not be carried over. Broken entries of f are reported as dropped. The error is non-nil only
// for an unknown target or a failed file.
//
// The agents do not set the variables hookcore gives a command hook, nor each other's: the
// directory variables are rewritten (Options.ProjectDir) and each rewrite is reported;
// hookcore's context variables ($FILE_PATH, $TOOL_ARGS.x, ...), HOOK_* variables and the
// agents' others ($GEMINI_CWD, ...) are reported. A command hook moved to an agent that
// reads another reply protocol is reported (protocolLoss). A gate hook
// (PreToolUse, UserPromptSubmit, ...) whose `if` or `reject` is not carried over behaves
// differently in a way that matters, and its Loss is a Warning.
func (o Options) To(f *config.File, target string) (out []byte, lost []Loss, err error) {
	if f == nil || f.Failed {
		return nil, nil, fmt.Errorf("convert: the input file could not be loaded")
	}
	c := &conv{target: target, source: f.Dialect, projectDir: o.ProjectDir}
	if abs, err := filepath.Abs(f.Path); err == nil {
		c.configDir = filepath.Dir(abs)
	}
	if c.projectDir == "" {
		c.projectDir = fileProject(c.configDir)
	}
	for i := range f.Broken {
		h := &f.Broken[i].Hook
		c.drop(h, "the entry has errors (hookcore check shows them)")
	}
	c.unloaded(f)
	f = agentSwitched(f)
	if f.DisableAll && target != "hookcore" {
		f = disabledAll(c, f)
	}
	switch target {
	case "claude", "codex":
		out = c.nested(f)
	case "gemini":
		out = c.gemini(f)
	case "cursor":
		out = c.cursor(f)
	case "copilot":
		out = c.copilot(f)
	case "hookcore":
		out, err = c.native(f)
	default:
		return nil, nil, fmt.Errorf("convert: unknown target %q (want one of %s)", target, strings.Join(Targets, ", "))
	}
	if err != nil {
		return nil, nil, err
	}
	return out, c.lost, nil
}

// agentSwitched returns f with the hooks that its agent's own switches in f turn off
// (Gemini CLI's hooksConfig, Codex's [features] hooks and [hooks.state]; config.AgentSwitch)
// marked enabled: false, as the targets write them; f itself when it turns none off.
func agentSwitched(f *config.File) *config.File {
	agents := config.AgentSwitch([]*config.File{f}, true)
	var g *config.File
	for i := range f.Hooks {
		if f.Hooks[i].Enabled && agents.Off(f, &f.Hooks[i]) {
			if g == nil {
				c := *f
				c.Hooks = slices.Clone(f.Hooks)
				g = &c
			}
			g.Hooks[i].Enabled = false
		}
	}
	if g == nil {
		return f
	}
	return g
}

// disabledAll returns f without its hooks, each reported dropped: the file's
// disable_all_hooks (Claude Code's disableAllHooks) turns them all off, and an agent's file
// written with them would run them (hookcore's YAML keeps the key).
func disabledAll(c *conv, f *config.File) *config.File {
	for i := range f.Hooks {
		c.drop(&f.Hooks[i], "the file's disable_all_hooks (disableAllHooks) turns every hook off, so none is written")
	}
	g := *f
	g.Hooks = nil
	return &g
}

type conv struct {
	target                string
	source                config.Dialect // the input file's
	configDir, projectDir string         // absolute
	lost                  []Loss
}

// fileProject returns the project of a config file in dir: the parent of a dot-directory
// (.claude, .hookcore, ...), else the git top-level of dir, as config's check finds it.
func fileProject(dir string) string {
	if b := filepath.Base(dir); len(b) > 1 && b[0] == '.' && b != ".." {
		return filepath.Dir(dir)
	}
	return config.ProjectRoot(dir)
}

func (c *conv) drop(h *config.Hook, what string) {
	c.lost = append(c.lost, Loss{Hook: h.ID, Source: h.Source(), Dropped: true, What: what})
}

func (c *conv) warn(h *config.Hook, format string, a ...any) {
	c.lost = append(c.lost, Loss{Hook: h.ID, Source: h.Source(), Warning: true, What: fmt.Sprintf(format, a...)})
}

func (c *conv) lose(h *config.Hook, format string, a ...any) {
	c.lost = append(c.lost, Loss{Hook: h.ID, Source: h.Source(), What: fmt.Sprintf(format, a...)})
}

// common reports the hook controls no agent file has (every target but hookcore's own):
// if, once, reject, blocking: false, on_error, exit_codes, parallel. enabled: false hooks
// are dropped. It returns false when the hook must be dropped.
func (c *conv) common(h *config.Hook) bool {
	if !h.Enabled {
		c.drop(h, "enabled: false (the target has no switch; a disabled hook is not written)")
		return false
	}
	gate := h.Event.Kind() == hook.Gate
	switch {
	case h.If == "" || c.claudeIf(h):
	case gate:
		calls := "call of " + string(h.Event)
		if h.Matcher != "" && h.Matcher != "*" {
			calls = fmt.Sprintf("%s call its matcher %q passes", h.Event, h.Matcher)
		}
		c.warn(h, "if condition %q not carried over: this gate hook now runs on every %s, and what its command decides by itself (a block, a rewrite, an allow) it decides for every one of them; to keep the condition, convert to hookcore and run it with 'hookcore hook %s'", h.If, calls, c.target)
	default:
		c.lose(h, "if condition %q not carried over: the hook now runs on every match of its matcher", h.If)
	}
	if h.Once {
		c.lose(h, "once not carried over: the hook runs every time")
	}
	switch {
	case h.Reject && gate:
		c.warn(h, "reject not carried over: this guard no longer blocks when its command succeeds (it must exit 2 to block)")
	case h.Reject:
		c.lose(h, "reject not carried over: the command's success no longer blocks (it must exit 2 to block)")
	}
	if !h.Blocking {
		c.lose(h, "blocking: false not carried over: the hook can veto")
	}
	switch {
	case h.OnError == "":
	case h.OnError == "block" && c.target == "cursor":
		// written as failClosed: true (cursor)
	case h.OnError == "block" && c.target == "copilot" && h.Event == hook.PreToolUse:
		// Copilot CLI's preToolUse hooks fail closed by themselves
	case h.OnError == "block" && gate:
		c.warn(h, "on_error: block not carried over: when this guard fails (crashes, times out, answers what %s cannot read) %s lets the call through", c.target, c.target)
	default:
		c.lose(h, "on_error: %s not carried over", h.OnError)
	}
	if len(h.ExitCodes) > 0 || h.S08 {
		c.lose(h, "exit_codes not carried over: the target's own exit-code protocol applies (2 blocks)")
	}
	if h.Parallel {
		c.lose(h, "parallel not carried over")
	}
	return true
}

// claudeIf reports whether h's `if` is carried over as it is: on the claude target, a Claude
// Code permission rule ("Bash(git push *)", match.Rule) is Claude Code's own `if` syntax
// (research note 2.4); conditions and regexes are hookcore's.
func (c *conv) claudeIf(h *config.Hook) bool {
	if c.target != "claude" {
		return false
	}
	f, err := match.CompileIf(h.If)
	return err == nil && f != nil && f.Syntax() == match.Rule
}

// commandOnly drops a hook whose handler is not a command (agents that run only commands).
func (c *conv) commandOnly(h *config.Hook) bool {
	if h.Action.Type != config.TypeCommand {
		c.drop(h, fmt.Sprintf("%s handler: the target runs only command hooks", h.Action.Type))
		return false
	}
	return true
}

// commandLine is the action's shell command line; an argv (Args) is joined with shell quoting.
func commandLine(a *config.Action) string {
	if len(a.Args) == 0 {
		return a.Command
	}
	q := make([]string, len(a.Args))
	for i, s := range a.Args {
		q[i] = shellQuote(s)
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// seconds returns the timeout in whole seconds, rounded up (never shorter than asked), and
// reports the rounding. 0 stays 0 (the target's default).
func (c *conv) seconds(h *config.Hook) int {
	d := h.EffectiveTimeout()
	if d <= 0 {
		return 0
	}
	s := int(math.Ceil(d.Seconds()))
	if time.Duration(s)*time.Second != d {
		c.lose(h, "timeout %s rounded up to %ds (the target counts whole seconds)", d, s)
	}
	return s
}

// obj is a JSON object written with its keys in the order given.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(p.k)
		v, err := marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// render writes v as indented JSON with a trailing newline.
func render(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // only obj, strings, numbers, bools and slices of them are encoded
	}
	return b.Bytes()
}

// group is the hooks of one target event, in file order, under one matcher group.
type group struct {
	matcher string
	hooks   []obj
}

// events collects matcher groups per target event name: hooks with the same matcher under
// one event share the group of the first of them (file order kept within the group).
type events map[string][]*group

func (e events) add(event, matcher string, h obj) {
	for _, g := range e[event] {
		if g.matcher == matcher {
			g.hooks = append(g.hooks, h)
			return
		}
	}
	e[event] = append(e[event], &group{matcher: matcher, hooks: []obj{h}})
}

func (e events) names() []string {
	out := make([]string, 0, len(e))
	for n := range e {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// nestedGroups renders e as Claude Code's {EVENT: [{matcher, hooks: [...]}]} object; with
// sequential, a group of more than one hook gets Gemini CLI's `sequential: true`, so that
// they run one after the other in file order, as hookcore runs them (Gemini runs a
// definition's hooks in parallel otherwise: research note 1.1).
func (e events) nestedGroups(sequential bool) obj {
	var hooks obj
	for _, n := range e.names() {
		var gs []obj
		for _, g := range e[n] {
			var o obj
			if g.matcher != "" {
				o = append(o, kv{"matcher", g.matcher})
			}
			if sequential && len(g.hooks) > 1 {
				o = append(o, kv{"sequential", true})
			}
			gs = append(gs, append(o, kv{"hooks", g.hooks}))
		}
		hooks = append(hooks, kv{n, gs})
	}
	if hooks == nil {
		hooks = obj{}
	}
	return hooks
}

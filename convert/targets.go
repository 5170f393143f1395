package convert

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// notClaude are hookcore's events that Claude Code has no hook for: the seeds' own moments
// (MiniCode, codebot). Every other event in hook.Events is a Claude Code 2.1.x event.
var notClaude = map[hook.Event]bool{
	hook.Startup: true, hook.Shutdown: true, hook.PreSend: true, hook.PostReceive: true,
	hook.FileChange: true, hook.CommandExecute: true, hook.PostStopValidation: true, hook.Error: true,
}

// codexEvents are the events Codex CLI has (research note section 1.2, newest crawl).
var codexEvents = map[hook.Event]bool{
	hook.PreToolUse: true, hook.PermissionRequest: true, hook.PostToolUse: true, hook.PreCompact: true,
	hook.PostCompact: true, hook.UserPromptSubmit: true, hook.SubagentStop: true, hook.Stop: true,
	hook.SessionStart: true, hook.SubagentStart: true, hook.SessionEnd: true,
}

// claudeTypes are the handler types a Claude Code settings file has.
var claudeTypes = map[string]bool{config.TypeCommand: true, config.TypeHTTP: true, config.TypePrompt: true, config.TypeAgent: true, config.TypeMCPTool: true}

// nested writes Claude Code's settings.json or Codex's hooks.json: {"hooks": {EVENT:
// [{matcher, hooks: [{type, command, timeout (s), async, statusMessage, ...}]}]}} (an
// mcp_tool hook: {type, server, tool, input}, research note 2.5). Codex runs
// command hooks only and parses async without honouring it (research note 1.2).
func (c *conv) nested(f *config.File) []byte {
	codex := c.target == "codex"
	ev := events{}
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if codex && !codexEvents[h.Event] || !codex && notClaude[h.Event] {
			c.drop(h, fmt.Sprintf("event %s: %s has no equivalent", h.Event, c.target))
			continue
		}
		if !c.common(h) {
			continue
		}
		if codex && !c.commandOnly(h) {
			continue
		}
		if !claudeTypes[h.Action.Type] {
			c.drop(h, fmt.Sprintf("%s handler: Claude Code has no such hook type", h.Action.Type))
			continue
		}
		if !h.Event.AcceptsHandler(h.Action.Type) {
			c.drop(h, fmt.Sprintf("%s handler: Claude Code does not accept it on %s", h.Action.Type, h.Event))
			continue
		}
		matchers, ok := c.matchers(h)
		if !ok {
			continue
		}
		c.protocolLoss(h, string(h.Event))
		c.agentOnly(h)
		c.sequential(h)
		a := &h.Action
		o := obj{{"type", a.Type}}
		switch a.Type {
		case config.TypeCommand:
			if len(a.Args) > 0 && !codex {
				// Claude Code's exec form: command is the program, args its arguments.
				c.portable(h) // reports the arguments' hookcore-only variables
				o = append(o, kv{"command", a.Args[0]}, kv{"args", a.Args[1:]})
			} else {
				o = append(o, kv{"command", c.portable(h)})
			}
			if a.Shell != "" && !codex {
				o = append(o, kv{"shell", a.Shell})
			} else if a.Shell != "" {
				c.lose(h, "shell %q not carried over: Codex runs the command with its own shell", a.Shell)
			}
		case config.TypeHTTP:
			o = append(o, kv{"url", a.URL})
			if len(a.Headers) > 0 {
				var hs obj
				for _, k := range slices.Sorted(maps.Keys(a.Headers)) {
					hs = append(hs, kv{k, a.Headers[k]})
				}
				o = append(o, kv{"headers", hs})
			}
			if len(a.AllowedEnvVars) > 0 {
				o = append(o, kv{"allowedEnvVars", a.AllowedEnvVars})
			}
			if a.Method != "" && !strings.EqualFold(a.Method, "POST") {
				c.lose(h, "method %s not carried over: Claude Code's http hooks always POST", a.Method)
			}
			if a.Body != "" {
				c.lose(h, "body template not carried over: Claude Code posts the hook input")
			}
			if len(a.AllowedHosts) > 0 {
				c.lose(h, "allowed_hosts not carried over")
			}
		case config.TypeMCPTool:
			o = append(o, kv{"server", a.Server}, kv{"tool", a.Tool})
			if len(a.Input) > 0 {
				o = append(o, kv{"input", a.Input})
			}
			if len(a.AllowedHosts) > 0 {
				c.lose(h, "allowed_hosts not carried over")
			}
		case config.TypePrompt, config.TypeAgent:
			o = append(o, kv{"prompt", a.Prompt})
			if a.Model != "" {
				o = append(o, kv{"model", a.Model})
			}
		}
		if s := c.seconds(h); s > 0 {
			o = append(o, kv{"timeout", s})
		}
		switch {
		case h.AsyncRewake && !codex:
			o = append(o, kv{"asyncRewake", true})
		case h.Async && codex:
			c.lose(h, "async not carried over: Codex parses it but runs the hook synchronously")
		case h.Async:
			o = append(o, kv{"async", true})
		}
		if h.StatusMessage != "" {
			if codex {
				c.lose(h, "statusMessage not carried over")
			} else {
				o = append(o, kv{"statusMessage", h.StatusMessage})
			}
		}
		if h.If != "" && c.claudeIf(h) {
			o = append(o[:1:1], append(obj{{"if", h.If}}, o[1:]...)...)
		}
		for _, m := range matchers {
			ev.add(string(h.Event), m, o)
		}
	}
	return render(obj{{"hooks", ev.nestedGroups(false)}})
}

// reverse maps hookcore events to an agent's names, from bridge.EventNames; where several
// native names map to one event, prefer names in order.
func reverse(agent string, prefer ...string) map[hook.Event]string {
	out := map[hook.Event]string{}
	names := bridge.EventNames(agent)
	for _, n := range prefer {
		if e, ok := names[n]; ok {
			out[e] = n
		}
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if _, ok := out[names[n]]; !ok {
			out[names[n]] = n
		}
	}
	return out
}

// generatedID matches config's generated hook ids ("PreToolUse#2"), which native output
// leaves out: the reloaded file generates its own. It is compiled on first use, not at
// package initialisation, which every hook process runs.
var generatedID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]+#[0-9]+$`) })

// gemini writes Gemini CLI's settings.json hooks: {"hooks": {EVENT: [{matcher, hooks:
// [{type: command, name (geminiName), command, timeout (ms)}]}]}} with Gemini's event and tool names; a group
// of several hooks is `sequential: true` (file order, as hookcore runs them).
func (c *conv) gemini(f *config.File) []byte {
	names := reverse("gemini")
	ev := events{}
	for i := range f.Hooks {
		h := &f.Hooks[i]
		n, ok := names[h.Event]
		if !ok {
			c.drop(h, fmt.Sprintf("event %s: gemini has no equivalent", h.Event))
			continue
		}
		if !c.common(h) || !c.commandOnly(h) {
			continue
		}
		matchers, ok := c.matchers(h)
		if !ok {
			continue
		}
		c.shellLoss(h, "gemini")
		c.protocolLoss(h, n)
		c.agentOnly(h)
		c.sequential(h)
		o := obj{{"type", "command"}}
		if n := geminiName(h); n != "" {
			o = append(o, kv{"name", n})
		}
		o = append(o, kv{"command", c.portable(h)})
		if d := h.EffectiveTimeout(); d > 0 {
			ms := (d + time.Millisecond - 1) / time.Millisecond
			if ms*time.Millisecond != d {
				c.lose(h, "timeout %s rounded up to %dms", d, ms)
			}
			o = append(o, kv{"timeout", int64(ms)})
		}
		c.asyncLoss(h, "gemini")
		for _, m := range matchers {
			ev.add(n, m, o)
		}
	}
	return render(obj{{"hooks", ev.nestedGroups(true)}})
}

// geminiName returns the Gemini `name` of h: its own name in a Gemini settings file
// (AgentKey, which is its command when it has none), else its explicit id; "" for none.
// Gemini CLI's hooksConfig.disabled and its trust of project hooks go by the name.
func geminiName(h *config.Hook) string {
	if h.Dialect == config.Gemini {
		if h.AgentKey == h.Action.Command {
			return ""
		}
		return h.AgentKey
	}
	if generatedID().MatchString(h.ID) {
		return ""
	}
	return h.ID
}

func (c *conv) shellLoss(h *config.Hook, agent string) {
	if h.Action.Shell != "" {
		c.lose(h, "shell %q not carried over: %s runs the command with its own shell", h.Action.Shell, agent)
	}
}

func (c *conv) asyncLoss(h *config.Hook, agent string) {
	if h.Async || h.AsyncRewake {
		c.lose(h, "async not carried over: %s runs the hook synchronously", agent)
	}
	if h.StatusMessage != "" {
		c.lose(h, "statusMessage not carried over")
	}
}

// cursor writes Cursor's hooks.json: {"version": 1, "hooks": {event: [{command, matcher,
// timeout (s), failClosed (on_error: block)}]}}. A PreToolUse / PostToolUse hook whose matcher is exactly Bash becomes
// beforeShellExecution / afterShellExecution without a matcher (Cursor's shell events);
// other tool matchers stay on preToolUse / postToolUse as written, and are reported, since
// Cursor's tool names are not Claude Code's.
func (c *conv) cursor(f *config.File) []byte {
	names := reverse("cursor", "preToolUse", "postToolUse")
	byEvent := map[string][]obj{}
	for i := range f.Hooks {
		h := &f.Hooks[i]
		n, ok := names[h.Event]
		if !ok {
			c.drop(h, fmt.Sprintf("event %s: cursor has no equivalent", h.Event))
			continue
		}
		if !c.common(h) || !c.commandOnly(h) {
			continue
		}
		shell, isShell := cursorShellEvent(h)
		m := ""
		if isShell {
			n = shell
		} else {
			matchers, ok := c.matchers(h)
			if !ok {
				continue
			}
			if m = matchers[0]; m != "" && m != "*" && h.Event.MatchField() == "tool_name" {
				c.lose(h, "matcher %q written as %q: Cursor's tool names are not Claude Code's", h.Matcher, m)
			}
		}
		c.shellLoss(h, "cursor")
		c.protocolLoss(h, n)
		c.agentOnly(h)
		c.sequential(h)
		o := obj{{"command", c.portable(h)}}
		if m != "" && m != "*" {
			o = append(o, kv{"matcher", m})
		}
		if s := c.seconds(h); s > 0 {
			o = append(o, kv{"timeout", s})
		}
		if h.OnError == "block" {
			o = append(o, kv{"failClosed", true})
		}
		c.asyncLoss(h, "cursor")
		byEvent[n] = append(byEvent[n], o)
	}
	return render(obj{{"version", 1}, {"hooks", flat(byEvent)}})
}

// cursorShellEvent returns Cursor's shell event for a PreToolUse or PostToolUse hook whose
// matcher is exactly Bash (hookcore's "bash" too): beforeShellExecution or
// afterShellExecution.
func cursorShellEvent(h *config.Hook) (string, bool) {
	m, err := h.CompileMatcher()
	names, fold, _ := m.List()
	switch {
	case err != nil || len(names) != 1 || names[0] != "Bash" && !(fold && strings.EqualFold(names[0], "Bash")):
	case h.Event == hook.PreToolUse:
		return "beforeShellExecution", true
	case h.Event == hook.PostToolUse:
		return "afterShellExecution", true
	}
	return "", false
}

func flat(byEvent map[string][]obj) obj {
	hooks := obj{}
	for _, n := range slices.Sorted(maps.Keys(byEvent)) {
		hooks = append(hooks, kv{n, byEvent[n]})
	}
	return hooks
}

// copilot writes a Copilot CLI .github/hooks/NAME.json: {"version": 1, "hooks": {event:
// [{type: command, bash | powershell, matcher, timeoutSec}]}}. Copilot matches only on
// permissionRequest (a regex on its tool names, mapped with bridge.ToolNames) and
// notification (research note 1.4); a matcher on any other event is dropped, widening the
// hook to every tool, and reported.
func (c *conv) copilot(f *config.File) []byte {
	names := reverse("copilot")
	byEvent := map[string][]obj{}
	for i := range f.Hooks {
		h := &f.Hooks[i]
		n, ok := names[h.Event]
		if !ok {
			c.drop(h, fmt.Sprintf("event %s: copilot has no equivalent", h.Event))
			continue
		}
		if !c.common(h) || !c.commandOnly(h) {
			continue
		}
		c.protocolLoss(h, n)
		c.agentOnly(h)
		c.sequential(h)
		key := "bash"
		if h.Action.Shell == "powershell" {
			key = "powershell"
		}
		o := obj{{"type", "command"}, {key, c.portable(h)}}
		switch m := h.Matcher; {
		case matchesAll(h):
		case h.Event.MatchField() == "":
			c.lose(h, "matcher %q dropped: %s has no matcher", m, h.Event)
		case h.Event == hook.PermissionRequest || h.Event == hook.Notification:
			matchers, ok := c.matchers(h)
			if !ok {
				continue
			}
			if matchers[0] != "" && matchers[0] != "*" {
				o = append(o, kv{"matcher", matchers[0]})
			}
		case h.Event.Kind() == hook.Gate:
			c.warn(h, "matcher %q dropped: Copilot CLI matches only on permissionRequest and notification, so this gate hook runs for every %s, and a command that blocks by itself blocks every one", m, n)
		default:
			c.lose(h, "matcher %q dropped: Copilot CLI matches only on permissionRequest and notification, so the hook runs for every %s", m, n)
		}
		if s := c.seconds(h); s > 0 {
			o = append(o, kv{"timeoutSec", s})
		}
		c.asyncLoss(h, "copilot")
		byEvent[n] = append(byEvent[n], o)
	}
	return render(obj{{"version", 1}, {"hooks", flat(byEvent)}})
}

// native writes hookcore's YAML dialect: `hooks:` a sequence of entries (id, event, matcher,
// if, action, and the controls), sorted by event, file order within an event, then the
// file's disable_all_hooks and parallel when set. Everything
// hookcore reads is carried over except Claude Code's statusMessage and asyncRewake (kept as
// plain async), and the reply protocol of another agent's command hook (protocolLoss);
// another agent's directory variables are rewritten (portable).
func (c *conv) native(f *config.File) ([]byte, error) {
	order := slices.Clone(f.Hooks)
	slices.SortStableFunc(order, func(a, b config.Hook) int { return strings.Compare(string(a.Event), string(b.Event)) })
	var list []yaml.MapSlice
	for i := range order {
		h := &order[i]
		var e yaml.MapSlice
		if !generatedID().MatchString(h.ID) {
			e = append(e, yaml.MapItem{Key: "id", Value: h.ID})
		}
		e = append(e, yaml.MapItem{Key: "event", Value: string(h.Event)})
		if m := c.nativeMatcher(h); m != "" {
			e = append(e, yaml.MapItem{Key: "matcher", Value: m})
		}
		if h.If != "" {
			e = append(e, yaml.MapItem{Key: "if", Value: h.If})
		}
		c.protocolLoss(h, string(h.Event))
		c.agentOnly(h)
		c.sequential(h)
		a := h.Action
		if a.Type == config.TypeCommand {
			if cmd := c.portable(h); len(a.Args) == 0 {
				a.Command = cmd // another agent's directory variables rewritten
			}
		}
		e = append(e, yaml.MapItem{Key: "action", Value: nativeAction(&a)})
		if h.Timeout > 0 && h.Action.Timeout == 0 {
			e = append(e, yaml.MapItem{Key: "timeout", Value: h.Timeout.String()})
		}
		for _, b := range []struct {
			k string
			v bool
		}{{"reject", h.Reject}, {"once", h.Once}, {"async", h.Async || h.AsyncRewake}, {"parallel", h.Parallel}} {
			if b.v {
				e = append(e, yaml.MapItem{Key: b.k, Value: true})
			}
		}
		if !h.Blocking {
			e = append(e, yaml.MapItem{Key: "blocking", Value: false})
		}
		if h.OnError != "" {
			e = append(e, yaml.MapItem{Key: "on_error", Value: h.OnError})
		}
		codes := h.ExitCodes
		if len(codes) == 0 && h.S08 {
			codes = map[int]string{1: "block", 2: "inject"}
		}
		if len(codes) > 0 {
			var m yaml.MapSlice
			for _, k := range slices.Sorted(maps.Keys(codes)) {
				m = append(m, yaml.MapItem{Key: k, Value: codes[k]})
			}
			e = append(e, yaml.MapItem{Key: "exit_codes", Value: m})
		}
		if !h.Enabled {
			e = append(e, yaml.MapItem{Key: "enabled", Value: false})
		}
		if h.StatusMessage != "" {
			c.lose(h, "statusMessage not carried over: hookcore's YAML has no such key")
		}
		if h.AsyncRewake {
			c.lose(h, "asyncRewake written as async: the agent is not woken with the hook's output")
		}
		list = append(list, e)
	}
	if list == nil {
		list = []yaml.MapSlice{}
	}
	top := yaml.MapSlice{{Key: "hooks", Value: list}}
	if f.DisableAll {
		top = append(top, yaml.MapItem{Key: "disable_all_hooks", Value: true})
	}
	if f.Parallel {
		top = append(top, yaml.MapItem{Key: "parallel", Value: true})
	}
	return yaml.MarshalWithOptions(top, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
}

func nativeAction(a *config.Action) yaml.MapSlice {
	m := yaml.MapSlice{{Key: "type", Value: a.Type}}
	add := func(k string, v any, set bool) {
		if set {
			m = append(m, yaml.MapItem{Key: k, Value: v})
		}
	}
	add("command", a.Command, a.Command != "")
	add("args", a.Args, len(a.Args) > 0)
	add("shell", a.Shell, a.Shell != "")
	add("message", a.Message, a.Message != "")
	add("url", a.URL, a.URL != "")
	add("method", a.Method, a.Method != "")
	if len(a.Headers) > 0 {
		var hs yaml.MapSlice
		for _, k := range slices.Sorted(maps.Keys(a.Headers)) {
			hs = append(hs, yaml.MapItem{Key: k, Value: a.Headers[k]})
		}
		add("headers", hs, true)
	}
	add("body", a.Body, a.Body != "")
	add("allowed_hosts", a.AllowedHosts, len(a.AllowedHosts) > 0)
	add("allowed_env_vars", a.AllowedEnvVars, len(a.AllowedEnvVars) > 0)
	add("prompt", a.Prompt, a.Prompt != "")
	add("model", a.Model, a.Model != "")
	add("name", a.Name, a.Name != "")
	add("policy", a.Policy, a.Policy != "")
	add("query", a.Query, a.Query != "")
	add("bundle_url", a.BundleURL, a.BundleURL != "")
	add("bundle_poll", a.BundlePoll.String(), a.BundlePoll != 0)
	add("verification_key", a.VerificationKey, a.VerificationKey != "")
	add("decision_log_url", a.DecisionLogURL, a.DecisionLogURL != "")
	add("server", a.Server, a.Server != "")
	add("tool", a.Tool, a.Tool != "")
	if len(a.Input) > 0 {
		add("input", a.Input, true)
	}
	add("timeout", a.Timeout.String(), a.Timeout != 0)
	return m
}

package hookcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// A tool call that runs a shell command, or opens a URL, is a Bash call, or a WebFetch call,
// to the guards (docs/decisions.md, "Tools that run a shell command are Bash calls to the
// guards"). Red team round 45, observed with Claude Code 2.1.332: its Monitor tool (deferred,
// on by default) ran `rm -rf` past every Bash guard, since the guards' matchers and rules name
// Bash, and its WebSocket URL (ws.url) is seen by no WebFetch domain rule.
//
// A toolView is one such part of a call: the call's shell command as a Bash call, or one of
// its URLs as a WebFetch call.
type toolView struct {
	tool  string          // "Bash" or "WebFetch"
	input json.RawMessage // the view's tool input: {"command", "description"} or {"url"}
	// keys maps each key of the view's input to the path of the real input it comes from,
	// for a tool whose views hookcore can carry a rewrite back into (Monitor's); nil for the
	// others, whose rewrites block.
	keys map[string][]string
	need string // the key the view is for ("command", "url"): a rewrite must keep it
	from string // where in the real input it comes from, for the reasons ("command", "ws.url")
	// bad is the shape of a value hookcore cannot read ("a JSON object") under a key the
	// views read: such a view blocks the call when a hook may match its tool (fails closed).
	bad string
}

// maxViews is the most views Fire runs the hooks for in one call: a call whose input holds
// more shell commands and URLs than that is blocked (a guard fails closed) rather than fire
// the guards once for each of thousands of fields the model wrote.
const maxViews = 16

// notShellTools are tools with a `command` argument that is no bash command line, which
// viewsOf leaves alone: Claude Code's PowerShell tool and Copilot CLI's powershell, whose
// commands are PowerShell (their own rules, `PowerShell(...)`, see README "What the agent runs
// without asking a hook"), and Claude Code's former SlashCommand tool, whose `command` is a
// "/name args" line (a skill's shell lines fire PreSkillShellCommand).
var notShellTools = map[string]bool{"PowerShell": true, "powershell": true, "SlashCommand": true}

// viewsOf returns the views of a call of tool with the tool input raw. exact is true for a
// tool whose arguments hookcore knows (Monitor: a rewrite of a view can be carried back, an
// allow of its one view is an allow of the call). why is not empty when the call must be
// blocked instead (its input is ambiguous, or holds more than maxViews views).
//
// Bash and WebFetch have none (they are what the rules read), nor have notShellTools. Claude
// Code's Monitor (observed, 2.1.332: exactly one of command or ws, else an input validation
// error before any hook) has its `command` as a Bash call {"command", "description"} and its
// `ws.url` as a WebFetch call {"url"}. Every other tool, an MCP tool included, has a view for
// each `command` or `cmd` (Bash) and `url` (WebFetch) argument, at any depth: a tool hookcore
// does not know that takes a shell command or a URL from the model is guarded as Bash or
// WebFetch is, by the user's own rules (none blocks it by itself).
func viewsOf(tool string, raw json.RawMessage) (views []toolView, exact bool, why string) {
	if tool == "Bash" || tool == "WebFetch" || notShellTools[tool] || !mayHoldViewKey(raw) {
		return nil, false, ""
	}
	if err := hook.CheckToolInput(raw); errors.Is(err, hook.ErrAmbiguousInput) {
		return nil, false, "tool input rejected: " + err.Error()
	}
	if tool == "Monitor" {
		return monitorViews(raw), true, ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false, "" // the agent cannot read it either
	}
	walkViews(v, "", &views)
	if len(views) > maxViews {
		return nil, false, fmt.Sprintf("hookcore: %s's input holds %d shell commands and URLs, more than the %d hookcore checks one by one", tool, len(views), maxViews)
	}
	return views, false, ""
}

// monitorViews returns the views of a call of Claude Code's Monitor tool:
// {description, timeout_ms, command} or {description, timeout_ms, ws: {url, protocols}}.
func monitorViews(raw json.RawMessage) []toolView {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	var views []toolView
	if cmd, ok := stringAt(m, "command"); ok {
		in := map[string]string{"command": cmd}
		if desc, ok := stringAt(m, "description"); ok {
			in["description"] = desc
		}
		views = append(views, toolView{tool: "Bash", input: marshalView(in),
			keys: map[string][]string{"command": {"command"}, "description": {"description"}}, need: "command", from: "command"})
	}
	var ws map[string]json.RawMessage
	if json.Unmarshal(m["ws"], &ws) == nil {
		if url, ok := stringAt(ws, "url"); ok {
			views = append(views, toolView{tool: "WebFetch", input: marshalView(map[string]string{"url": url}),
				keys: map[string][]string{"url": {"ws", "url"}}, need: "url", from: "ws.url"})
		}
	}
	return views
}

// stringAt returns m[k] when it is a JSON string.
func stringAt(m map[string]json.RawMessage, k string) (string, bool) {
	var s string
	v := bytes.TrimSpace(m[k])
	return s, len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil
}

// The argument names walkViews reads, any case (strings.EqualFold). A command-like key holds a
// shell command: a string as it is, an array of strings as an argv (its words single-quoted);
// `commands` holds a list of them (a string is one). `program` is an executable run with
// the argv `args` (an array, or a string appended as it is). A URL-like key holds a URL, or an
// array of them. `args` alone is no command: an MCP tool's `args` is as often a function's
// arguments; it is read with a `program`, or with a string `command` (an MCP server entry's
// {command, args}), beside it.
// `executable` and `exec` are `program` by other names. A key whose last word is url or uri
// (base_url, baseUrl, webhook_uri, target_urls) is URL-like too (urlKey; red team round 48:
// an MCP tool's base_url, links and executable passed the guards unread).
var (
	commandKeys = []string{"command", "cmd", "cmdline", "command_line", "commandline", "script", "shell_command", "shellcommand", "argv"}
	urlKeys     = []string{"url", "urls", "uri", "uris", "href", "hrefs", "endpoint", "endpoints", "link", "links"}
	programKeys = []string{"program", "executable", "exec"}
	urlSuffixes = []string{"url", "urls", "uri", "uris"}
)

// viewKeys are the argument names viewsOf reads in a tool it does not know, any case
// (mayHoldViewKey scans for them, and for urlKey's suffixes): the command-like and URL-like
// keys, `commands` and the program keys.
var viewKeys = slices.Concat(commandKeys, urlKeys, []string{"commands"}, programKeys)

// urlKey reports whether k names a URL: one of urlKeys, any case, or a name whose last word
// is url, urls, uri or uris, after '_', '-' or '.' or in camel case (baseUrl, webhookURL).
func urlKey(k string) bool {
	if foldIn(k, urlKeys) {
		return true
	}
	for _, suf := range urlSuffixes {
		if len(k) <= len(suf) || !strings.EqualFold(k[len(k)-len(suf):], suf) {
			continue
		}
		before, first := k[len(k)-len(suf)-1], k[len(k)-len(suf)]
		if before == '_' || before == '-' || before == '.' || first == 'U' && 'a' <= before && before <= 'z' || first == 'U' && '0' <= before && before <= '9' {
			return true
		}
		if k[len(k)-len(suf):] == strings.ToUpper(suf) && 'A' <= before && before <= 'Z' {
			return true // webhookURL: an upper-case word after others
		}
	}
	return false
}

// foldCount returns how many keys of m spell one of names, any case, and the value of the
// last one.
func foldCount(m map[string]any, names []string) (v any, n int) {
	for _, name := range names {
		if e, c := foldGet(m, name); c > 0 {
			v, n = e, n+c
		}
	}
	return v, n
}

// foldIn reports whether k is one of names, any case.
func foldIn(k string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}

// foldGet returns the value of m's key name in any case, and how many keys spell it.
func foldGet(m map[string]any, name string) (v any, n int) {
	for k, e := range m {
		if strings.EqualFold(k, name) {
			v, n = e, n+1
		}
	}
	return v, n
}

// walkViews appends to views the views of the decoded JSON value v, at path at: object keys
// in sorted order, so that the views come in one order. A key it reads whose value has a
// shape it cannot read (a `command` that is an object, a `url` that is a number) is a view
// with bad set: the call is blocked (viewsAsCalls), as attacker-written input hookcore
// cannot read is everywhere else, rather than let past the guards unread.
func walkViews(v any, at string, views *[]toolView) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		args, nargs := foldGet(v, "args")
		_, nprog := foldCount(v, programKeys)
		for _, k := range keys {
			p := k
			if at != "" {
				p = at + "." + k
			}
			switch {
			case urlKey(k):
				urlViews(v[k], p, views)
				continue
			case foldIn(k, programKeys):
				prog, ok := v[k].(string)
				if !ok || nprog > 1 || nargs > 1 {
					*views = append(*views, badView("Bash", p, v[k]))
					continue
				}
				line, ok := withArgs("'"+strings.ReplaceAll(prog, "'", `'\''`)+"'", args)
				if !ok {
					*views = append(*views, badView("Bash", p+" args", args))
					continue
				}
				*views = append(*views, commandView(line, p))
				continue
			case strings.EqualFold(k, "commands"):
				if l, ok := v[k].([]any); ok {
					for i, e := range l {
						commandViews(e, fmt.Sprintf("%s[%d]", p, i), views)
					}
					continue
				}
				commandViews(v[k], p, views)
				continue
			case foldIn(k, commandKeys):
				if s, ok := commandLine(v[k]); ok && nargs > 0 && nprog == 0 && (strings.EqualFold(k, "command") || strings.EqualFold(k, "cmd")) {
					line, ok := withArgs(s, args)
					if !ok || nargs > 1 {
						*views = append(*views, badView("Bash", p+" args", args))
						continue
					}
					*views = append(*views, commandView(line, p))
					continue
				}
				commandViews(v[k], p, views)
				continue
			}
			walkViews(v[k], p, views)
		}
	case []any:
		for i, e := range v {
			walkViews(e, fmt.Sprintf("%s[%d]", at, i), views)
		}
	}
}

// commandViews appends the view of the command-like value v at path p: a Bash call, none
// for null, a bad view for a shape that is no command.
func commandViews(v any, p string, views *[]toolView) {
	if v == nil {
		return
	}
	if s, ok := commandLine(v); ok {
		*views = append(*views, commandView(s, p))
		return
	}
	*views = append(*views, badView("Bash", p, v))
}

// urlViews appends the views of the URL-like value v at path p: a WebFetch call for a string
// and for each string of an array, none for null, a bad view for any other shape.
func urlViews(v any, p string, views *[]toolView) {
	switch v := v.(type) {
	case nil:
	case string:
		*views = append(*views, toolView{tool: "WebFetch", input: marshalView(map[string]string{"url": v}), need: "url", from: p})
	case []any:
		for i, e := range v {
			if _, ok := e.(string); !ok && e != nil {
				*views = append(*views, badView("WebFetch", fmt.Sprintf("%s[%d]", p, i), e))
				continue
			}
			urlViews(e, fmt.Sprintf("%s[%d]", p, i), views)
		}
	default:
		*views = append(*views, badView("WebFetch", p, v))
	}
}

// commandView is the Bash view of the command line s, from path p.
func commandView(s, p string) toolView {
	return toolView{tool: "Bash", input: marshalView(map[string]string{"command": s}), need: "command", from: p}
}

// badView is the view of a value at path p, of a key the views of tool read, that hookcore
// cannot read: it blocks the call when a hook may match tool.
func badView(tool, p string, v any) toolView {
	shape := "null"
	switch v.(type) {
	case map[string]any:
		shape = "a JSON object"
	case []any:
		shape = "an array that is not all strings"
	case string:
		shape = "a string"
	case float64:
		shape = "a number"
	case bool:
		shape = "a boolean"
	}
	return toolView{tool: tool, from: p, bad: shape}
}

// withArgs returns the command line head followed by the argument list args: nothing for
// null, a string as it is, an array of strings single-quoted; false for any other shape.
func withArgs(head string, args any) (string, bool) {
	switch a := args.(type) {
	case nil:
		return head, true
	case string:
		return head + " " + a, true
	case []any:
		if len(a) == 0 {
			return head, true
		}
		words, ok := commandLine(a)
		return head + " " + words, ok
	}
	return "", false
}

// commandLine returns the command line of a command-like argument: a string as it is, an
// array of strings (an argv, as Codex's former shell tool took) as its words single-quoted.
func commandLine(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case []any:
		words := make([]string, 0, len(v))
		for _, w := range v {
			s, ok := w.(string)
			if !ok {
				return "", false
			}
			words = append(words, "'"+strings.ReplaceAll(s, "'", `'\''`)+"'")
		}
		return strings.Join(words, " "), len(words) > 0
	}
	return "", false
}

// marshalView returns the JSON object of a view's input.
func marshalView(m map[string]string) json.RawMessage {
	b, _ := marshalPlain(m) // strings only: cannot fail
	return b
}

// marshalPlain is json.Marshal without its HTML escaping: "a && b" stays as written, for the
// hooks and rules that read the text of a tool input (a `/re/` filter), as the agent wrote it.
func marshalPlain(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// mayHoldViewKey reports whether the JSON text raw may hold a key walkViews reads: the
// quoted name of one, any case, or a \u escape, which may spell one. It spares decoding the
// input of every Read and Edit call.
func mayHoldViewKey(raw []byte) bool {
	if bytes.Contains(raw, []byte(`\u`)) {
		return true
	}
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '"')
		if j < 0 {
			return false
		}
		i += j + 1
		for _, k := range viewKeys {
			if end := i + len(k); end < len(raw) && raw[end] == '"' && strings.EqualFold(string(raw[i:end]), k) {
				return true
			}
		}
		if e := bytes.IndexByte(raw[i:], '"'); e > 3 && e <= 256 {
			name := raw[i : i+e]
			for _, suf := range urlSuffixes {
				if len(name) > len(suf) && bytes.EqualFold(name[len(name)-len(suf):], []byte(suf)) {
					return true // urlKey decides; this only spares the decoding
				}
			}
		}
	}
}

// carryBack returns the real input with the view's rewritten input (a hook's updatedInput)
// put back where the view came from; why says why it cannot be, when it cannot: a view of a
// tool hookcore does not know, a key the tool does not take or one that is not a string, or
// the view's own key left out.
func (v toolView) carryBack(real, rewritten json.RawMessage) (json.RawMessage, string) {
	if v.keys == nil {
		return nil, "hookcore cannot carry a rewrite back into a tool it does not know"
	}
	var rw map[string]json.RawMessage
	if json.Unmarshal(rewritten, &rw) != nil {
		return nil, "the rewritten input is not a JSON object"
	}
	if rw[v.need] == nil {
		return nil, fmt.Sprintf("the rewritten input has no %q", v.need)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(real, &m) != nil {
		return nil, "the tool input is not a JSON object"
	}
	names := make([]string, 0, len(rw))
	for k := range rw {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		path, ok := v.keys[k]
		var s string
		if !ok || json.Unmarshal(rw[k], &s) != nil {
			return nil, fmt.Sprintf("the rewritten input has %q, which %s does not take", k, v.from)
		}
		if err := setPath(m, path, rw[k]); err != nil {
			return nil, err.Error()
		}
	}
	b, err := marshalPlain(m)
	if err != nil {
		return nil, err.Error()
	}
	return b, ""
}

// setPath sets the value at path (one or two keys) of the decoded object m.
func setPath(m map[string]json.RawMessage, path []string, val json.RawMessage) error {
	if len(path) == 1 {
		m[path[0]] = val
		return nil
	}
	var inner map[string]json.RawMessage
	if json.Unmarshal(m[path[0]], &inner) != nil {
		return fmt.Errorf("the tool input's %q is not a JSON object", path[0])
	}
	if err := setPath(inner, path[1:], val); err != nil {
		return err
	}
	b, err := marshalPlain(inner)
	m[path[0]] = b
	return err
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// mayMatchTool reports whether a hook of eh may match a call of tool: one whose matcher is
// the tool's name, or any or a regular expression.
func mayMatchTool(eh *eventHooks, tool string) bool {
	if eh == nil {
		return false
	}
	if eh.field == "" || len(eh.any) > 0 {
		return len(eh.all) > 0
	}
	var buf [16]byte
	return len(eh.byName[string(match.FoldKey(buf[:0], tool))]) > 0
}

// viewsAsCalls runs the hooks of res's event (PreToolUse or PermissionRequest) on each view
// of the call in (viewsOf) as on a call of the view's tool, after the call's own hooks gave
// res, which they did not block, and merges their results into res. The hooks get the event's
// input with tool_name the view's tool, tool_input the view's input and "hookcore_view_of"
// the real tool's name. A hook runs once for the call and its views (ran holds those that
// ran): one that matched the call itself (matcher `*`, say) had the real call and does not
// run again.
//
// A view's block blocks the call. A view's rewrite is carried back into the real input for a
// tool whose arguments hookcore knows (Monitor: the command and description, or the URL),
// and blocks otherwise, or when the rewrite adds what the tool does not take, as a rewritten
// skill command does (skillShellAsBash). A view's ask, defer or deny is the call's as a
// stronger decision; its allow is the call's only for a known tool whose every view allowed
// (an allow of a command does not approve the other arguments of a tool hookcore does not
// know). Context, system messages, stop requests and hook records add up.
func (r *Runner) viewsAsCalls(ctx context.Context, hs *hookSet, in *hook.Input, res *hook.Result, ran []*compiled) {
	eh := hs.events[res.Event]
	if len(in.ToolInput) == 0 || !mayMatchTool(eh, "Bash") && !mayMatchTool(eh, "WebFetch") {
		return
	}
	cur := in.ToolInput
	if res.UpdatedInput != nil {
		cur = res.UpdatedInput
	}
	views, exact, why := viewsOf(in.ToolName, cur)
	if why != "" {
		r.blockView(in, res, why)
		return
	}
	for _, v := range views {
		if v.bad != "" && mayMatchTool(eh, v.tool) {
			what := map[string]string{"Bash": "shell command", "WebFetch": "URL"}[v.tool]
			r.blockView(in, res, fmt.Sprintf("hookcore: %s's %s is %s, which hookcore cannot read as a %s for the %s hooks (it fails closed)", in.ToolName, v.from, v.bad, what, v.tool))
			return
		}
	}
	allowed, fired := true, false
	for _, v := range views {
		if v.bad != "" || !mayMatchTool(eh, v.tool) {
			allowed = false
			continue
		}
		fired = true
		as := in.Clone()
		as.HookEventName = string(res.Event)
		as.ToolName, as.ToolInput = v.tool, v.input
		if as.Extra == nil {
			as.Extra = map[string]json.RawMessage{}
		}
		as.Extra["hookcore_view_of"], _ = marshalPlain(in.ToolName)
		pre := r.fireOnce(ctx, hs, hs.lookup(res.Event), as, &ran)
		mergeAlongside(res, &pre)
		if pre.Blocked {
			res.Blocked, res.Reason = true, pre.Reason
			if res.Permission != hook.NoPermission {
				res.Permission = hook.Deny // merge rule 12
			}
			return
		}
		if pre.UpdatedInput != nil && !sameJSON(pre.UpdatedInput, v.input) {
			next, why := v.carryBack(cur, pre.UpdatedInput)
			if why != "" {
				r.blockView(in, res, fmt.Sprintf("hookcore: a %s hook rewrote %s's %s as a %s call, which hookcore cannot carry back to %s: %s", res.Event, in.ToolName, v.from, v.tool, in.ToolName, why))
				return
			}
			cur, res.UpdatedInput = next, next
		}
		if pre.Permission != hook.Allow {
			allowed = false
			if pre.Permission.Stronger(res.Permission) {
				res.Permission = pre.Permission
				if res.Reason == "" {
					res.Reason = pre.Reason
				}
			}
		}
	}
	if exact && fired && allowed && hook.Allow.Stronger(res.Permission) {
		res.Permission = hook.Allow
	}
}

// blockView blocks the call in, whose result is res, for why (a view that cannot be checked
// or carried back), and logs and audits the block.
func (r *Runner) blockView(in *hook.Input, res *hook.Result, why string) {
	res.Blocked, res.Reason = true, why
	if res.Permission != hook.NoPermission {
		res.Permission = hook.Deny // merge rule 12
	}
	r.log.Info("tool call blocked", "event", string(res.Event), "tool", in.ToolName, "why", why)
	audited := *res // a copy: res stays on Fire's stack
	r.audit(in, &audited)
}

// mergeAlongside merges into res what the hooks run alongside its own (the PreToolUse hooks
// on a skill's shell command, those on a view of a call) said besides a block, a rewrite and
// a permission, which their callers merge: their records and errors, context, system
// messages and a request to stop.
func mergeAlongside(res *hook.Result, pre *hook.Result) {
	res.Hooks = append(res.Hooks, pre.Hooks...)
	res.Errors += pre.Errors
	if pre.AdditionalContext != "" {
		if res.AdditionalContext != "" {
			res.AdditionalContext += "\n"
		}
		res.AdditionalContext += pre.AdditionalContext
	}
	if pre.SystemMessage != "" {
		appendSystemMessage(res, pre.SystemMessage)
	}
	if !pre.Continue {
		res.Continue, res.StopReason = false, pre.StopReason
	}
}

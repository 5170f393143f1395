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
	"sync"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
)

// A tool call that runs a shell command, opens a URL or reads or writes a file is a Bash, a
// WebFetch, or a Read or Write call to the guards (docs/decisions.md, "Tools that run a shell
// command are Bash calls to the guards", "Red team round 50: file views and more view keys").
// Red team round 45, observed with Claude Code 2.1.332: its Monitor tool (deferred, on by
// default) ran `rm -rf` past every Bash guard, since the guards' matchers and rules name
// Bash, and its WebSocket URL (ws.url) is seen by no WebFetch domain rule. Red team round 50,
// with the real Claude Code: an MCP file server's write_file wrote over the hook program,
// past every guard of the Write tool.
//
// A toolView is one such part of a call: the call's shell command as a Bash call, one of
// its URLs as a WebFetch call, one of the files it names as a Write call (fired as Edit
// too) or a Read call.
type toolView struct {
	tool  string          // "Bash", "WebFetch", "Write" or "Read"; "*" for a bad view of any
	input json.RawMessage // the view's tool input: {"command", "description"}, {"url"} or {"file_path"}
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

// viewTools are the tools a hook is fired as for a view of each tool: a write is a Write
// and an Edit call (a guard of either sees it; a hook that matched one does not run for
// the other), a bad view of any tool ("*", a JSON text hookcore cannot read) any of them.
var viewTools = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"Bash": {"Bash"}, "WebFetch": {"WebFetch"}, "Write": {"Write", "Edit"}, "Read": {"Read"},
		"*": {"Bash", "WebFetch", "Write", "Edit", "Read"},
	}
})

// mayMatch reports whether a hook of eh may match a call of one of the view's tools.
func (v toolView) mayMatch(eh *eventHooks) bool {
	for _, t := range viewTools()[v.tool] {
		if mayMatchTool(eh, t) {
			return true
		}
	}
	return false
}

// maxViews is the most views Fire runs the hooks for in one call: a call whose input holds
// more shell commands, URLs and file paths a hook may match than that is blocked (a guard
// fails closed) rather than fire the guards once for each of thousands of fields the model
// wrote.
const maxViews = 16

// notShellTools are tools with a `command` argument that is no bash command line, which
// viewsOf leaves alone: Claude Code's PowerShell tool and Copilot CLI's powershell, whose
// commands are PowerShell (their own rules, `PowerShell(...)`, see README "What the agent runs
// without asking a hook"), and Claude Code's former SlashCommand tool, whose `command` is a
// "/name args" line (a skill's shell lines fire PreSkillShellCommand).
var notShellTools = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"PowerShell": true, "powershell": true, "SlashCommand": true}
})

// viewsOf returns the views of a call of tool with the tool input raw in the directory cwd,
// for hooks that may match a command or URL view (commands set) or only others. exact is true for a tool whose
// arguments hookcore knows (Monitor: a rewrite of a view can be carried back, an allow of
// its one view is an allow of the call). why is not empty when the call must be blocked
// instead (its input is ambiguous).
//
// WebFetch has none (it is what the rules read), nor have notShellTools; Bash has a Write
// view of each file an apply_patch invocation in its command writes (bashViews), and
// Codex's apply_patch tool one of each file its patch writes (patchCallViews), with no shell
// command view: the patch is none (toolview_patch.go). Claude
// Code's Monitor (observed, 2.1.332: exactly one of command or ws, else an input validation
// error before any hook) has its `command` as a Bash call {"command", "description"} and its
// `ws.url` as a WebFetch call {"url"}. Every other tool has a view for each argument that
// holds a shell command, code or a URL, at any depth (walkViews: the key names in toolview_keys.go);
// a tool that is not one of Claude Code's own (ownTools), an MCP tool, also has a view for
// each file path it names (a Write call, or a Read call for a tool whose name says it reads),
// by its key or by its value (a string that reads as a path, under any key but a text's; a
// name that exists in cwd; parts joined: toolview_values.go), for each string argument that
// is a URL, and for those in a string argument that is a JSON object or array. A tool hookcore does not know that takes a shell command, a URL or a path
// from the model is guarded as Bash, WebFetch, Write or Read is, by the user's own rules
// (none blocks it by itself).
func viewsOf(tool string, raw json.RawMessage, commands bool, cwd string) (views []toolView, exact bool, why string) {
	if tool == "Bash" {
		return bashViews(raw), false, ""
	}
	if tool == "WebFetch" || notShellTools()[tool] {
		return nil, false, ""
	}
	if ownTools()[tool] && (!commands || !mayHoldViewKey(raw)) {
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
	if tool == patchTool {
		m, ok := v.(map[string]any)
		if !ok {
			return []toolView{unknownFileView("tool_input")}, false, ""
		}
		return patchCallViews(m, cwd), false, ""
	}
	return walkViews(tool, v, cwd), false, ""
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
// the real tool's name. A hook that matched the call itself (matcher `*`, say; ran holds
// those) had the real call and does not run on its views; a hook runs once on each view
// (once for a write view's Write and Edit firings), since each view's input is another.
//
// A view's block blocks the call. A view's rewrite is carried back into the real input for a
// tool whose arguments hookcore knows (Monitor: the command and description, or the URL),
// and blocks otherwise, or when the rewrite adds what the tool does not take, as a rewritten
// skill command does (skillShellAsBash). A view's ask, defer or deny is the call's as a
// stronger decision; its allow is the call's only for a known tool whose every view allowed
// (an allow of a command does not approve the other arguments of a tool hookcore does not
// know). Context, system messages, stop requests and hook records add up. A view no hook may
// match is left out; a call with more than maxViews others is blocked.
func (r *Runner) viewsAsCalls(ctx context.Context, hs *hookSet, in *hook.Input, res *hook.Result, ran []*compiled) {
	eh := hs.events[res.Event]
	commands := mayMatchTool(eh, "Bash") || mayMatchTool(eh, "WebFetch")
	if len(in.ToolInput) == 0 || !commands && !mayMatchTool(eh, "Write") && !mayMatchTool(eh, "Edit") && !mayMatchTool(eh, "Read") {
		return
	}
	cur := in.ToolInput
	if res.UpdatedInput != nil {
		cur = res.UpdatedInput
	}
	views, exact, why := viewsOf(in.ToolName, cur, commands, in.Cwd)
	if why != "" {
		r.blockView(in, res, why)
		return
	}
	all := len(views)
	views = slices.DeleteFunc(views, func(v toolView) bool { return !v.mayMatch(eh) })
	for _, v := range views {
		if v.bad != "" {
			what := map[string]string{"Bash": "a shell command", "WebFetch": "a URL", "Write": "a file path", "Read": "a file path", "*": "tool arguments"}[v.tool]
			hooks := map[string]string{"Bash": "Bash", "WebFetch": "WebFetch", "Write": "Write and Edit", "Read": "Read", "*": "Bash, WebFetch and file"}[v.tool]
			r.blockView(in, res, fmt.Sprintf("hookcore: %s's %s is %s, which hookcore cannot read as %s for the %s hooks (it fails closed)", in.ToolName, v.from, v.bad, what, hooks))
			return
		}
	}
	if len(views) > maxViews {
		r.blockView(in, res, fmt.Sprintf("hookcore: %s's input holds %d shell commands, URLs and file paths, more than the %d hookcore checks one by one", in.ToolName, len(views), maxViews))
		return
	}
	allowed, fired := len(views) == all, false
	for _, v := range views {
		// A hook that ran on the call does not run on its views; one that ran on another
		// view, whose input differs, does (red team round 50: a script guard that let
		// `rm x` through never saw the `rm -rf` after it); one that ran on this view as
		// Write does not run again as Edit.
		vran := slices.Clip(ran)
		for _, tool := range viewTools()[v.tool] {
			if !mayMatchTool(eh, tool) {
				allowed = allowed && tool == "Edit" // a write view's Edit firing is an extra
				continue
			}
			fired = true
			if !r.fireView(ctx, hs, in, res, v, tool, &cur, &vran, &allowed) {
				return
			}
		}
	}
	if exact && fired && allowed && hook.Allow.Stronger(res.Permission) {
		res.Permission = hook.Allow
	}
}

// fireView runs the hooks of res's event on the view v of the call in as on a call of
// tool, and merges their result into res (viewsAsCalls); cur is the call's input as
// rewritten so far. It returns false when the call is blocked.
func (r *Runner) fireView(ctx context.Context, hs *hookSet, in *hook.Input, res *hook.Result, v toolView, tool string, cur *json.RawMessage, ran *[]*compiled, allowed *bool) bool {
	as := in.Clone()
	as.HookEventName = string(res.Event)
	as.ToolName, as.ToolInput = tool, v.input
	if as.Extra == nil {
		as.Extra = map[string]json.RawMessage{}
	}
	as.Extra["hookcore_view_of"], _ = marshalPlain(in.ToolName)
	pre := r.fireOnce(ctx, hs, hs.lookup(res.Event), as, ran)
	mergeAlongside(res, &pre)
	if pre.Blocked {
		res.Blocked, res.Reason = true, pre.Reason
		if res.Permission != hook.NoPermission {
			res.Permission = hook.Deny // merge rule 12
		}
		return false
	}
	if pre.UpdatedInput != nil && !sameJSON(pre.UpdatedInput, v.input) {
		next, why := v.carryBack(*cur, pre.UpdatedInput)
		if why != "" {
			r.blockView(in, res, fmt.Sprintf("hookcore: a %s hook rewrote %s's %s as a %s call, which hookcore cannot carry back to %s: %s", res.Event, in.ToolName, v.from, tool, in.ToolName, why))
			return false
		}
		*cur, res.UpdatedInput = next, next
	}
	if pre.Permission != hook.Allow {
		*allowed = false
		if pre.Permission.Stronger(res.Permission) {
			res.Permission = pre.Permission
			if res.Reason == "" {
				res.Reason = pre.Reason
			}
		}
	}
	return true
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

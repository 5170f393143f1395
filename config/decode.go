package config

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"

	"github.com/hookcore/hookcore/hook"
)

// rawHook is a hook being decoded: the Hook, the nodes of its keys for positions, and its
// problems (whose HookID is filled in once ids are assigned).
type rawHook struct {
	h          Hook
	entry      ast.Node      // the entry's mapping, for positions of missing keys
	actionNode ast.Node      // the action mapping (native) or the entry (JSON)
	at         map[string]kv // key (canonical spelling) → its pair, for positions
	eventRaw   string        // the event as written
	explicitID bool          // the `id` key was given
	probs      ErrorList
	src        []byte // the file's source, for columns inside `if` (sourceLine)
}

// The keys of each mapping, in the canonical spelling (DESIGN.md section 4).
var (
	actionKeys = []string{"type", "command", "args", "shell", "message", "url", "method", "headers", "body",
		"allowed_hosts", "allowed_env_vars", "prompt", "model", "timeout", "name",
		"policy", "query", "bundle_url", "bundle_poll", "verification_key", "decision_log_url",
		"server", "tool", "input"}
	hookKeys = []string{"id", "matcher", "if", "reject", "blocking", "once", "async", "parallel",
		"on_error", "exit_codes", "enabled", "description"}
	nativeKeys = append(slices.Clone(hookKeys), "event", "action", "timeout")
	jsonKeys   = append(slices.Clone(hookKeys), actionKeys...)
	groupKeys  = []string{"matcher", "hooks"}
)

// jsonAliases maps the camelCase spellings of Claude Code settings to the canonical keys;
// "" means "accepted and ignored".
var jsonAliases = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"allowedHosts":   "allowed_hosts",
		"allowedEnvVars": "allowed_env_vars",
		"onError":        "on_error",
		"exitCodes":      "exit_codes",
	}
})

// typeFields lists the action keys each type uses; others draw a warning.
var typeFields = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		TypeCommand: {"command", "args", "shell"},
		TypeHTTP:    {"url", "method", "headers", "body", "allowed_hosts", "allowed_env_vars"},
		TypePrompt:  {"prompt", "model"},
		TypeAgent:   {"prompt", "model"},
		TypeInject:  {"message"},
		TypeFunc:    {"name"},
		TypeRego:    {"policy", "query", "bundle_url", "bundle_poll", "verification_key", "decision_log_url", "allowed_hosts"},
		TypeMCPTool: {"server", "tool", "input", "allowed_hosts"},
	}
})

func newRaw(entry ast.Node, d *decoder, dialect Dialect) *rawHook {
	r := &rawHook{entry: entry, actionNode: entry, at: map[string]kv{}, src: d.src}
	r.h.Blocking, r.h.Enabled = true, true
	r.h.Pos = d.pos(entry)
	r.h.Dialect = dialect
	return r
}

// hookField decodes a key shared by all dialects; it reports whether the key was one.
func (d *decoder) hookField(r *rawHook, p kv) bool {
	h := &r.h
	var ok bool
	switch p.key {
	case "id":
		h.ID, _ = d.str(p)
		h.ID = strings.TrimSpace(h.ID)
		r.explicitID = h.ID != ""
	case "matcher":
		h.Matcher, _ = d.str(p)
	case "if":
		h.If, _ = d.str(p)
	case "reject":
		h.Reject, _ = d.boolean(p)
	case "blocking":
		if h.Blocking, ok = d.boolean(p); !ok || p.val == nil {
			h.Blocking = true
		}
	case "once":
		h.Once, _ = d.boolean(p)
	case "async":
		h.Async, _ = d.boolean(p)
	case "parallel":
		h.Parallel, _ = d.boolean(p)
	case "on_error":
		h.OnError = d.onError(p)
	case "exit_codes":
		h.ExitCodes = d.exitCodes(p)
	case "enabled":
		if h.Enabled, ok = d.boolean(p); !ok || p.val == nil {
			h.Enabled = true
		}
	case "description":
		d.str(p) // documentation only
	default:
		return false
	}
	r.at[p.key] = p
	return true
}

// actionField decodes an action key; it reports whether the key was one.
func (d *decoder) actionField(r *rawHook, p kv) bool {
	a := &r.h.Action
	switch p.key {
	case "type":
		a.Type, _ = d.str(p)
	case "command":
		a.Command, _ = d.str(p)
	case "args":
		a.Args = d.scalarList(p)
	case "message":
		a.Message, _ = d.str(p)
	case "url":
		a.URL, _ = d.str(p)
	case "method":
		a.Method, _ = d.str(p)
	case "headers":
		a.Headers = d.stringMap(p)
	case "body":
		a.Body, _ = d.str(p)
	case "allowed_hosts":
		a.AllowedHosts = d.scalarList(p)
	case "allowed_env_vars":
		a.AllowedEnvVars = d.scalarList(p)
	case "prompt":
		a.Prompt, _ = d.str(p)
	case "model":
		a.Model, _ = d.str(p)
	case "timeout":
		a.Timeout = d.timeout(p)
	case "name":
		a.Name, _ = d.str(p)
	case "policy":
		a.Policy, _ = d.str(p)
	case "query":
		a.Query, _ = d.str(p)
	case "bundle_url":
		a.BundleURL, _ = d.str(p)
	case "bundle_poll":
		a.BundlePoll = d.timeout(p)
	case "verification_key":
		a.VerificationKey, _ = d.str(p)
	case "decision_log_url":
		a.DecisionLogURL, _ = d.str(p)
	case "server":
		a.Server, _ = d.str(p)
	case "tool":
		a.Tool, _ = d.str(p)
	case "input":
		a.Input = d.object(p)
	default:
		return false
	}
	r.at["action."+p.key] = p
	return true
}

// unknownKey warns about a key nobody reads, suggesting the closest known one.
// gateKeys are the keys of a hook whose loss lets a gate event's call through: a hook that
// was to reject, to block when it fails, or to block on an exit code of its own, runs
// without it and allows.
var gateKeys = []string{"reject", "on_error", "exit_codes"}

// gateSynonyms are words a hook author writes for reject (new-user trial, stop 24: `block:
// true` ran the hook, which did not block, with a warning), with the key they meant.
var gateSynonyms = sync.OnceValue(func() map[string]string {
	return map[string]string{"block": "reject", "blocked": "reject",
		"deny": "reject", "denied": "reject", "rejected": "reject", "veto": "reject", "abort": "reject",
		"refuse": "reject", "prevent": "reject", "forbid": "reject", "decision": "reject",
		"permissiondecision": "reject", "permission_decision": "reject", "fail_closed": "on_error",
		"stop": "reject", "halt": "reject", "disallow": "reject", "cancel": "reject"}
})

// unknownHookKey reports a key of a hookcore or codebot hook entry that is none of known: an
// error, which skips the entry (a gate event then fails closed), when the closest known key
// is one of gateKeys ("rejct: true", "Reject: true": the hook ran, did not reject, and the
// call went through, with a warning no agent shows; red team, stop 24); a warning otherwise.
func (d *decoder) unknownHookKey(p kv, known []string) {
	if s, ok := gateSynonyms()[strings.ToLower(p.key)]; ok {
		d.errorf(p.keyNode, "unknown key %q in hook (did you mean %q?): as written the hook would let the call through", p.key, s)
		return
	}
	if s := nearGateSynonym(p.key); s != "" {
		// New-user trial, stop 30: `blockk: true` was a warning where `block: true` is this
		// error; the guard as written did not block either way.
		d.errorf(p.keyNode, "unknown key %q in hook (did you mean %q?): as written the hook would let the call through", p.key, gateSynonyms()[s])
		return
	}
	if s := Suggest(p.key, known); slices.Contains(gateKeys, s) {
		d.errorf(p.keyNode, "unknown key %q in hook (did you mean %q?): as written the hook would let the call through", p.key, s)
		return
	}
	d.unknownKey(p, "hook", known)
}

// nearGateSynonym returns the word of gateSynonyms that key is a near-miss of ("blockk",
// "denyy", "prevents"), "" when none is. A word of four letters or fewer counts only when key
// starts with it ("stopp"), so that "step" or "top" are not read as "stop".
func nearGateSynonym(key string) string {
	words := make([]string, 0, len(gateSynonyms()))
	for w := range gateSynonyms() {
		words = append(words, w)
	}
	slices.Sort(words) // Suggest breaks ties by order: the same word every time
	s := Suggest(key, words)
	if s == "" || len(s) <= 4 && !strings.HasPrefix(normKey(key), s) {
		return ""
	}
	return s
}

func (d *decoder) unknownKey(p kv, where string, known []string) {
	d.warnf(p.keyNode, "unknown key %q in %s%s", p.key, where, didYouMean(p.key, known))
}

// claudeUnknownKey handles a key of a Claude Code settings entry that hookcore does not
// read: ignored, as Claude Code ignores unknown keys (issue 8.2; a settings file written for
// a newer Claude Code carries fields hookcore does not know), except that a near-miss of a
// known key (one edit or so: "comand") is warned about.
func (d *decoder) claudeUnknownKey(p kv, where string, known []string) {
	if s := Suggest(p.key, known); s != "" {
		d.warnf(p.keyNode, "unknown key %q in %s (did you mean %q?)", p.key, where, s)
	}
}

// native decodes one entry of a native `hooks:` sequence.
func (d *decoder) native(entry ast.Node) *rawHook {
	r := newRaw(entry, d, Native)
	pairs, ok := d.mapping(entry)
	if !ok {
		d.errorf(entry, "a hook must be a mapping with event and action, not a %s", kind(d.resolve(entry)))
		r.probs = d.take()
		return r
	}
	hasEvent, hasAction := false, false
	for _, p := range pairs {
		switch {
		case p.key == "event":
			hasEvent = true
			r.at["event"] = p
			r.eventRaw, ok = d.str(p)
			if ok {
				d.event(r, p.rawValue)
			}
		case p.key == "action":
			hasAction = true
			d.nativeAction(r, p)
		case p.key == "timeout":
			r.at["timeout"] = p
			r.h.Timeout = d.timeout(p)
		case d.hookField(r, p):
		case slices.Contains(actionKeys, p.key):
			d.warnf(p.keyNode, "unknown key %q in hook: %s belongs under action:", p.key, p.key)
		default:
			d.unknownHookKey(p, nativeKeys)
		}
	}
	if !hasEvent {
		d.errorf(entry, "missing event")
	}
	if !hasAction {
		d.errorf(entry, "missing action")
	} else {
		d.finishAction(r, true)
	}
	r.probs = d.take()
	return r
}

func (d *decoder) nativeAction(r *rawHook, p kv) {
	r.actionNode = p.rawValue
	pairs, ok := d.mapping(p.val)
	if !ok {
		d.errorf(p.rawValue, "action must be a mapping, not a %s", kind(p.val))
		return
	}
	for _, q := range pairs {
		switch {
		case d.actionField(r, q):
		case q.key == "shell":
			// The shell a command runs under (bash, sh, pwsh), as in the JSON dialects: it
			// was listed among the action's keys and then not read, and the warning
			// suggested "shell" itself (new-user trial, stop 33).
			r.h.Action.Shell, _ = d.str(q)
			r.at["action.shell"] = q
		case slices.Contains(gateKeys, q.key):
			d.errorf(q.keyNode, "%s is a hook's key, not an action's: under action: it is not read, and the hook would let the call through; write it beside action:", q.key)
		default:
			d.unknownKey(q, "action", actionKeys)
		}
	}
}

// event resolves r.eventRaw; n is the node to blame.
func (d *decoder) event(r *rawHook, n ast.Node) {
	if strings.TrimSpace(r.eventRaw) == "" {
		d.errorf(n, "missing event")
		return
	}
	e, ok := hook.ParseEvent(r.eventRaw)
	if !ok {
		d.errorf(n, "unknown event %q%s", r.eventRaw, didYouMean(r.eventRaw, hook.EventNames()))
		return
	}
	r.h.Event = e
}

// jsonEntry decodes a codebot entry or a Claude Code inner hook of event e (nil e: the
// event was unknown, reported at its key). group is the Claude Code matcher group, or nil.
func (d *decoder) jsonEntry(entry ast.Node, eventRaw string, e hook.Event, dialect Dialect, group *kv) *rawHook {
	r := newRaw(entry, d, dialect)
	r.eventRaw, r.h.Event = eventRaw, e
	if group != nil {
		r.h.Matcher, _ = d.str(*group)
		r.at["matcher"] = *group
	}
	pairs, ok := d.mapping(entry)
	if !ok {
		d.errorf(entry, "a hook must be a mapping with type and command, not a %s", kind(d.resolve(entry)))
		r.probs = d.take()
		return r
	}
	for _, p := range pairs {
		if canon, isAlias := jsonAliases()[p.key]; isAlias {
			if canon == "" {
				continue
			}
			p.key = canon
		}
		switch {
		case p.key == "matcher" && group != nil:
			d.warnf(p.keyNode, "matcher belongs on the matcher group, not on the hook; ignored")
		case dialect == Gemini && d.geminiField(r, p):
		case dialect == Cursor && d.cursorField(r, p):
		case dialect == Copilot && d.copilotField(r, p):
		case d.hookField(r, p):
		case d.actionField(r, p):
		case d.claudeField(r, p):
		case dialect == Nested || dialect == Gemini || dialect == Cursor || dialect == Copilot:
			d.claudeUnknownKey(p, "hook", jsonKeys)
		default:
			d.unknownHookKey(p, jsonKeys)
		}
	}
	claudeExecForm(r)
	claudeShell(r)
	d.finishAction(r, false)
	seedDefaults(r)
	if dialect == Nested && d.codexKeys == "" {
		d.claudeHandlerOnEvent(r)
	}
	r.probs = d.take()
	return r
}

// claudeHandlerOnEvent turns off, with a warning, a Claude Code hook whose handler type its
// event does not take (hook.Event.Handlers): Claude Code does not run it, so neither does
// hookcore. Observed with Claude Code 2.1.332: an http hook on SessionStart is skipped
// ("HTTP hooks are not supported for SessionStart"), a prompt hook there fails to run
// ("prompt-type hooks are not supported for SessionStart events"); research note 1.5 for
// the rest (SessionStart and Setup take command and mcp_tool; events that cannot veto
// take no prompt or agent hooks).
func (d *decoder) claudeHandlerOnEvent(r *rawHook) {
	e, t := r.h.Event, r.h.Action.Type
	if e == "" || t == "" || e.AcceptsHandler(t) {
		return
	}
	blame := r.actionNode
	if kv, ok := r.at["action.type"]; ok {
		blame = kv.rawValue
	}
	d.warnf(blame, "Claude Code does not run %s hooks on %s (it takes %s there), so hookcore does not either", t, e, strings.Join(e.Handlers(), ", "))
	r.h.Enabled = false
}

// finishAction settles the canonical action type and checks the fields it needs. native
// selects the MiniCode meaning of `type: prompt` (message → inject).
func (d *decoder) finishAction(r *rawHook, native bool) {
	a := &r.h.Action
	typeKV, hasType := r.at["action.type"]
	blame := r.actionNode
	if hasType {
		blame = typeKV.rawValue
	}
	t := strings.ToLower(strings.TrimSpace(a.Type))
	switch {
	case t == "" && (a.Command != "" || len(a.Args) > 0):
		t = TypeCommand // s08 entries: {matcher, command}
	case t == "":
		d.errorf(blame, "missing action type (one of %s)", strings.Join(actionTypes, ", "))
		return
	case t == TypePrompt && native:
		switch {
		case a.Message != "" && a.Prompt != "":
			d.errorf(blame, "prompt action has both message (inject context) and prompt (LLM judge); keep one")
			return
		case a.Message != "":
			t = TypeInject
		case a.Prompt == "":
			d.errorf(blame, "prompt action needs message (inject context) or prompt (LLM judge)")
			return
		}
	case !slices.Contains(actionTypes, t):
		d.errorf(blame, "unknown action type %q%s", a.Type, didYouMean(a.Type, actionTypes))
		return
	}
	a.Type = t
	switch {
	case t == TypeCommand && strings.TrimSpace(a.Command) == "" && len(a.Args) == 0:
		d.errorf(blame, "command action needs command or args")
	case t == TypeCommand && strings.TrimSpace(a.Command) != "" && len(a.Args) > 0:
		d.errorf(r.at["action.args"].keyNode, "command and args are exclusive: command is a shell line, args runs a program without a shell")
	case t == TypeHTTP && strings.TrimSpace(a.URL) == "":
		d.errorf(blame, "http action needs url")
	case t == TypeInject && a.Message == "":
		d.errorf(blame, "inject action needs message")
	case t == TypePrompt && a.Prompt == "" && a.Message != "":
		d.errorf(blame, "prompt hook needs prompt (the LLM judge's question); for fixed context use type inject with message")
	case (t == TypePrompt || t == TypeAgent) && strings.TrimSpace(a.Prompt) == "":
		d.errorf(blame, "%s action needs prompt", t)
	case t == TypeFunc && strings.TrimSpace(a.Name) == "":
		d.errorf(blame, "func action needs name")
	case t == TypeRego && strings.TrimSpace(a.Policy) == "" && strings.TrimSpace(a.BundleURL) == "":
		d.errorf(blame, "rego action needs policy (a .rego file, a directory or a bundle) or bundle_url")
	case t == TypeMCPTool && strings.TrimSpace(a.Server) == "":
		d.errorf(blame, "mcp_tool action needs server (an MCP server of .mcp.json, ~/.claude.json or a plugin: plugin:<plugin>:<server>)")
	case t == TypeMCPTool && strings.TrimSpace(a.Tool) == "":
		d.errorf(blame, "mcp_tool action needs tool (the name of a tool of server %q)", a.Server)
	}
	if t == TypeRego || t == TypeMCPTool {
		d.checkAllowedHosts(r)
	}
	if t == TypeHTTP && a.URL != "" {
		d.checkURL(r)
	}
	if t == TypeHTTP {
		d.checkAllowedHosts(r)
	}
	for _, k := range actionKeys {
		p, set := r.at["action."+k]
		if !set || k == "type" || k == "timeout" || slices.Contains(typeFields()[t], k) {
			continue
		}
		if t == TypeInject && k == "prompt" || t == TypePrompt && k == "message" {
			continue // already reported above
		}
		d.warnf(p.keyNode, "%s is ignored by %s actions", k, t)
	}
}

// checkURL checks an http action's URL (scheme, syntax as net/url parses it, a host: what
// the http executor checks before each request) and method.
func (d *decoder) checkURL(r *rawHook) {
	a := &r.h.Action
	raw := strings.TrimSpace(a.URL)
	lower := strings.ToLower(raw)
	u, err := url.Parse(raw)
	var uerr *url.Error
	switch {
	case !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://"):
		d.errorf(r.at["action.url"].rawValue, "url %q must start with http:// or https://", a.URL)
	case errors.As(err, &uerr):
		d.errorf(r.at["action.url"].rawValue, "bad url %q: %v", a.URL, uerr.Err)
	case err != nil:
		d.errorf(r.at["action.url"].rawValue, "bad url %q: %v", a.URL, err)
	case u.Hostname() == "":
		d.errorf(r.at["action.url"].rawValue, "url %q has no host", a.URL)
	}
	if m := strings.TrimSpace(a.Method); m != "" {
		for _, c := range m {
			if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
				d.errorf(r.at["action.method"].rawValue, "bad http method %q", a.Method)
				break
			}
		}
		a.Method = strings.ToUpper(m)
	}
}

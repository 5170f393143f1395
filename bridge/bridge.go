package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// Answer is what a hook command gives back to its agent: Stdout (nil: print nothing), Stderr
// (one line of text, or "") and the process exit status.
type Answer struct {
	Stdout []byte
	Stderr string
	Code   int
}

// Protocol is one agent's hook protocol. Its methods are pure functions of their arguments and
// safe for concurrent use.
//
// Decode reads one hook input as the agent sends it. The event comes from the input itself
// (Claude Code's hook_event_name, Cursor's hook_event_name, ...) unless override, an event
// name in the agent's or hookcore's spelling, is non-empty. It returns the hookcore event and
// the normalised input; agent-specific fields the input does not map are kept in
// hook.Input.Extra. An error means the input could not be read (not JSON, no event); the
// caller answers with Fail.
//
// Encode writes res, the merged result of event's hooks, in the agent's output protocol.
// in is the normalised input the hooks saw (some protocols echo a field of it).
//
// Fail answers when hookcore could not decide event (the config did not load, the input
// could not be read, the engine panicked): with block, a block with why as the reason, on
// the events where the agent lets a hook block; otherwise an answer that lets the action
// proceed, with why shown where the agent shows hook errors.
type Protocol interface {
	Name() string
	Decode(data []byte, override string) (hook.Event, *hook.Input, error)
	Encode(event hook.Event, in *hook.Input, res *hook.Result) Answer
	Fail(event hook.Event, why string, block bool) Answer
}

// protocols are the agents' protocols, sorted by name: a slice, not a map, so that a hook
// process builds nothing at start-up (a package-level map literal is built by the package's
// init in every process; decisions.md, "Package-level tables built on first use").
var protocols = [...]Protocol{Claude{}, Codex{}, Copilot{}, Cursor{}, Gemini{}}

// Lookup returns the protocol of the agent named name ("claude", "codex", "gemini",
// "cursor", "copilot"; case-insensitive).
func Lookup(name string) (Protocol, bool) {
	name = strings.ToLower(name)
	for _, p := range protocols {
		if p.Name() == name {
			return p, true
		}
	}
	return nil, false
}

// Names returns the agent names Lookup knows, sorted.
func Names() []string {
	out := make([]string, 0, len(protocols))
	for _, p := range protocols {
		out = append(out, p.Name())
	}
	return out
}

// ErrNoEvent is returned by Decode when neither the input nor the override names an event.
var ErrNoEvent = errors.New("the hook input names no event (pass the event as an argument)")

// ErrEmptyInput is returned by Decode in place of ErrNoEvent when the input is empty (white
// space at most) and no override names the event: the agent sent nothing on stdin (new-user
// trial, stop 30: it was reported as an input that "names no event"). errors.Is(err,
// ErrNoEvent) holds for it too.
var ErrEmptyInput error = emptyInput{}

type emptyInput struct{}

func (emptyInput) Error() string {
	return "the hook input is empty (nothing came on stdin), so it names no event"
}

func (emptyInput) Is(target error) bool { return target == ErrNoEvent }

// noEvent is Decode's error for data that names no event: ErrEmptyInput for an empty input,
// else ErrNoEvent.
func noEvent(data []byte) error {
	if len(trim(data)) == 0 {
		return ErrEmptyInput
	}
	return ErrNoEvent
}

// ErrNoTool is returned by Incomplete for a gate on a tool call (PreToolUse,
// PermissionRequest) whose input names no tool.
var ErrNoTool = errors.New("the hook input names no tool (tool_name is missing or empty), so no rule can be checked")

// Incomplete reports why a decoded input cannot be decided, or nil. A gate whose hooks match
// on the tool (PreToolUse, PermissionRequest) cannot be decided without a tool name: every
// matcher would miss and the call would be let through, so the bridge answers it as it
// answers an input it cannot read (fail closed; issue 9 item 2, red team: an empty stdin
// with the event as an argument was allowed). Agents always send the tool name and its
// arguments; an input without them comes from a broken harness, never from a model. A tool
// gate without tool_input (absent or null), or with one that is not a JSON object, is an
// error wrapping ErrToolInput.
func Incomplete(ev hook.Event, in *hook.Input) error {
	if !toolGate(ev) {
		return nil
	}
	if in == nil || in.ToolName == "" {
		return ErrNoTool
	}
	if t := trim(in.ToolInput); len(t) == 0 || string(t) == "null" {
		// A tool call always has its arguments ({} for a tool that takes none): without
		// them every rule on the arguments would miss (red team round 33's note).
		return fmt.Errorf("%w (tool_input is missing)", ErrToolInput)
	} else if t[0] != '{' {
		// A string or an array is no tool call's arguments either: said as such, not
		// with the reason of whichever rule ran on it (new-user trial, stop 33).
		return fmt.Errorf("%w (tool_input is %s, not a JSON object)", ErrToolInput, text.Printable(Head(t, 40)))
	}
	return nil
}

// ErrToolInput is wrapped by the error Decode returns for a gate on a tool call (PreToolUse,
// PermissionRequest) whose input names the tool but not, in a form hookcore can read, the
// arguments the tool will run with: Copilot's toolArgs or Cursor's tool_input missing or not
// a JSON object (nor a JSON string holding one), Cursor's command or file_path missing or
// not a string. The agent runs the call with its own copy of the arguments, so the rules
// would check an empty or wrong input and let the call through; the bridge fails closed
// instead, as on an input it cannot read (red team: Copilot's toolArgs "rm -rf /" became
// tool_input {"value":"rm -rf /"}, and a Bash(rm *) rule let it through).
var ErrToolInput = errors.New("the hook input does not give the tool call's arguments in a form hookcore can read, so no rule can check the call")

// toolGate reports whether ev is a gate whose hooks match on the tool (PreToolUse,
// PermissionRequest): the events whose rules need the tool call's arguments.
func toolGate(ev hook.Event) bool { return ev.Kind() == hook.Gate && ev.MatchField() == "tool_name" }

// toolInput reads the tool arguments an agent sends in field (its name, for the error) as
// the JSON object of hook.Input.ToolInput: v itself when it is an object, or the object a
// JSON string v holds (Copilot's toolArgs, Cursor's MCP tool_input). On a tool gate
// (toolGate) anything else — v absent (nil), another JSON value, a string that does not
// hold an object — is an error wrapping ErrToolInput. On other events the hooks only
// watch, so an absent v stays absent and another value is kept as {"value": v}.
func toolInput(ev hook.Event, field string, v json.RawMessage) (json.RawMessage, error) {
	t := trim(v)
	if len(t) > 0 && t[0] == '{' {
		return t, nil
	}
	var s string
	if len(t) > 0 && json.Unmarshal(t, &s) == nil {
		if st := trim([]byte(s)); len(st) > 0 && st[0] == '{' && json.Valid(st) {
			return st, nil
		}
	}
	switch {
	case toolGate(ev) && len(t) == 0:
		return nil, fmt.Errorf("%w (%s is missing)", ErrToolInput, field)
	case toolGate(ev):
		return nil, fmt.Errorf("%w (%s is %s, not a JSON object)", ErrToolInput, field, text.Printable(Head(t, 40)))
	case len(t) == 0:
		return nil, nil
	}
	b, _ := json.Marshal(map[string]json.RawMessage{"value": t})
	return b, nil
}

// object decodes data as one JSON object into a map of raw fields; a top-level key given
// twice is an error (checkKeys).
func object(data []byte) (map[string]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	if data[0] != '{' {
		return nil, fmt.Errorf("hook input is not a JSON object: it begins %q", Head(data, 20))
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("hook input is not valid JSON: %v", err)
	}
	if err := checkKeys(data); err != nil {
		return nil, err
	}
	return m, nil
}

// checkKeys returns nil when data, a hook input that is valid JSON, has no top-level key
// twice (hook.CheckInputKeys: also under case folding, once escapes are decoded), else an
// error wrapping hook.ErrAmbiguousInput. Every decoder refuses such an input, so the caller
// fails closed on it as on any input it cannot read: a map keeps the last of two
// "tool_name", "tool_input" or "hook_event_name" keys, a reader that keeps the first sees
// another call or another event (red team round 59).
func checkKeys(data []byte) error {
	if err := hook.CheckInputKeys(data); err != nil {
		return fmt.Errorf("the hook input names a field twice, so hookcore and the agent may not read the same call: %w", err)
	}
	return nil
}

// validObject reports, as object would, whether data is empty or one JSON object with no
// top-level key twice (checkKeys), without building the map: the decoders that read data into a hook.Input next need only the check
// (a decision through hookcore serve allocates a map of every field less).
func validObject(data []byte) error {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] == '{' && json.Valid(t) {
		return checkKeys(t)
	}
	_, err := object(data) // the same error text
	return err
}

// Head returns the first n runes of b, "…" after them when b is longer, with b's bytes as
// they are: quoted with %q, as the "it begins" of an input that is no JSON object is, a
// byte that is not UTF-8 shows as an escape (\xb4), a control character as \n or \x1b.
// The hook command and fire quote their stdin so.
func Head(b []byte, n int) string { return text.Truncate(string(b), n, "…") }

// str returns the string field k of m, "" when absent or not a string.
func str(m map[string]json.RawMessage, k string) string {
	var s string
	if v, ok := m[k]; ok {
		_ = json.Unmarshal(v, &s)
	}
	return s
}

// parseEvent resolves an event name: first the agent's own names (table, matched
// case-insensitively), then hookcore's (hook.ParseEvent).
func parseEvent(name string, table map[string]hook.Event) (hook.Event, bool) {
	if name == "" {
		return "", false
	}
	for k, e := range table {
		if strings.EqualFold(k, name) {
			return e, true
		}
	}
	return hook.ParseEvent(name)
}

// marshal writes v as compact JSON without HTML escaping, with a trailing newline.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Every value the protocols build is plain maps, strings, bools and raw JSON that
		// already passed json.Valid; an error here is a bug.
		panic(fmt.Sprintf("bridge: encode answer: %v", err))
	}
	return buf.Bytes()
}

// obj is an ordered JSON object: keys are written in the order they were set, so golden
// answers are stable and read like the agents' docs.
type obj struct {
	keys []string
	vals []any // vals[i] is the value of keys[i]
}

func (o *obj) set(k string, v any) *obj {
	for i, x := range o.keys {
		if x == k {
			o.vals[i] = v
			return o
		}
	}
	o.keys, o.vals = append(o.keys, k), append(o.vals, v)
	return o
}

func (o *obj) empty() bool { return len(o.keys) == 0 }

// MarshalJSON writes the keys in insertion order: each key as json.Marshal writes it, each
// value as an Encoder without HTML escaping does, into one buffer (an answer through
// hookcore serve is encoded once per request).
func (o *obj) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	keys := json.NewEncoder(&buf)
	vals := json.NewEncoder(&buf)
	vals.SetEscapeHTML(false)
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		keys.Encode(k)              //nolint:errcheck // a string always encodes
		buf.Truncate(buf.Len() - 1) // Encode appends a newline
		buf.WriteByte(':')
		if err := vals.Encode(o.vals[i]); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// oneLine flattens s for a stderr line.
func oneLine(s string) string { return strings.TrimSpace(s) }

// reasonOr returns r, or a generic reason naming the event when r is empty (an agent must
// never show an empty block reason).
func reasonOr(r string, event hook.Event) string {
	if strings.TrimSpace(r) != "" {
		return r
	}
	return fmt.Sprintf("blocked by a hookcore %s hook", event)
}

// deferredReason is the reason of the deny an agent without a defer decision gets when the
// hooks deferred a PreToolUse (hook.Defer, Claude Code's permissionDecision "defer"): the
// call must not run until a person decides, and such an agent would otherwise take the
// answer as no decision (Gemini CLI, Cursor, Copilot CLI: their own approval, which may run
// the call unasked) or, Codex, run the call (observed with codex-cli 0.171.0).
// reason is the hooks' own, "" when they gave none.
func deferredReason(reason string) string {
	const why = "a hookcore hook deferred this call to a person (permission decision defer), which this agent cannot do, so it is denied; the user can run it or allow it"
	if strings.TrimSpace(reason) == "" {
		return why
	}
	return why + ": " + reason
}

// failReason is the reason every protocol gives when hookcore could not decide.
func failReason(why string) string { return "hookcore could not evaluate its hooks: " + why }

// failFeedback is Fail's answer on a feedback event (Stop, SubagentStop, PostToolUse, ...)
// with block: the block a hook of that event would give, as encode writes it, so that the
// agent keeps working (Stop) or tells the model hookcore failed (PostToolUse). ok is false
// where the protocol has no block for the event (Fail then answers a non-blocking error).
// Red team round 41: a file the model wrote (`.claude` as a file, a .env naming PATH) made
// hookcore unable to decide, and its exit 1 on Stop and PostToolUse let the agent stop
// without the user's Stop guard, and a redaction hook's output through.
func failFeedback(event hook.Event, why string, encode func(hook.Event, *hook.Input, *hook.Result) Answer) (a Answer, ok bool) {
	if event.Kind() != hook.Feedback {
		return Answer{}, false
	}
	res := hook.Result{Event: event, Blocked: true, Reason: failReason(why), Continue: true}
	a = encode(event, nil, &res)
	return a, a.Code != 0 || len(a.Stdout) > 0
}

func trim(b []byte) []byte { return bytes.TrimSpace(b) }

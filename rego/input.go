package rego

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/util"

	"github.com/hookcore/hookcore/hook"
)

// inputValue is the hook input as an OPA value: the value of the JSON hookcore sends to
// command hooks (hook.Input.MarshalJSON), built field by field without that JSON text.
// The raw JSON fields (tool_input, tool_response, Extra) are decoded as OPA decodes an
// input document (numbers keep their text). An input the direct build could read
// differently from the JSON route goes that route: a string that is not valid UTF-8
// (encoding/json writes U+FFFD for each bad byte) or an Extra field named like one of
// Input's own (the JSON then holds the key twice). Errors: a raw field that is not valid
// JSON. TestInputValue compares both routes on the prefilter corpus.
func inputValue(in *hook.Input) (ast.Value, error) {
	if !directInput(in) {
		return inputViaJSON(in)
	}
	obj := ast.NewObjectWithCapacity(8 + len(in.Extra))
	str := func(k, v string) {
		if v != "" {
			obj.Insert(fieldTerm(k), ast.StringTerm(v))
		}
	}
	str("session_id", in.SessionID)
	str("transcript_path", in.TranscriptPath)
	str("cwd", in.Cwd)
	str("permission_mode", in.PermissionMode)
	str("hook_event_name", in.HookEventName)
	str("tool_name", in.ToolName)
	for _, f := range [...]struct {
		k string
		v json.RawMessage
	}{{"tool_input", in.ToolInput}, {"tool_response", in.ToolResponse}} {
		if len(f.v) > 0 {
			v, err := rawValue(f.v)
			if err != nil {
				return inputViaJSON(in) // the same error as the JSON route
			}
			obj.Insert(fieldTerm(f.k), ast.NewTerm(v))
		}
	}
	str("tool_use_id", in.ToolUseID)
	str("error", in.Error)
	str("prompt", in.Prompt)
	if in.StopHookActive || hook.Event(in.HookEventName).IsStopLike() {
		obj.Insert(fieldTerm("stop_hook_active"), ast.InternedTerm(in.StopHookActive))
	}
	str("source", in.Source)
	str("reason", in.Reason)
	str("message", in.Message)
	str("notification_type", in.NotificationType)
	str("trigger", in.Trigger)
	str("agent_id", in.AgentID)
	str("agent_type", in.AgentType)
	for k, raw := range in.Extra {
		v, err := rawValue(raw)
		if err != nil {
			return inputViaJSON(in)
		}
		obj.Insert(ast.StringTerm(k), ast.NewTerm(v))
	}
	return obj, nil
}

// directInput reports whether inputValue may build in directly (see inputValue).
func directInput(in *hook.Input) bool {
	for _, s := range [...]string{in.SessionID, in.TranscriptPath, in.Cwd, in.PermissionMode, in.HookEventName,
		in.ToolName, in.ToolUseID, in.Error, in.Prompt, in.Source, in.Reason, in.Message, in.NotificationType,
		in.Trigger, in.AgentID, in.AgentType} {
		if !utf8.ValidString(s) {
			return false
		}
	}
	for k := range in.Extra {
		if !utf8.ValidString(k) || ownField(k) {
			return false
		}
	}
	return true
}

// fieldTerms are the keys of Input's own fields as terms, made once (terms are values;
// OPA does not change them).
var fieldTerms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name",
		"tool_name", "tool_input", "tool_response", "tool_use_id", "error", "prompt",
		"stop_hook_active", "source", "reason", "message", "notification_type", "trigger",
		"agent_id", "agent_type"} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

func fieldTerm(k string) *ast.Term { return fieldTerms[k] }

func ownField(k string) bool {
	_, ok := fieldTerms[k]
	return ok
}

// rawValue decodes one raw JSON value as OPA decodes input (ast.ValueFromReader).
func rawValue(b json.RawMessage) (ast.Value, error) {
	var x any
	if err := util.UnmarshalJSON(b, &x); err != nil {
		return nil, err
	}
	return ast.InterfaceToValue(x)
}

// inputViaJSON is inputValue through the JSON text of in.
func inputViaJSON(in *hook.Input) (ast.Value, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	return rawValue(b)
}

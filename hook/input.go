package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Input is the payload a hook receives, shaped like Claude Code's hook input so that existing
// hook scripts read it unchanged (DESIGN.md section 6). Command hooks get it as JSON on stdin;
// http hooks as the request body; prompt hooks as $ARGUMENTS.
//
// Fields a given event does not use stay zero and are left out of the JSON. Fields this type
// does not name (Claude Code adds new ones often: prompt_id, effort, duration_ms, ...) are
// kept in Extra and written back unchanged, so nothing a harness sent is lost on the way to a
// hook.
type Input struct {
	SessionID      string `json:"session_id,omitempty"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  string `json:"hook_event_name,omitempty"`

	// Tool events.
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`    // a JSON object
	ToolResponse json.RawMessage `json:"tool_response,omitempty"` // PostToolUse: any JSON value
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Error        string          `json:"error,omitempty"` // PostToolUseFailure, Error

	// UserPromptSubmit.
	Prompt string `json:"prompt,omitempty"`

	// Stop and SubagentStop: true when the agent is already continuing because of an
	// earlier Stop block in this turn. Always written for those events, even when false.
	StopHookActive bool `json:"stop_hook_active,omitempty"`

	Source           string `json:"source,omitempty"`            // SessionStart: startup, resume, clear, compact
	Reason           string `json:"reason,omitempty"`            // SessionEnd
	Message          string `json:"message,omitempty"`           // Notification
	NotificationType string `json:"notification_type,omitempty"` // Notification
	Trigger          string `json:"trigger,omitempty"`           // PreCompact, PostCompact: manual or auto
	AgentID          string `json:"agent_id,omitempty"`          // calls made by a sub-agent
	AgentType        string `json:"agent_type,omitempty"`

	// CommandDir is the directory a Bash call's command runs in when the agent's input
	// tells it apart from Cwd: Gemini CLI's run_shell_command `dir_path` (`directory`
	// before), absolute or relative to Cwd. "" when the command runs in Cwd. The agent's
	// bridge sets it; it is not a field of the JSON input.
	CommandDir string `json:"-"`
	// CommandDirUnknown is true when the agent may run a Bash call's command in a
	// directory its input does not tell: Codex's shell tools take a `workdir` their hook
	// input leaves out (red team round 60). A relative path of the command is then a path
	// of an unknown directory (match.Subject.WithCwdUnknown). The agent's bridge sets it;
	// it is not a field of the JSON input.
	CommandDirUnknown bool `json:"-"`

	// Extra holds every other field, by name, as raw JSON.
	Extra map[string]json.RawMessage `json:"-"`
}

// known lists the JSON names of Input's own fields, in the order MarshalJSON writes them.
var known = []string{
	"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name",
	"tool_name", "tool_input", "tool_response", "tool_use_id", "error", "prompt",
	"stop_hook_active", "source", "reason", "message", "notification_type", "trigger",
	"agent_id", "agent_type",
}

func (in *Input) field(name string) any {
	switch name {
	case "session_id":
		return &in.SessionID
	case "transcript_path":
		return &in.TranscriptPath
	case "cwd":
		return &in.Cwd
	case "permission_mode":
		return &in.PermissionMode
	case "hook_event_name":
		return &in.HookEventName
	case "tool_name":
		return &in.ToolName
	case "tool_input":
		return &in.ToolInput
	case "tool_response":
		return &in.ToolResponse
	case "tool_use_id":
		return &in.ToolUseID
	case "error":
		return &in.Error
	case "prompt":
		return &in.Prompt
	case "stop_hook_active":
		return &in.StopHookActive
	case "source":
		return &in.Source
	case "reason":
		return &in.Reason
	case "message":
		return &in.Message
	case "notification_type":
		return &in.NotificationType
	case "trigger":
		return &in.Trigger
	case "agent_id":
		return &in.AgentID
	case "agent_type":
		return &in.AgentType
	}
	return nil
}

// UnmarshalJSON reads a JSON object into in. Named fields of the wrong type are an error;
// unnamed fields go to Extra. A JSON null for a named field leaves it zero.
func (in *Input) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		return fmt.Errorf("hook input must be a JSON object")
	}
	*in = Input{}
	for k, v := range raw {
		f := in.field(k)
		if f == nil {
			if in.Extra == nil {
				in.Extra = make(map[string]json.RawMessage)
			}
			in.Extra[k] = replaceLoneSurrogates(v)
			continue
		}
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			continue
		}
		switch f := f.(type) {
		case *string:
			if s, ok := plainString(v); ok {
				*f = s
				continue
			}
		case *json.RawMessage:
			*f = v // already a copy of its own, as json.Unmarshal would make one
			if k != "tool_input" {
				*f = replaceLoneSurrogates(v) // the tool input is refused instead (CheckToolInput)
			}
			continue
		}
		if err := json.Unmarshal(v, f); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Type != nil {
				// In the words of the JSON the agent sent, not of Go's decoder (new-user
				// trial, stop 27: "cannot unmarshal number into Go value of type string").
				return fmt.Errorf("hook input field %q is %s, not %s", k, jsonWord(te.Value), kindWord(te.Type.Kind()))
			}
			return fmt.Errorf("hook input field %q: %w", k, err)
		}
	}
	return nil
}

// jsonWord names a JSON value kind as encoding/json's UnmarshalTypeError.Value gives it
// ("number", "number 1.5", "string", "bool", "array", "object").
func jsonWord(v string) string {
	switch {
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "string":
		return "a string"
	case v == "bool":
		return "true or false"
	case v == "array":
		return "a list"
	case v == "object":
		return "an object"
	}
	return v
}

// kindWord names the JSON a Go value of kind k is read from.
func kindWord(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return k.String()
}

// mayNamePath reports whether raw may hold a key that json.Unmarshal matches to file_path,
// path or notebook_path: it holds "path" in any ASCII case, a backslash (an escape can spell
// a key) or a non-ASCII byte (json.Unmarshal folds some non-ASCII letters to ASCII ones).
// When it does not, FilePathOf's answer is "" without decoding: no key can match, and a
// tool input that does not parse is "" as well.
func mayNamePath(raw []byte) bool {
	for i, c := range raw {
		switch {
		case c >= 0x80 || c == '\\':
			return true
		case c|0x20 == 'p' && i+3 < len(raw) && raw[i+1]|0x20 == 'a' && raw[i+2]|0x20 == 't' && raw[i+3]|0x20 == 'h':
			return true
		}
	}
	return false
}

// plainString returns the value of the JSON string literal v when it holds only printable
// ASCII without escapes (session ids, event and tool names, most paths), for which
// json.Unmarshal would return the same bytes; ok is false for anything else, which
// json.Unmarshal then decodes. It saves two allocations per field of every decoded input.
func plainString(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	if !plain(body) {
		return "", false
	}
	return string(body), true
}

// plain reports whether s is printable ASCII without '"' or '\\': the text of a JSON string
// literal that encoding/json reads and writes unchanged.
func plain[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// MarshalJSON writes in as one compact JSON object: the named fields in Claude Code's order,
// then Extra's fields sorted by name. HTML characters are not escaped ("<" stays "<"). The
// bytes are those of encoding/json (an Encoder with SetEscapeHTML(false)) field by field:
// plain strings (printable ASCII without quotes or backslashes) are written as they are and
// raw JSON through json.Compact, which is what the Encoder does with them, without its
// reflection (TestMarshalJSONMatchesEncoder). A raw field that is not valid JSON is an error
// naming the field.
func (in *Input) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(256 + len(in.ToolInput) + len(in.ToolResponse))
	buf.WriteByte('{')
	first := true
	key := func(k string) {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		writeJSONString(&buf, k)
		buf.WriteByte(':')
	}
	raw := func(k string, v json.RawMessage) error {
		key(k)
		if err := json.Compact(&buf, v); err != nil {
			return fmt.Errorf("hook input field %q: %w", k, err)
		}
		return nil
	}
	stopLike := Event(in.HookEventName).IsStopLike()
	for _, k := range known {
		switch v := in.field(k).(type) {
		case *string:
			if *v != "" {
				key(k)
				writeJSONString(&buf, *v)
			}
		case *json.RawMessage:
			if len(*v) > 0 {
				if err := raw(k, *v); err != nil {
					return nil, err
				}
			}
		case *bool:
			if *v || stopLike {
				key(k)
				buf.WriteString(strconv.FormatBool(*v))
			}
		}
	}
	if len(in.Extra) > 0 {
		keys := make([]string, 0, len(in.Extra))
		for k := range in.Extra {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := in.Extra[k]
			if v == nil { // as json.RawMessage.MarshalJSON
				v = json.RawMessage("null")
			}
			if err := raw(k, v); err != nil {
				return nil, err
			}
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// writeJSONString writes s as a JSON string literal, as an Encoder with SetEscapeHTML(false)
// writes it: as it is when it is plain (printable ASCII without '"' or '\\', which the
// Encoder writes unchanged), through the Encoder otherwise.
func writeJSONString(buf *bytes.Buffer, s string) {
	if plain(s) {
		buf.WriteByte('"')
		buf.WriteString(s)
		buf.WriteByte('"')
		return
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)               //nolint:errcheck // a string always encodes
	buf.Truncate(buf.Len() - 1) // Encode appends a newline
}

// Clone returns a deep copy of in; the executors and the Runner never mutate an Input they
// were given, they clone it first.
func (in *Input) Clone() *Input {
	c := *in
	c.ToolInput = bytes.Clone(in.ToolInput)
	c.ToolResponse = bytes.Clone(in.ToolResponse)
	if in.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(in.Extra))
		for k, v := range in.Extra {
			c.Extra[k] = bytes.Clone(v)
		}
	}
	return &c
}

// MatchValue returns the value the event's matcher tests (see Event.MatchField): the tool
// name on tool events, the source on SessionStart, and so on; "" when the event has none.
func (in *Input) MatchValue(e Event) string { return in.MatchFieldValue(e.MatchField()) }

// MatchFieldValue returns the value of a match field named as Event.MatchField names it
// ("tool_name", "source", "reason", "trigger", "notification_type", "agent_type", "error",
// "command_name", "load_reason", "mcp_server_name", "file_path"); "" for any other name. For
// "file_path" (FileChanged) it is the base name of the file, which Claude Code's FileChanged
// matcher tests. It does not allocate for the fields Input names; the others are decoded
// from Extra.
func (in *Input) MatchFieldValue(field string) string {
	switch field {
	case "tool_name":
		return in.ToolName
	case "source":
		return in.Source
	case "reason":
		return in.Reason
	case "trigger":
		return in.Trigger
	case "notification_type":
		return in.NotificationType
	case "agent_type":
		return in.AgentType
	case "error":
		return in.Error
	case "file_path":
		p := in.extraString(field)
		return p[strings.LastIndexAny(p, `/\`)+1:]
	case "command_name", "load_reason", "mcp_server_name":
		return in.extraString(field)
	}
	return ""
}

// extraString returns the Extra field name when it is a JSON string, else "".
func (in *Input) extraString(name string) string {
	raw, ok := in.Extra[name]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// FilePath returns the file a tool call is about: tool_input's "file_path" (Claude Code's
// Read, Write, Edit), "path" (MiniCode's ReadFile, WriteFile) or "notebook_path", the first
// that is a non-empty string; "" otherwise.
func (in *Input) FilePath() string {
	return FilePathOf(in.ToolInput)
}

// FilePathOf is Input.FilePath for a bare tool input object.
func FilePathOf(toolInput json.RawMessage) string {
	if len(toolInput) == 0 || toolInput[0] != '{' || !mayNamePath(toolInput) {
		return ""
	}
	return decodeFilePath(toolInput)
}

// decodeFilePath is FilePathOf by decoding: json.Unmarshal's key matching (any case, the
// last of duplicate keys), "" when toolInput does not decode.
func decodeFilePath(toolInput json.RawMessage) string {
	var args struct {
		FilePath     *string `json:"file_path"`
		Path         *string `json:"path"`
		NotebookPath *string `json:"notebook_path"`
	}
	if json.Unmarshal(toolInput, &args) != nil {
		return ""
	}
	for _, p := range []*string{args.FilePath, args.Path, args.NotebookPath} {
		if p != nil && *p != "" {
			return *p
		}
	}
	return ""
}

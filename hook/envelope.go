package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ParseEnvelope reads a hook's stdout as the output envelope of any of the three dialects
// (DESIGN.md section 6, "output envelope").
//
// Stdout whose first non-blank character (after spaces, tabs, newlines and a UTF-8 byte order
// mark) is '{' is an envelope: isEnvelope is true and it must parse. If it does not — invalid
// JSON, trailing data, or a known field of the wrong type such as "block": "yes" — err wraps
// ErrBadOutput and d is the zero Decision: nothing of a broken reply is used, so a typo never
// leaks into the model's context. Unknown keys are ignored, and a JSON null counts as absent.
// Any other stdout is plain text: isEnvelope is false and err is nil; the caller decides what
// it means (context on UserPromptSubmit and SessionStart, a log line elsewhere).
//
// The keys read, by source:
//
//   - codebot (seed 000): "block": true blocks with "reason"; "additional_context" adds
//     context; "updated_input" replaces the tool input.
//   - s08 (seed 002): "updatedInput" at the top level replaces the tool input.
//   - Claude Code, top level: "continue": false sets StopAgent with "stopReason";
//     "suppressOutput" and "systemMessage" are copied; "decision": "block" blocks with
//     "reason"; "decision": "approve" is Permission Allow ("allow", "deny" and "ask" are
//     accepted there as spellings of the permission, deny also blocking); "additionalContext"
//     at the top level is accepted as context too.
//   - Claude Code, "hookSpecificOutput": "permissionDecision" "deny" is Permission Deny and
//     Block, Reason = "permissionDecisionReason" (or "reason" when that is empty); "ask" is
//     Permission Ask, not a block, Reason = "permissionDecisionReason"; "allow" is Permission
//     Allow, Reason = "permissionDecisionReason". "updatedInput" and "additionalContext" as
//     above. The PermissionRequest form "decision": {"behavior", "message", "updatedInput",
//     "interrupt"}: behavior "allow" is Permission Allow; "deny" is Permission Deny and Block
//     with "message" as Reason, and "interrupt": true with it also sets StopAgent (Claude
//     Code: deny and stop the agent).
//   - Claude Code, "hookSpecificOutput" on PostToolUse: "updatedToolOutput" (any JSON
//     value) is UpdatedToolOutput, "updatedMCPToolOutput" is UpdatedMCPToolOutput.
//   - Claude Code, "hookSpecificOutput" on MessageDisplay: "displayContent" (a string) is
//     DisplayContent.
//   - hookSpecificOutput fields of another event than e are ignored (see dropForeign).
//   - "hookEventName", when it names a known event different from e (and e is a known
//     event), makes the envelope invalid, as Claude Code rejects a reply meant for another
//     event; an unknown name or an unknown e is not checked.
//
// Several spellings combine: Block is set if any rule blocks (deny wins); context pieces
// are joined in the order codebot, top-level additionalContext, hookSpecificOutput, separated
// by a blank line; the first updated input present in the order hookSpecificOutput.decision,
// hookSpecificOutput, top-level updatedInput, updated_input wins. Every updated input must be
// a JSON object (else the envelope is invalid); it is kept compacted. The permission reason
// wins over "reason" for Reason when both are given. A block next to an allow or ask (say
// "block": true with "permissionDecision": "allow") is a deny: deny wins.
//
// ExitCode, Output and Truncated are left for the executor to fill.
func ParseEnvelope(stdout []byte, e Event) (d Decision, isEnvelope bool, err error) {
	body := bytes.TrimLeft(stdout, " \t\r\n\v\f")
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	body = bytes.TrimLeft(body, " \t\r\n\v\f")
	if len(body) == 0 || body[0] != '{' {
		return Decision{}, false, nil
	}
	d, err = parseEnvelope(body, e)
	if err != nil {
		return Decision{}, true, fmt.Errorf("%w: %v", ErrBadOutput, err)
	}
	return d, true, nil
}

// object is a JSON object read key by key, so that keys match case-sensitively (as Claude
// Code's do) and every known key is type-checked.
type object map[string]json.RawMessage

// get decodes the key into v; absent or null leaves v untouched and returns false.
func (o object) get(key string, v any) (bool, error) {
	raw, ok := o[key]
	if !ok || isNull(raw) {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("field %q: %v", key, err)
	}
	return true, nil
}

// sub decodes the key as a nested object; absent or null gives nil.
func (o object) sub(key string) (object, error) {
	raw, ok := o[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var m object
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("field %q: must be a JSON object", key)
	}
	return m, nil
}

// input returns the key's value as a compacted JSON object; absent or null gives nil.
func (o object) input(key string) (json.RawMessage, error) {
	raw, ok := o[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("field %q: updated input must be a JSON object", key)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("field %q: %v", key, err)
	}
	return buf.Bytes(), nil
}

// value returns the key's value compacted, whatever its JSON type; absent or null gives nil.
func (o object) value(key string) (json.RawMessage, error) {
	raw, ok := o[key]
	if !ok || isNull(raw) {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("field %q: %v", key, err)
	}
	return buf.Bytes(), nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// fields holds the typed keys of one envelope before the rules combine them.
type fields struct {
	block                                           bool
	reason, context, contextCamel, decision         string
	stop                                            *bool
	stopReason, systemMessage                       string
	suppress                                        bool
	updated, updatedCamel                           json.RawMessage
	eventName, permDecision, permReason, hsoContext string
	hsoUpdated, toolOutput, mcpToolOutput           json.RawMessage
	behavior, message                               string
	interrupt                                       bool
	behaviorUpdated                                 json.RawMessage
	display                                         string
}

func readFields(body []byte) (f fields, err error) {
	var top object
	if err := json.Unmarshal(body, &top); err != nil {
		return f, err
	}
	var cont bool
	steps := []func() error{
		func() (err error) { _, err = top.get("block", &f.block); return },
		func() (err error) { _, err = top.get("reason", &f.reason); return },
		func() (err error) { _, err = top.get("additional_context", &f.context); return },
		func() (err error) { _, err = top.get("additionalContext", &f.contextCamel); return },
		func() (err error) { _, err = top.get("decision", &f.decision); return },
		func() error {
			ok, err := top.get("continue", &cont)
			if ok {
				f.stop = &cont
			}
			return err
		},
		func() (err error) { _, err = top.get("stopReason", &f.stopReason); return },
		func() (err error) { _, err = top.get("systemMessage", &f.systemMessage); return },
		func() (err error) { _, err = top.get("suppressOutput", &f.suppress); return },
		func() (err error) { f.updated, err = top.input("updated_input"); return },
		func() (err error) { f.updatedCamel, err = top.input("updatedInput"); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return f, err
		}
	}
	hso, err := top.sub("hookSpecificOutput")
	if err != nil || hso == nil {
		return f, err
	}
	steps = []func() error{
		func() (err error) { _, err = hso.get("hookEventName", &f.eventName); return },
		func() (err error) { _, err = hso.get("permissionDecision", &f.permDecision); return },
		func() (err error) { _, err = hso.get("permissionDecisionReason", &f.permReason); return },
		func() (err error) { _, err = hso.get("additionalContext", &f.hsoContext); return },
		func() (err error) { f.hsoUpdated, err = hso.input("updatedInput"); return },
		func() (err error) { f.toolOutput, err = hso.value("updatedToolOutput"); return },
		func() (err error) { f.mcpToolOutput, err = hso.value("updatedMCPToolOutput"); return },
		func() (err error) { _, err = hso.get("displayContent", &f.display); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return f, fmt.Errorf("hookSpecificOutput: %w", err)
		}
	}
	dec, err := hso.sub("decision")
	if err != nil || dec == nil {
		if err != nil {
			err = fmt.Errorf("hookSpecificOutput: %w", err)
		}
		return f, err
	}
	steps = []func() error{
		func() (err error) { _, err = dec.get("behavior", &f.behavior); return },
		func() (err error) { _, err = dec.get("message", &f.message); return },
		func() (err error) { _, err = dec.get("interrupt", &f.interrupt); return },
		func() (err error) { f.behaviorUpdated, err = dec.input("updatedInput"); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return f, fmt.Errorf("hookSpecificOutput.decision: %w", err)
		}
	}
	return f, nil
}

// dropForeign clears the hookSpecificOutput fields that belong to another event than e, as
// Claude Code ignores them (2.1.332, testdata/claude/foreign-fields: a PermissionRequest
// "decision" and a "permissionDecision" on UserPromptSubmit, a "permissionDecision" and an
// "updatedInput" on PostToolUse changed nothing): "permissionDecision" and its reason count
// on PreToolUse and PermissionRequest, "updatedInput" on those two, the "decision" object on
// PermissionRequest, "updatedToolOutput" and "updatedMCPToolOutput" on PostToolUse,
// "displayContent" on MessageDisplay. For an
// unknown e every field counts.
func (f *fields) dropForeign(e Event) {
	if !e.Valid() {
		return
	}
	e, _ = ParseEvent(string(e))
	if e != PreToolUse && e != PermissionRequest {
		f.permDecision, f.permReason, f.hsoUpdated = "", "", nil
	}
	if e != PermissionRequest {
		f.behavior, f.message, f.interrupt, f.behaviorUpdated = "", "", false, nil
	}
	if e != PostToolUse {
		f.toolOutput, f.mcpToolOutput = nil, nil
	}
	if e != MessageDisplay {
		f.display = ""
	}
}

func parseEnvelope(body []byte, e Event) (Decision, error) {
	f, err := readFields(body)
	if err != nil {
		return Decision{}, err
	}
	if f.eventName != "" && e.Valid() {
		if named, ok := ParseEvent(f.eventName); ok {
			if want, _ := ParseEvent(string(e)); named != want {
				return Decision{}, fmt.Errorf("hookEventName %q does not match event %s", f.eventName, want)
			}
		}
	}
	f.dropForeign(e)
	var d Decision
	d.Reason = f.reason
	d.Block = f.block

	switch f.decision {
	case "":
	case "block":
		d.Block = true
	default:
		p, ok := ParsePermission(f.decision)
		if !ok {
			return Decision{}, fmt.Errorf("field \"decision\": unknown value %q", f.decision)
		}
		d.Permission = p
		if p == Deny {
			d.Block = true
		}
	}

	if f.permDecision != "" {
		p, ok := ParsePermission(f.permDecision)
		if !ok {
			return Decision{}, fmt.Errorf("hookSpecificOutput: field \"permissionDecision\": unknown value %q", f.permDecision)
		}
		d.Permission = p
		if f.permReason != "" {
			d.Reason = f.permReason
		}
		if p == Deny {
			d.Block = true
		}
	}

	switch f.behavior {
	case "":
	case "allow":
		d.Permission = Allow
	case "deny":
		d.Permission = Deny
		d.Block = true
		if f.message != "" {
			d.Reason = f.message
		}
		if f.interrupt {
			d.StopAgent = true
			d.StopReason = f.message
		}
	default:
		return Decision{}, fmt.Errorf("hookSpecificOutput.decision: field \"behavior\": unknown value %q", f.behavior)
	}
	if d.Block && (d.Permission == Allow || d.Permission == Ask) {
		// A block next to an allow or ask: deny wins.
		d.Permission = Deny
	}

	var ctx []string
	for _, c := range []string{f.context, f.contextCamel, f.hsoContext} {
		if c != "" {
			ctx = append(ctx, c)
		}
	}
	d.AdditionalContext = strings.Join(ctx, "\n\n")

	for _, u := range []json.RawMessage{f.behaviorUpdated, f.hsoUpdated, f.updatedCamel, f.updated} {
		if u != nil {
			d.UpdatedInput = u
			break
		}
	}
	d.UpdatedToolOutput, d.UpdatedMCPToolOutput = f.toolOutput, f.mcpToolOutput
	d.DisplayContent = f.display

	if f.stop != nil && !*f.stop {
		d.StopAgent = true
		d.StopReason = f.stopReason
	}
	d.SystemMessage = f.systemMessage
	d.SuppressOutput = f.suppress
	return d, nil
}

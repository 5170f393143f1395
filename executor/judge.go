package executor

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/hookcore/hookcore/hook"
)

// maxVerdictScan caps how much of a model's reply is searched for a verdict, in bytes; a
// reply is normally a line.
const maxVerdictScan = 64 << 10

// maxReplyOutput caps the reply kept in Decision.Output, in bytes.
const maxReplyOutput = 16 << 10

// verdict is a judge's {"ok": bool, "reason": "..."}.
type verdict struct {
	ok     bool
	reason string
}

// parseVerdict finds the verdict in a model's reply: the first balanced JSON object, in
// reading order, that has an "ok" key holding a boolean. So a bare object, one inside a
// ```json fence, and one with prose before or after it all count (models add both).
// "reason" is read when it is a string (other JSON is kept as compact text). found is false
// when no such object exists: the reply is unparsable.
func parseVerdict(reply string) (v verdict, found bool) {
	if len(reply) > maxVerdictScan {
		reply = cutUTF8(reply, maxVerdictScan)
	}
	for i := strings.IndexByte(reply, '{'); i >= 0; {
		var obj map[string]json.RawMessage
		dec := json.NewDecoder(strings.NewReader(reply[i:]))
		if dec.Decode(&obj) == nil {
			if raw, has := obj["ok"]; has {
				var ok bool
				if json.Unmarshal(raw, &ok) == nil && !isJSONNull(raw) {
					v.ok = ok
					if r, has := obj["reason"]; has && !isJSONNull(r) {
						var s string
						if json.Unmarshal(r, &s) == nil {
							v.reason = strings.TrimSpace(s)
						} else {
							v.reason = compactJSON(r)
						}
					}
					return v, true
				}
			}
		}
		next := strings.IndexByte(reply[i+1:], '{')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return verdict{}, false
}

func isJSONNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// decide turns a verdict into a Decision: ok false blocks with the reason (a feedback event
// such as Stop then keeps the agent working, the reason fed back); ok true says nothing.
func decide(v verdict, reply string) hook.Decision {
	d := hook.Decision{ExitCode: -1, Output: capReply(reply)}
	if !v.ok {
		d.Block = true
		d.Reason = v.reason
	}
	return d
}

func capReply(s string) string {
	if len(s) > maxReplyOutput {
		return cutUTF8(s, maxReplyOutput) + "..."
	}
	return s
}

// expandPrompt expands a judge's or a sub-agent's prompt template: $ARGUMENTS (or
// ${ARGUMENTS}) becomes the input JSON and the context variables their plain values, in one
// pass. When the template has no $ARGUMENTS the input JSON is appended after a blank line, so
// the model always sees the event (Claude Code does the same for prompt hooks).
func expandPrompt(tmpl string, in *hook.Input) (string, error) {
	args, err := in.MarshalJSON()
	if err != nil {
		return "", err
	}
	used := false
	out := expandTemplate(tmpl, in, func(b *strings.Builder, name string) {
		if name == "ARGUMENTS" {
			used = true
			b.Write(args)
			return
		}
		b.WriteString(varValue(in, name))
	})
	if !used {
		out = strings.TrimRight(out, " \t\r\n") + "\n\nHook input (JSON):\n" + string(args)
	}
	return out, nil
}

package executor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

// maxVerdictScan caps how much of a model's reply is searched for a verdict, in bytes: the
// first maxVerdictScan bytes and, when the reply is longer and they hold none, the last
// maxVerdictScan (an agent ends a long final answer with its verdict). A judge's reply is
// normally a line.
const maxVerdictScan = 64 << 10

// maxVerdictWork caps the bytes the JSON decoder may scan, over every '{' tried, while one
// piece of a reply (its head or its tail) is searched for a verdict. Without it a reply of
// unterminated nested objects (`{"a":[{"a":[...`) costs a scan to its end from every brace:
// quadratic, seconds of CPU for 64 KiB, outside the hook's timeout. Past the cap the piece
// holds no verdict. Ordinary replies (prose, code, fenced JSON) use a small part of it.
const maxVerdictWork = 1 << 20

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
// when no such object exists: the reply is unparsable. Only the first and last
// maxVerdictScan bytes are searched, with at most maxVerdictWork bytes decoded in each.
func parseVerdict(reply string) (v verdict, found bool) {
	v, found, _ = searchVerdict(reply)
	return v, found
}

// searchVerdict is parseVerdict, also returning its work: the bytes the JSON decoder
// scanned over both pieces (at most 2*maxVerdictWork plus one attempt per piece).
func searchVerdict(reply string) (v verdict, found bool, work int) {
	budget := maxVerdictWork
	v, found = findVerdict(hookio.CutUTF8(reply, maxVerdictScan), &budget)
	work = maxVerdictWork - budget
	if found || len(reply) <= maxVerdictScan {
		return v, found, work
	}
	tail := len(reply) - maxVerdictScan
	for tail < len(reply) && !utf8.RuneStart(reply[tail]) {
		tail++
	}
	budget = maxVerdictWork
	v, found = findVerdict(reply[tail:], &budget)
	return v, found, work + maxVerdictWork - budget
}

// findVerdict is parseVerdict on one piece of a reply; it stops when budget (bytes the
// decoder may still read) runs out.
func findVerdict(reply string, budget *int) (v verdict, found bool) {
	for i := strings.IndexByte(reply, '{'); i >= 0 && *budget > 0; {
		var obj map[string]json.RawMessage
		src := &countingReader{r: strings.NewReader(reply[i:])}
		dec := json.NewDecoder(src)
		err := dec.Decode(&obj)
		*budget -= scanned(dec, src, err)
		if err == nil {
			if raw, has := obj["ok"]; has {
				var ok bool
				if json.Unmarshal(raw, &ok) == nil && !isJSONNull(raw) {
					v.ok = ok
					if r, has := obj["reason"]; has && !isJSONNull(r) {
						var s string
						if json.Unmarshal(r, &s) == nil {
							v.reason = strings.TrimSpace(s)
						} else {
							v.reason = hookio.CompactJSON(r)
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

// scanned is how many bytes a Decode that returned err looked at: the decoder reads ahead
// (512 bytes at least), so a short object or an early syntax error costs only its length.
func scanned(dec *json.Decoder, src *countingReader, err error) int {
	var syn *json.SyntaxError
	switch {
	case err == nil:
		return int(dec.InputOffset())
	case errors.As(err, &syn) && syn.Offset > 0:
		return int(syn.Offset)
	}
	return src.n
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
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
		return hookio.CutUTF8(s, maxReplyOutput) + "..."
	}
	return s
}

// expandPrompt expands a judge's or a sub-agent's prompt template: $ARGUMENTS (or
// ${ARGUMENTS}) becomes the input JSON and the context variables their plain values, in one
// pass. When the template has no $ARGUMENTS the input JSON is appended after a blank line, so
// the model always sees the event (Claude Code does the same for prompt hooks). An input that
// cannot be encoded is an error wrapping hook.ErrBadInput.
func expandPrompt(tmpl string, in *hook.Input) (string, error) {
	args, err := in.MarshalJSON()
	if err != nil {
		return "", fmt.Errorf("%w: %v", hook.ErrBadInput, err)
	}
	used := false
	out := expandTemplate(tmpl, in, func(b *strings.Builder, name string) {
		if name == "ARGUMENTS" {
			used = true
			b.Write(args)
			return
		}
		b.WriteString(hookio.Value(in, name))
	})
	if !used {
		out = strings.TrimRight(out, " \t\r\n") + "\n\nHook input (JSON):\n" + string(args)
	}
	return out, nil
}

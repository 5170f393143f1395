package executor

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

// expandJSON expands a body template: $ARGUMENTS (or ${ARGUMENTS}) becomes args, the input
// JSON, as is; context variables become their values JSON-escaped without the quotes.
func expandJSON(s string, in *hook.Input, args []byte) string {
	return expandTemplate(s, in, func(b *strings.Builder, name string) {
		if name == "ARGUMENTS" {
			b.Write(args)
			return
		}
		b.WriteString(jsonEscape(hookio.Value(in, name)))
	})
}

// expandTemplate walks s once, replacing $ARGUMENTS and the context variables through put;
// a value is never expanded again.
func expandTemplate(s string, in *hook.Input, put func(b *strings.Builder, name string)) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '$' {
			if end, ok := argumentsAt(s, i); ok {
				put(&b, "ARGUMENTS")
				i = end
				continue
			}
			if name, end, ok := hookio.At(s, i); ok {
				put(&b, name)
				i = end
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// argumentsAt reports whether s[i:] starts with $ARGUMENTS or ${ARGUMENTS} (not followed by
// another name character), and returns the index past it.
func argumentsAt(s string, i int) (end int, ok bool) {
	rest := s[i:]
	switch {
	case strings.HasPrefix(rest, "${ARGUMENTS}"):
		return i + len("${ARGUMENTS}"), true
	case strings.HasPrefix(rest, "$ARGUMENTS"):
		end = i + len("$ARGUMENTS")
		if end < len(s) && hookio.IsNameChar(s[end]) {
			return 0, false
		}
		return end, true
	}
	return 0, false
}

// jsonEscape returns s as the inside of a JSON string (no HTML escaping).
func jsonEscape(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s) //nolint:errcheck // a string always encodes
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

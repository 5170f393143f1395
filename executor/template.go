package executor

import (
	"strings"

	"github.com/hookcore/hookcore/executor/internal/hookio"
	"github.com/hookcore/hookcore/hook"
)

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

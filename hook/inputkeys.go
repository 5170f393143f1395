package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/hookcore/hookcore/internal/text"
)

// CheckInputKeys returns nil when data, a hook input as an agent sends it, is one JSON
// object whose top-level keys are all different, also under encoding/json's case folding
// (FoldKey), once their escapes are decoded. Otherwise it returns an error wrapping
// ErrAmbiguousInput that names the key: {"tool_name": "Read", ..., "tool_name": "Bash"} is
// read as Bash by encoding/json and JavaScript (the last wins) and as Read by readers that
// keep the first, and {"tool_name": "Read", "Tool_Name": "Bash"} as Bash by a Go hook that
// decodes it into a struct; either way a rule and the agent would not see the same call, nor
// the same event (hook_event_name twice). The keys are checked as CheckToolInput checks a
// tool input's (red team round 59: duplicate top-level keys were taken last-wins, while
// duplicate keys inside tool_input were refused). Values are skipped, not checked: the tool
// input is CheckToolInput's, and the other nested values decide nothing. data that is
// empty, or not one valid JSON object, is nil: the decoders report it in their own words.
func CheckInputKeys(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' || !json.Valid(data) {
		return nil
	}
	var f keyFrame
	top := func() string { return "" }
	i := 1
	for {
		i = text.SkipJSONSpace(data, i)
		if data[i] == '}' {
			return nil
		}
		if data[i] == ',' {
			i = text.SkipJSONSpace(data, i+1)
		}
		// data[i] is the '"' of a key.
		j, plain := stringEnd(data, i)
		var key string
		switch {
		case j == i+1:
			key = ""
		case plain:
			key = unsafe.String(&data[i+1], j-i-1) // data outlives the call; key does not
		default:
			if err := json.Unmarshal(data[i:j+1], &key); err != nil {
				return fmt.Errorf("%w: %v", ErrBadInput, err)
			}
		}
		if err := addKey(&f, key, top); err != nil {
			return err
		}
		i = text.SkipJSONSpace(data, j+1) + 1 // past the ':'
		i = valueEnd(data, text.SkipJSONSpace(data, i))
	}
}

// stringEnd returns the index of the closing '"' of the valid JSON string that opens at
// data[i], and whether the string holds neither an escape nor a non-ASCII byte.
func stringEnd(data []byte, i int) (end int, plain bool) {
	plain = true
	for j := i + 1; ; {
		k := bytes.IndexAny(data[j:], "\"\\")
		for _, c := range data[j : j+k] {
			if c >= utf8.RuneSelf {
				plain = false
				break
			}
		}
		j += k
		if data[j] == '"' {
			return j, plain
		}
		plain = false
		j += 2 // the backslash and the byte it escapes
	}
}

// valueEnd returns the index just past the valid JSON value that begins at data[i].
func valueEnd(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			i, _ = stringEnd(data, i)
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
			continue
		default: // a number or a literal
			if depth == 0 && i+1 < len(data) && strings.IndexByte(",}] \t\n\r", data[i+1]) >= 0 {
				return i + 1
			}
			continue
		}
		if depth == 0 {
			return i + 1
		}
	}
	return i
}

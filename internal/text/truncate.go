package text

// Truncate returns s when it has at most n runes; otherwise the first n runes of s followed
// by marker (say "…", or "\n… [additional context truncated]"). It never splits a UTF-8
// sequence: an invalid byte counts as one rune and is kept as it is, so at most 4n bytes of s
// remain. n ≤ 0 keeps no rune of s: the result is "" for an empty s, else marker.
//
// It is the only string-cutting helper of the module (issue 13, item 5): byte slicing such
// as s[:n] cuts a multi-byte rune in two, and the half rune then shows as U+FFFD in a
// terminal, in a JSON reason or in the model's context. A caller that must fit a width
// that includes the marker (a table cell) cuts at the width minus the marker's runes when
// s is wider than the width.
func Truncate(s string, n int, marker string) string {
	if len(s) <= n { // at most n bytes: at most n runes
		return s
	}
	if n <= 0 {
		if s == "" {
			return ""
		}
		return marker
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i] + marker
		}
		count++
	}
	return s
}

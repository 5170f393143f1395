package config

import "strings"

// Suggest returns the candidate closest to word, for a "did you mean" hint, or "" when none
// is close. Words are compared case-insensitively after removing '_' and '-' (so
// "pre_tool_usee" is one edit from both "pre_tool_use" and "PreToolUse"); ties go to the
// candidate closest as written, so the suggestion keeps the user's spelling style, then to
// the earlier candidate. A candidate is close when at most a third of the normalised word
// (at least one character) differs.
func Suggest(word string, candidates []string) string {
	nw := normKey(word)
	if nw == "" {
		return ""
	}
	limit := max(1, len(nw)/3)
	best, bestD, bestRaw := "", limit+1, 0
	lw := strings.ToLower(word)
	for _, c := range candidates {
		nc := normKey(c)
		if diff := len(nw) - len(nc); diff > limit || -diff > limit {
			continue // too far apart to be close; also bounds the cost on huge words
		}
		d := editDistance(nw, nc)
		if d > limit || d > bestD {
			continue
		}
		raw := editDistance(lw, strings.ToLower(c))
		if d < bestD || raw < bestRaw {
			best, bestD, bestRaw = c, d, raw
		}
	}
	return best
}

// didYouMean returns ` (did you mean "x"?)` for the closest candidate, or "".
func didYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}

// normKey lower-cases s and removes '_' and '-'.
func normKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		if r != '_' && r != '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// editDistance is the Levenshtein distance between a and b, counted in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

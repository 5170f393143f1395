package match

import (
	"fmt"

	"github.com/bmatcuk/doublestar/v4"
)

// maxGlobAlternatives bounds the number of alternatives a glob's {a,b} groups expand to.
// doublestar tries them one by one (with backtracking for each), so the match time grows
// with their product; the bound keeps a pattern from stalling the agent, as RE2 does for
// regexes. Real patterns ("*.{js,ts,jsx,tsx}") stay far below it.
const maxGlobAlternatives = 256

// checkGlob reports whether pat is a valid doublestar glob of bounded cost.
func checkGlob(pat string) error {
	if !doublestar.ValidatePattern(pat) {
		return fmt.Errorf("bad glob %q", pat)
	}
	total := 1
	var alts []int // alternatives of each open group
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '{':
			alts = append(alts, 1)
		case ',':
			if len(alts) > 0 {
				alts[len(alts)-1]++
			}
		case '}':
			if len(alts) > 0 {
				total *= alts[len(alts)-1]
				alts = alts[:len(alts)-1]
				if total > maxGlobAlternatives {
					return fmt.Errorf("glob %q has too many {} alternatives (more than %d)", pat, maxGlobAlternatives)
				}
			}
		}
	}
	return nil
}

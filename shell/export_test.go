package shell

import (
	"fmt"
	"reflect"
)

// SetFastLine turns the fast path of the analysis on or off, for the tests that compare it
// with the parser. Not safe to call while another goroutine parses.
func SetFastLine(on bool) { noFastLine = !on }

// IsPlainLine reports whether the fast path analyses script itself.
func IsPlainLine(script string) bool { return (&Commands{}).collectPlain(script, 0) }

// SameAnalysis reports whether a and b are the same analysis, every field compared, and
// describes a when they are not.
func SameAnalysis(a, b *Commands) (bool, string) {
	if reflect.DeepEqual(a, b) {
		return true, ""
	}
	return false, fmt.Sprintf("%+v\nvs\n%+v", *a, *b)
}

package executor

import (
	"strings"
	"testing"
)

// TestParseVerdictLongReply: an agent ends a long final answer with its verdict; a reply
// longer than maxVerdictScan is also searched at its end (regression: only the first 64 KiB
// were searched, so the verdict of a long answer was lost and the action allowed).
func TestParseVerdictLongReply(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("I ran the tests; here is the log line é.\n", 3*maxVerdictScan/40)
	tests := []struct {
		name   string
		reply  string
		want   verdict
		parsed bool
	}{
		{"verdict at the end", long + `{"ok": false, "reason": "tests fail"}`, verdict{reason: "tests fail"}, true},
		{"verdict at the start wins", `{"ok": true}` + long + `{"ok": false, "reason": "x"}`, verdict{ok: true}, true},
		{"verdict only in the middle", long + `{"ok": false, "reason": "mid"}` + long, verdict{}, false},
		{"many small objects before the verdict", strings.Repeat(`{"i":1} `, maxVerdictScan/8-10) + `{"ok": false, "reason": "late"}`, verdict{reason: "late"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, parsed := parseVerdict(tt.reply)
			if got != tt.want || parsed != tt.parsed {
				t.Errorf("parseVerdict = %+v, %v; want %+v, %v", got, parsed, tt.want, tt.parsed)
			}
		})
	}
}

// TestParseVerdictNestedBound: a reply of unterminated nested objects is searched with
// bounded work (regression: each '{' decoded to the end of the reply, 2.6 s of CPU for
// 64 KiB): the decoder scans at most maxVerdictWork bytes plus one attempt in each of the
// two pieces, counted in bytes, not timed.
func TestParseVerdictNestedBound(t *testing.T) {
	t.Parallel()
	for _, unit := range []string{`{"a":[`, `{"a":`} {
		reply := strings.Repeat(unit, 2*maxVerdictScan/len(unit))
		_, found, work := searchVerdict(reply)
		if found {
			t.Errorf("%q...: verdict found", unit)
		}
		if bound := 2 * (maxVerdictWork + maxVerdictScan); work > bound {
			t.Errorf("%q...: parseVerdict scanned %d bytes, want at most %d", unit, work, bound)
		}
	}
}

// TestFindVerdictBudget: the work of one search stays within maxVerdictWork plus one
// attempt, and ordinary replies (code with braces, many small objects) cost little of it.
func TestFindVerdictBudget(t *testing.T) {
	t.Parallel()
	code := strings.Repeat("func f() { if x { return } }\n", maxVerdictScan/30)
	tests := []struct {
		name    string
		reply   string
		maxCost int
	}{
		{"nested arrays", strings.Repeat(`{"a":[`, maxVerdictScan/6), maxVerdictWork + maxVerdictScan},
		{"nested objects", strings.Repeat(`{"a":`, maxVerdictScan/5), maxVerdictWork + maxVerdictScan},
		{"code", code, maxVerdictWork / 16},
		{"small objects", strings.Repeat(`{"i":1} `, maxVerdictScan/8), maxVerdictWork / 16},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			budget := maxVerdictWork
			findVerdict(tt.reply, &budget)
			if cost := maxVerdictWork - budget; cost > tt.maxCost {
				t.Errorf("searching cost %d bytes, want at most %d", cost, tt.maxCost)
			}
		})
	}
}

package config

import (
	"strings"
	"testing"
)

// TestBytesLines: bytesLines yields the lines between LF, CRLF and lone CR breaks, numbered
// from 0, stops when the loop does, and allocates nothing (stop 34: the [][]byte it
// returned was 15 KB of a hook event's allocations; checkMappingKeys made 9 before).
func TestBytesLines(t *testing.T) {
	for in, want := range map[string][]string{
		"":              {""},
		"a":             {"a"},
		"a\n":           {"a", ""},
		"a\r\nb\rc\nd":  {"a", "b", "c", "d"},
		"\r\r\n\n":      {"", "", "", ""},
		"x\r":           {"x", ""},
		"é\nü\r\n\r\n.": {"é", "ü", "", "."},
	} {
		var got []string
		for n, line := range bytesLines([]byte(in)) {
			if n != len(got) {
				t.Errorf("%q: line %d numbered %d", in, len(got), n)
			}
			got = append(got, string(line))
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("%q: lines %q, want %q", in, got, want)
		}
	}
	for range bytesLines([]byte("a\nb\nc")) {
		break // a yield after the loop stopped would panic
	}
	data := claudeSettings6K(t)
	if n := testing.AllocsPerRun(20, func() {
		for _, line := range bytesLines(data) {
			_ = line
		}
	}); n != 0 {
		t.Errorf("ranging over bytesLines: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(20, func() { _ = checkMappingKeys(claudeSettingsPath, data) }); n > 3 {
		t.Errorf("checkMappingKeys: %v allocations, want at most 3", n)
	}
}

// TestSourceLine: sourceLine finds the lines strings.Split(src, "\n") made, which the
// decoder held for every file before (stop 34), and says when there is no such line.
func TestSourceLine(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "\n\n", "a\r\nb\nc", "é: 1\n  x: \"ü\"\n"} {
		lines := strings.Split(src, "\n")
		for n := -1; n <= len(lines)+2; n++ {
			got, ok := sourceLine([]byte(src), n)
			wantOK := n >= 1 && n <= len(lines)
			if ok != wantOK || ok && string(got) != lines[n-1] {
				t.Errorf("%q line %d: %q %v, want %v %v", src, n, got, ok, wantOK, n >= 1 && n <= len(lines) && ok)
			}
		}
	}
}

// TestSkimObjectAllocations bounds skimObject's allocations for the 6 KB settings file a
// hook process reads at every event: no copy of each blanked value (stop 34: 9 before).
func TestSkimObjectAllocations(t *testing.T) {
	data := claudeSettings6K(t)
	obj := isJSONObject(data)
	n := testing.AllocsPerRun(20, func() { skimObject(data, obj) })
	if n > 6 {
		t.Errorf("%v allocations, want at most 6", n)
	} else {
		t.Logf("%v allocations", n)
	}
}

package config

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hookLine is one valid native hook on a line of its own.
const hookLine = "  - {event: stop, action: {type: command, command: x}}\n"

// TestParseLimits: a hostile file (deep nesting, huge, many aliases) is one error with its
// position, found before the parser or the decoder spends memory on it; files at the caps
// load. A 256-column indentation is 254 blanks and "- ": the content starts at column 257. The YAML parser took 189 MB at depth 10 000 and 15 GB at 100 000.
func TestParseLimits(t *testing.T) {
	t.Parallel()
	deep := func(open, close string, n int) string {
		return "hooks: " + strings.Repeat(open, n) + strings.Repeat(close, n) + "\n"
	}
	hooks := func(n int) string { return "hooks:\n" + strings.Repeat(hookLine, n) }
	flowHooks := func(n int) string {
		return "hooks: [" + strings.Repeat("{event: stop, action: {type: command, command: x}},", n) + "]\n"
	}
	// an anchored hook and n aliases of it: each alias is a hook of its own
	aliases := func(n int) string {
		return "x: &a {event: stop, action: {type: command, command: '" + strings.Repeat("y", 1000) + "'}}\nhooks: [" +
			strings.Repeat("*a, ", n) + "*a]\n"
	}
	// merge keys doubling a mapping 30 times: 2^30 copies of its key
	laughs := "a0: &a0 {x: 1}\n"
	for i := 1; i <= 30; i++ {
		laughs += fmt.Sprintf("a%d: &a%d {<<: [*a%d, *a%d]}\n", i, i, i-1, i-1)
	}
	laughs += "hooks:\n  - {event: stop, action: {type: command, command: x}, <<: *a30}\n"
	tests := []struct {
		name, file, data string
		want             string // the only problem; "" for a file that loads
	}{
		{"flow sequences 10 000 deep", "h.yaml", deep("[", "]", 10000),
			"h.yaml:1:72: brackets nested more than 64 deep; the limit is 64"},
		{"flow mappings 100 000 deep", "h.yaml", "hooks: " + strings.Repeat("{a: ", 100000),
			"h.yaml:1:264: brackets nested more than 64 deep; the limit is 64"},
		{"unclosed brackets", "h.yaml", "hooks: " + strings.Repeat("[", 100000),
			"h.yaml:1:72: brackets nested more than 64 deep; the limit is 64"},
		{"JSON 65 deep", "s.json", `{"hooks": ` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + "}",
			"s.json:1:74: brackets nested more than 64 deep; the limit is 64"},
		{"brackets inside quotes count too", "h.yaml", "hooks: []\nx: '" + strings.Repeat("[", 65) + "'\n",
			"h.yaml:2:69: brackets nested more than 64 deep; the limit is 64"},
		{"block indentation", "h.yaml", "hooks:\n" + strings.Repeat(" ", 300) + "- x\n",
			"h.yaml:2:257: line indented more than 256 columns; the limit is 256"},
		{"compact block sequences", "h.yaml", "hooks:\n" + strings.Repeat("- ", 100000) + "x\n",
			"h.yaml:2:257: line indented more than 256 columns; the limit is 256"},
		{"too large", "h.yaml", hooks(MaxFileSize/len(hookLine)) + strings.Repeat("#", len(hookLine)),
			fmt.Sprintf("h.yaml: config file is %d bytes; the limit is 512 KiB", 7+(MaxFileSize/len(hookLine)+1)*len(hookLine))},
		{"too many hooks", "h.yaml", flowHooks(MaxHooks + 1),
			"h.yaml:1:8: 10001 hooks in one file; the limit is 10000"},
		{"too many hooks in matcher groups", "s.json", `{"hooks": {"Stop": [{"hooks": [` +
			strings.Repeat(`{"type": "command", "command": "x"}, `, MaxHooks) + `{"type": "command", "command": "x"}]}]}}`,
			"s.json:1:11: 10001 hooks in one file; the limit is 10000"},
		{"aliases past the expansion cap", "h.yaml", aliases(600),
			"h.yaml:2:1997: aliases stand for more than 524288 bytes; the limit is 524288"},
		{"merge keys doubling", "h.yaml", laughs,
			"h.yaml:15:23: aliases stand for more than 524288 bytes; the limit is 524288"},

		{"64 deep loads", "h.yaml", "hooks: [" + strings.Repeat("[", 63) + strings.Repeat("]", 63) + "]\n" +
			"x: 1\n", "h.yaml:1:9: hook#1: a hook must be a mapping with event and action, not a sequence"},
		{"256 columns load", "h.yaml", "hooks:\n" + strings.Repeat(" ", 254) + "- {event: stop, action: {type: command, command: x}}\n", ""},
		{"a file of the largest size loads", "h.yaml", hooks((MaxFileSize - 7) / len(hookLine)), ""},
		{"10 000 hooks load", "h.yaml", flowHooks(MaxHooks), ""},
		{"some aliases load", "h.yaml", aliases(100), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, errs := Parse(tt.file, []byte(tt.data), Project)
			var got []string
			for _, p := range errs {
				if !p.Warning {
					got = append(got, p.Error())
				}
			}
			var want []string
			if tt.want != "" {
				want = []string{tt.want}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("problems (-want +got):\n%s", diff)
			}
			if tt.want == "" && len(f.Hooks) == 0 {
				t.Error("no hooks loaded")
			}
		})
	}
}

// TestCheckLimits: the exported check returns a *Problem, and nil within the caps.
func TestCheckLimits(t *testing.T) {
	t.Parallel()
	if err := CheckLimits("x.yaml", []byte("a: [[{b: [c]}]]\n- - - x\n")); err != nil {
		t.Fatalf("CheckLimits = %v, want nil", err)
	}
	err := CheckLimits("x.yaml", []byte("é: "+strings.Repeat("[", 65)))
	var p *Problem
	if !errors.As(err, &p) {
		t.Fatalf("CheckLimits = %v, want a *Problem", err)
	}
	if diff := cmp.Diff(Pos{File: "x.yaml", Line: 1, Col: 68}, p.Pos); diff != "" {
		t.Errorf("position (-want +got):\n%s", diff)
	}
}

// BenchmarkCheckLimits measures the pre-scan of a full-size file.
func BenchmarkCheckLimits(b *testing.B) {
	data := []byte("hooks:\n" + strings.Repeat(hookLine, MaxFileSize/len(hookLine)-1))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckLimits("h.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMappingKeysCap: a mapping holds at most MaxMappingKeys keys; the parser's time is
// quadratic in a block mapping's (stop 23, red team round 15: 105 000 one-line keys, 512 KiB,
// took 16 s at every hook event, past which the agent lets the call through). Sequence
// items each start a mapping of their own, a block scalar's lines are its text, and sibling
// JSON objects are apart. Round 16's ways past the count are counted: a `[` in a comment
// before the keys, lone-CR line breaks, complex keys (`? k`), and documents.
func TestMappingKeysCap(t *testing.T) {
	t.Parallel()
	keys := func(n int, indent, sep string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%sk%d: %d%s", indent, i, i, sep)
		}
		return b.String()
	}
	var hooks strings.Builder
	hooks.WriteString("hooks:\n")
	for i := range 3 * MaxMappingKeys {
		fmt.Fprintf(&hooks, "  - id: h%d\n    event: pre_tool_use\n    action: {type: command, command: \"true\"}\n", i)
	}
	var script strings.Builder
	script.WriteString("hooks:\n  - id: s\n    event: pre_tool_use\n    action:\n      type: command\n      command: |\n")
	for i := range 2 * MaxMappingKeys {
		fmt.Fprintf(&script, "        echo a%d: b\n        x%d: y\n", i, i)
	}
	jsonObject := func(n int, indent string) string {
		var lines []string
		for i := range n {
			lines = append(lines, fmt.Sprintf(`%s  "k%d": %d`, indent, i, i))
		}
		return indent + "{\n" + strings.Join(lines, ",\n") + "\n" + indent + "}"
	}
	var groups []string
	for range 3 {
		groups = append(groups, jsonObject(MaxMappingKeys-1, "    "))
	}
	siblings := "{\"hooks\": [\n" + strings.Join(groups, ",\n") + "\n]}\n"
	oneLine := "{" + strings.ReplaceAll(strings.TrimSuffix(keys(2*MaxMappingKeys, `"`, ", "), ", "), ": ", `": `) + "}\n"
	complexKeys := strings.ReplaceAll(keys(MaxMappingKeys+1, "? ", "\n"), ": ", "\n: ")
	tests := []struct {
		name, data string
		line       int // 0: within the caps
	}{
		{"at the cap", keys(MaxMappingKeys, "", "\n"), 0},
		{"past the cap", keys(MaxMappingKeys+1, "", "\n"), MaxMappingKeys + 1},
		{"nested past the cap", "env:\n" + keys(MaxMappingKeys+1, "  ", "\n"), MaxMappingKeys + 2},
		{"two mappings at one indentation", "a:\n" + keys(MaxMappingKeys, "  ", "\n") + "b:\n" + keys(MaxMappingKeys, "  ", "\n"), 0},
		{"sequence items", hooks.String(), 0},
		{"a block scalar's lines", script.String(), 0},
		{"sibling JSON objects", siblings, 0},
		{"a JSON object on one line", oneLine, 0},
		{"a JSON object one key a line past the cap", jsonObject(MaxMappingKeys+1, ""), MaxMappingKeys + 2},
		{"a bracket in a comment before the keys", "# [\n" + keys(MaxMappingKeys+1, "", "\n"), MaxMappingKeys + 2},
		{"lone CR line breaks", keys(MaxMappingKeys+1, "", "\r"), MaxMappingKeys + 1},
		{"CRLF line breaks", keys(MaxMappingKeys+1, "", "\r\n"), MaxMappingKeys + 1},
		{"complex keys", complexKeys, 2*MaxMappingKeys + 1},
		{"document markers", strings.Repeat("--- a\n", MaxDocuments+1), MaxDocuments + 1},
	}
	for _, tt := range tests {
		err := CheckLimits("f.yaml", []byte(tt.data))
		var p *Problem
		switch {
		case tt.line == 0 && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.line != 0 && (!errors.As(err, &p) || p.Pos.Line != tt.line):
			t.Errorf("%s: %v, want a problem at line %d", tt.name, err, tt.line)
		}
	}
	for _, doc := range []string{siblings, oneLine} {
		if _, err := parseBytes([]byte(doc)); err != nil {
			t.Errorf("a JSON case does not parse: %v", err)
		}
	}
}

// TestSyntaxErrorOfALongLine: a syntax error in a long line is reported with the parser's
// message and position, without the source around it, whose printing took time and memory
// quadratic in the line (red team round 16: 6 s and 850 MB for a 512 KiB line). Bounded by
// bytes allocated, against the parse alone, not by time.
func TestSyntaxErrorOfALongLine(t *testing.T) {
	data := []byte("a: [" + strings.Repeat("1,", 250_000) + "\n")
	alloc := func(f func()) uint64 {
		var m1, m2 runtime.MemStats
		runtime.ReadMemStats(&m1)
		f()
		runtime.ReadMemStats(&m2)
		return m2.TotalAlloc - m1.TotalAlloc
	}
	parse := alloc(func() { parseBytes(data) })
	var probs ErrorList
	report := alloc(func() { _, probs = parseYAML("f.yaml", data) })
	if len(probs) != 1 || !strings.HasPrefix(probs[0].Msg, "syntax error: ") || probs[0].Pos.Line == 0 || len(probs[0].Msg) > 200 {
		t.Fatalf("problems %v", probs)
	}
	if report > parse*5/2 { // room for other tests' goroutines allocating meanwhile; the old report took 850 MB more
		t.Errorf("parsing and reporting allocated %d MB, the parse alone %d MB", report>>20, parse>>20)
	}
}

// TestMappingKeysRealFiles: what real configs hold stays within the key count (the
// false-positive check of stop 23 found each of these refused by the first version):
// permission strings with `: ` in a JSON array, an array of one-line JSON objects, sequence
// items written as a bare `-` line, block scalars after an anchor or a tag or as a sequence
// item, and a double-quoted scalar over many lines. A plain scalar with a quote inside does
// not open a quoted one (a way to hide keys).
func TestMappingKeysRealFiles(t *testing.T) {
	t.Parallel()
	n := MaxMappingKeys + 100
	lines := func(format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	tests := []struct {
		name, data string
		ok         bool
	}{
		{"permission strings", "{\n  \"permissions\": {\n    \"allow\": [\n" + lines("      \"Bash(git commit -m \\\"fix: typo %d\\\")\",\n") + "      \"Read\"\n    ]\n  }\n}\n", true},
		{"one-line JSON objects", "{\"version\": 1, \"hooks\": {\"beforeShellExecution\": [\n" + lines("  { \"command\": \"./hooks/check-%d.sh\" },\n") + "  { \"command\": \"x\" }\n]}}\n", true},
		{"bare dash items", "hooks:\n" + lines("  -\n    id: h%d\n    event: stop\n    matcher: x\n    action: {type: command, command: x}\n"), true},
		{"anchored block scalar", "x:\n  command: &s |\n" + lines("    a%d: b\n") + "y: 1\n", true},
		{"tagged block scalar", "x:\n  command: !!str |\n" + lines("    a%d: b\n") + "y: 1\n", true},
		{"sequence block scalar", "x:\n  - |\n" + lines("    a%d: b\n") + "y: 1\n", true},
		{"double-quoted over lines", "x:\n  message: \"first\n" + lines("    rule %d: no\n") + "    end\"\ny: 1\n", true},
		{"a quote inside a plain scalar", "a: b\"c\n" + lines("k%d: 1\n"), false},
		{"quoted keys", lines("\"k%d\": 1\n"), false},
	}
	for _, tt := range tests {
		err := CheckLimits("f.yaml", []byte(tt.data))
		if (err == nil) != tt.ok {
			t.Errorf("%s: %v, want ok %v", tt.name, err, tt.ok)
		}
		if tt.ok {
			if _, perr := parseBytes([]byte(tt.data)); perr != nil {
				t.Errorf("%s does not parse: %v", tt.name, perr)
			}
		}
	}
}

// TestKeyLengthAndPropertyItems: a key is at most MaxKeyLength bytes, in a block mapping and
// in a flow one (quoted or plain), and at most MaxPropertyItems sequence items hold only a
// tag or an anchor: the parser's memory grew with the square of both (red team round 17: a
// 256 KiB key over a long list, 50 000 `- !a` lines, gigabytes). Long values, strings with
// `: ` in them, and anchored hooks below the cap stay within.
func TestKeyLengthAndPropertyItems(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("k", MaxKeyLength+1)
	tests := []struct {
		name, data string
		ok         bool
	}{
		{"a block key at the cap", strings.Repeat("k", MaxKeyLength) + ": [1, 2]\n", true},
		{"a long block key", long + ": [1, 2]\n", false},
		{"a long quoted flow key", `{"` + long + `": [1, 2]}`, false},
		{"a long plain flow key", "{" + long + ": [1, 2]}", false},
		{"a long key after a comma", `{"a": 1, "` + long + `": [2]}`, false},
		{"a long key with a scalar value", `{"a": 1, "` + long + `": 2}`, true},
		{"a script with a comma, then a thousand bytes, then a colon", "hooks:\n  - event: stop\n    action: {type: command, command: \"python3 -c 'import os, sys; " + strings.Repeat("x=1;", 300) + " print(\\\"a: b\\\")'\"}\n", true},
		{"a long value", `{"command": "` + strings.Repeat("echo x; ", 500) + `"}`, true},
		{"a long value with colons", "command: 'for f in a b; do echo \"file: $f\", done; " + strings.Repeat("x", 2000) + "'\n", true},
		{"tags only", strings.Repeat("- !a\n", MaxPropertyItems+1), false},
		{"anchors only", strings.Repeat("- &a\n", MaxPropertyItems+1), false},
		{"anchored hooks", "hooks:\n" + strings.Repeat("  - &h\n    event: stop\n", MaxPropertyItems), true},
	}
	for _, tt := range tests {
		if err := CheckLimits("f.yaml", []byte(tt.data)); (err == nil) != tt.ok {
			t.Errorf("%s: %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

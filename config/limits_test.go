package config

import (
	"errors"
	"fmt"
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

// TestMappingKeysCap: a block mapping holds at most MaxMappingKeys keys; the parser's time is
// quadratic in them (stop 23, red team round 15: 105 000 one-line keys, 512 KiB, took 16 s
// at every hook event, past which the agent lets the call through). Sequence items each
// start a mapping of their own, a block scalar's lines are its text, and a JSON object is
// a flow mapping: none of those counts.
func TestMappingKeysCap(t *testing.T) {
	t.Parallel()
	keys := func(n int, indent string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%sk%d: %d\n", indent, i, i)
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
	json := "{\n" + strings.TrimSuffix(strings.ReplaceAll(keys(2*MaxMappingKeys, `  "`), ": ", `": `), "\n") + "\n}\n"
	json = strings.ReplaceAll(json, "\n  \"", ",\n  \"")
	json = strings.Replace(json, "{,", "{", 1)
	tests := []struct {
		name, data string
		line       int // 0: within the caps
	}{
		{"at the cap", keys(MaxMappingKeys, ""), 0},
		{"past the cap", keys(MaxMappingKeys+1, ""), MaxMappingKeys + 1},
		{"nested past the cap", "env:\n" + keys(MaxMappingKeys+1, "  "), MaxMappingKeys + 2},
		{"two mappings at one indentation", "a:\n" + keys(MaxMappingKeys, "  ") + "b:\n" + keys(MaxMappingKeys, "  "), 0},
		{"sequence items", hooks.String(), 0},
		{"a block scalar's lines", script.String(), 0},
		{"a JSON object", json, 0},
	}
	for _, tt := range tests {
		err := CheckLimits("f.yaml", []byte(tt.data))
		var p *Problem
		switch {
		case tt.line == 0 && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.line != 0 && (!errors.As(err, &p) || p.Pos.Line != tt.line || !strings.Contains(p.Msg, "keys in one mapping")):
			t.Errorf("%s: %v, want a problem at line %d", tt.name, err, tt.line)
		}
	}
	if _, err := parseBytes([]byte(json)); err != nil {
		t.Errorf("the JSON case does not parse: %v", err)
	}
}

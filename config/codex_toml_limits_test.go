package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestCodexTOMLEntriesCap: a Codex config.toml holds at most MaxTOMLEntries table headers
// and as many `=` signs, and no line has more than MaxTOMLDots dots; past them it does not
// load, with the line, and the TOML library never sees it (quadratic in siblings: 88 000
// table headers took 10 s, an inline table of 100 000 keys 10 s, a dotted key of 256 000
// parts 565 MB; stop 23, red team rounds 15 and 16). What Codex itself writes stays within:
// thousands of `[projects."…"]` tables (a 64 KiB cap refused one, in the false-positive
// check), and Markdown with `---` rules and `Step 1: …` lines in a multi-line string.
func TestCodexTOMLEntriesCap(t *testing.T) {
	t.Parallel()
	var headers, inline, projects strings.Builder
	for i := range MaxTOMLEntries + 1 {
		fmt.Fprintf(&headers, "[t%d]\n", i)
	}
	inline.WriteString("[hooks]\nx = {")
	for i := range MaxTOMLEntries {
		fmt.Fprintf(&inline, "k%d=1,", i)
	}
	inline.WriteString("z=1}\n")
	for i := range 5000 {
		fmt.Fprintf(&projects, "[projects.\"/home/u/src/repo-%d\"]\ntrust_level = \"trusted\"\n\n", i)
	}
	dotted := "[hooks]\n" + strings.Repeat("a.", MaxTOMLDots+1) + "a = 1\n"
	prose := "developer_instructions = \"\"\"\n" + strings.Repeat("---\nStep 1: read the code.\nkey: value\n", 600) + "\"\"\"\n"
	tests := []struct {
		name, data, want string
	}{
		{"table headers", headers.String(), "more than 20000 tables"},
		{"an inline table's keys", inline.String(), "more than 20000 keys"},
		{"a dotted key", dotted, "more than 1000 dots"},
		{"5000 trusted projects", projects.String(), ""},
		{"Markdown in a multi-line string", prose, ""},
	}
	for _, tt := range tests {
		f, probs := parseCodexTOML("/p/.codex/config.toml", []byte(tt.data), Project)
		switch {
		case tt.want == "" && (f.Failed || probs.Err() != nil):
			t.Errorf("%s: failed %v, %v", tt.name, f.Failed, probs)
		case tt.want != "" && (!f.Failed || len(probs) != 1 || !strings.Contains(probs[0].Msg, tt.want)):
			t.Errorf("%s: failed %v, %v, want %q", tt.name, f.Failed, probs, tt.want)
		}
	}
}

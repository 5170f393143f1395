package match

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClaudeMatcherMatch: a Claude Code settings file's matcher matches as Claude Code 2.1.332
// matched it (scenario testdata/claude/matchers of the root package, run with
// ../shared/peer-claude), except that a regex must match the whole value (DESIGN section 5).
// In hookcore's syntax "/Write/" searches Write and "bash" names Bash; Claude Code ran
// neither for Write or Bash (stop 30: a converted Gemini CLI file held such matchers, and
// fire, replay, test and check said they ran).
func TestClaudeMatcherMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		matcher string
		name    string
		want    bool
	}{
		// The slashes are characters of the regex, not delimiters.
		{"/Write/", "Write", false},
		{"/write/i", "Write", false},
		{"/^(?:Read)$|read_.*/", "Read", false},
		{"/^(?:Edit|Write)$|replace|MultiEdit|write_file/", "Edit", false},
		{"/Write/", "/Write/", true},
		{"/Write/|Write", "Write", true},
		// Names are exact, case included.
		{"write", "Write", false},
		{"bash|write", "Bash", false},
		{"WRITE", "Write", false},
		{"Write", "Write", true},
		{"Write,Edit", "Edit", true},
		{" Write ", "Write", true},
		{"Bash|Write |  Edit", "Edit", true},
		{"Bash,", "Bash", true},
		{"Edit|", "Edit", true},
		{"my-tool", "my-tool", true},
		{"startup", "Startup", false},
		// "" and "*" exactly match all; a list of no name matches nothing.
		{"", "Bash", true},
		{"*", "Bash", true},
		{" ", "Bash", false},
		{"|", "Bash", false},
		{",", "Bash", false},
		// A regex is not trimmed, and matches the whole value (Claude Code searches it).
		{"Edit.*", "Edit", true},
		{"Edit.*", "NotebookEdit", false},
		{"Notebook.*", "NotebookEdit", true},
		{" rit. ", "Write", false},
		{"(?:Write)", "Write", true},
		{"^(?:[Ww][Rr][Ii][Tt][Ee])$", "Write", true},
		{"Édit|Write", "Write", true},
	}
	for _, tt := range tests {
		t.Run(tt.matcher+"/"+tt.name, func(t *testing.T) {
			t.Parallel()
			m, err := CompileClaudeMatcher(tt.matcher)
			if err != nil {
				t.Fatalf("CompileClaudeMatcher(%q): %v", tt.matcher, err)
			}
			if got := m.Match(tt.name); got != tt.want {
				t.Errorf("CompileClaudeMatcher(%q).Match(%q) = %v, want %v", tt.matcher, tt.name, got, tt.want)
			}
			if m.String() != tt.matcher {
				t.Errorf("String() = %q", m.String())
			}
		})
	}
}

// TestClaudeMatcherShape: the same text is cached apart in each syntax; Claude Code's names
// are a case-sensitive List, not the case-insensitive Names a runner indexes without Match;
// Values and Any.
func TestClaudeMatcherShape(t *testing.T) {
	t.Parallel()
	c, _ := CompileClaudeMatcher("bash")
	h, _ := CompileMatcher("bash")
	if c == h || c.Match("Bash") || !h.Match("Bash") {
		t.Fatal("the two syntaxes share a compiled matcher")
	}
	if c.Names() != nil {
		t.Errorf("Names() = %q, want nil (case-sensitive)", c.Names())
	}
	names, fold, ok := c.List()
	if !ok || fold || !cmp.Equal(names, []string{"bash"}) {
		t.Errorf("List() = %q, %v, %v", names, fold, ok)
	}
	if names, fold, ok := h.List(); !ok || !fold || !cmp.Equal(names, []string{"bash"}) {
		t.Errorf("hookcore List() = %q, %v, %v", names, fold, ok)
	}
	if lits := c.Literals(); len(lits) != 1 {
		t.Errorf("Literals() = %q: the case-sensitive names are candidates for the index", lits)
	}
	for _, tt := range []struct {
		claude  bool
		matcher string
		values  []string
		ok      bool
	}{
		{true, "Edit, Write", []string{"Edit", "Write"}, true},
		{true, "^(?:Edit|Write)$", []string{"Edit", "Write"}, true},
		{false, "/^(Edit|Write)$/", []string{"Edit", "Write"}, true},
		{false, "[Ww]rite", []string{"Write", "write"}, true},
		{false, "Edit|Write", nil, false}, // hookcore ignores case: no finite set of spellings
		{false, "(?i)^ab$", []string{"AB", "Ab", "aB", "ab"}, true},
		{false, "/Edit/", nil, false},
		{false, "Notebook.*", nil, false},
	} {
		compile := CompileMatcher
		if tt.claude {
			compile = CompileClaudeMatcher
		}
		m, err := compile(tt.matcher)
		if err != nil {
			t.Fatal(err)
		}
		if values, ok := m.Values(); ok != tt.ok || !cmp.Equal(values, tt.values) {
			t.Errorf("%q Values() = %q, %v; want %q, %v", tt.matcher, values, ok, tt.values, tt.ok)
		}
	}
	// A search that matches the empty string matches every value: Gemini CLI's ".*" as
	// hookcore reads it.
	for src, any := range map[string]bool{"/.*/": true, "/^(?:Bash)$|.*/": true, "/x|/": true, "/a*/": true, ".*": false, "/^.*$/": false, "/\\b/": false} {
		m, err := CompileMatcher(src)
		if err != nil {
			t.Fatal(err)
		}
		if m.Any() != any || !m.Match("a\nb") != !any && any {
			t.Errorf("CompileMatcher(%q).Any() = %v, want %v", src, m.Any(), any)
		}
	}
}

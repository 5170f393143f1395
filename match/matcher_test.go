package match

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatcherMatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		matcher string
		name    string
		want    bool
	}{
		// Any.
		{"", "Bash", true},
		{"", "", true},
		{"*", "Bash", true},
		{" * ", "anything", true},
		// Exact names, case-insensitive (conformance case 12).
		{"Bash", "Bash", true},
		{"Bash", "bash", true},
		{"bash", "BASH", true},
		{"Bash", "BashOutput", false},
		{"Edit|Write", "Edit", true},
		{"Edit|Write", "write", true},
		{"Edit|Write", "WriteFile", false},
		{"Edit|Write", "NotebookEdit", false},
		{"Edit, Write", "Write", true},
		{" Edit | Write ", "Edit", true},
		{"Edit,Write|Read", "Read", true},
		{"My Tool", "my tool", true},
		{"My Tool", "My", false},
		{"mcp__github__create_issue", "mcp__github__create_issue", true},
		{"my-tool", "my-tool", true},
		{"startup", "startup", true},
		{"startup|resume", "clear", false},
		// Empty names are dropped: "Bash|" is {Bash} (Claude Code 2.1.332, scenario
		// testdata/claude/matcher-trailing-pipe of the root package).
		{"Bash|", "Bash", true},
		{"Bash|", "Write", false},
		{"Bash|", "", false},
		{"|Edit||Write|", "Write", true},
		{"|Edit||Write|", "Read", false},
		// Slash regex: unanchored search.
		{"/rm/", "confirm", true},
		{"/^Bash$/", "Bash", true},
		{"/^bash$/", "Bash", false},
		{"/^bash$/i", "Bash", true},
		{"/Edit|Write/", "NotebookEdit", true},
		{"/a/b/", "xa/by", true},
		// Anything else: regex anchored on the whole name (conformance case 12b).
		{"Edit.*", "EditFile", true},
		{"Edit.*", "Edit", true},
		{"Edit.*", "NotebookEdit", false},
		{"Notebook.*", "NotebookEdit", true},
		{"mcp__github__.*", "mcp__github__create_issue", true},
		{"mcp__github__.*", "mcp__gitlab__create_issue", false},
		{"mcp__github__.*", "x_mcp__github__y", false},
		{"Edit|Write.*", "WriteFile", true},
		{"Edit|Write.*", "NotebookEdit", false},
		{"Edit|Write.*", "EditFile", false},
		{"(?i)bash.*", "BashOutput", true},
	}
	for _, tt := range tests {
		t.Run(tt.matcher+"/"+tt.name, func(t *testing.T) {
			t.Parallel()
			m, err := CompileMatcher(tt.matcher)
			if err != nil {
				t.Fatalf("CompileMatcher(%q): %v", tt.matcher, err)
			}
			if got := m.Match(tt.name); got != tt.want {
				t.Errorf("CompileMatcher(%q).Match(%q) = %v, want %v", tt.matcher, tt.name, got, tt.want)
			}
		})
	}
}

func TestMatcherShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		matcher string
		any     bool
		names   []string
	}{
		{"", true, nil},
		{"*", true, nil},
		{"Bash", false, []string{"Bash"}},
		{" Edit | Write,MultiEdit ", false, []string{"Edit", "Write", "MultiEdit"}},
		{"/Bash/", false, nil},
		{"Notebook.*", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.matcher, func(t *testing.T) {
			t.Parallel()
			m, err := CompileMatcher(tt.matcher)
			if err != nil {
				t.Fatal(err)
			}
			if m.Any() != tt.any {
				t.Errorf("Any() = %v, want %v", m.Any(), tt.any)
			}
			if diff := cmp.Diff(tt.names, m.Names()); diff != "" {
				t.Errorf("Names() (-want +got):\n%s", diff)
			}
			if m.String() != tt.matcher {
				t.Errorf("String() = %q, want %q", m.String(), tt.matcher)
			}
		})
	}
}

func TestMatcherNil(t *testing.T) {
	t.Parallel()
	var m *Matcher
	if !m.Match("x") || !m.Any() || m.Names() != nil || m.String() != "" {
		t.Error("nil *Matcher must match everything and have no names")
	}
	var zero Matcher
	if !zero.Match("x") || !zero.Any() {
		t.Error("zero Matcher must match everything")
	}
}

func TestCompileMatcherErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		matcher string
		want    string // substring of the error
	}{
		{"/(/", `bad matcher regex "/(/"`},
		{"/a/x", `unknown regex flag 'x'`},
		{"Edit(", `bad matcher regex "Edit("`},
		{"[a-", `bad matcher regex`},
		{"|", `no name in list`},
		{" , | ", `no name in list`},
	}
	for _, tt := range tests {
		t.Run(tt.matcher, func(t *testing.T) {
			t.Parallel()
			_, err := CompileMatcher(tt.matcher)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CompileMatcher(%q) error = %v, want it to contain %q", tt.matcher, err, tt.want)
			}
		})
	}
}

// TestMatcherMatchDoesNotAllocate is not parallel: testing.AllocsPerRun forbids it.
func TestMatcherMatchDoesNotAllocate(t *testing.T) {
	for _, src := range []string{"", "Edit|Write|MultiEdit", "/bash/i", "mcp__github__.*"} {
		m, err := CompileMatcher(src)
		if err != nil {
			t.Fatal(err)
		}
		if raceEnabled && m.re != nil {
			continue
		}
		if n := testing.AllocsPerRun(100, func() { m.Match("NotebookEdit") }); n != 0 {
			t.Errorf("CompileMatcher(%q).Match allocates %v times, want 0", src, n)
		}
	}
}

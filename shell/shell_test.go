package shell_test

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/shell"
)

// TestParse checks the two views of Parse directly: Texts for deny rules, Units for allow
// rules, and Opaque for a line that can not be analysed.
func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command string
		texts, units  []string
		opaque        bool
	}{
		{"list", `ls -la && rm -rf x`, []string{"ls -la", "rm -rf x"}, []string{"ls -la", "rm -rf x"}, false},
		{"wrapper stripped, base name for deny", `sudo /bin/rm -rf x`, []string{"sudo /bin/rm -rf x", "/bin/rm -rf x", "rm -rf x"}, nil, false},
		{"bash -c", `bash -c 'git push'`, []string{"bash -c git push", "git push"}, nil, false},
		{"write redirection is a unit", `ls > out`, []string{"ls"}, []string{"> out", "ls"}, false},
		{"does not parse", `ls 'unterminated`, nil, nil, true},
		{"name not static", `$CMD -rf x`, nil, nil, true},
		{"empty", ``, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := shell.Parse(tt.command)
			if got := c.Opaque(); got != tt.opaque {
				t.Fatalf("Parse(%q).Opaque() = %v, want %v", tt.command, got, tt.opaque)
			}
			if tt.opaque {
				return
			}
			if diff := cmp.Diff(tt.texts, c.Texts()); diff != "" {
				t.Errorf("Parse(%q).Texts() (-want +got):\n%s", tt.command, diff)
			}
			if tt.units != nil {
				if diff := cmp.Diff(tt.units, c.Units()); diff != "" {
					t.Errorf("Parse(%q).Units() (-want +got):\n%s", tt.command, diff)
				}
			}
		})
	}
}

// TestMatchAllows checks the guard and permission answers, including for an Opaque line.
func TestMatchAllows(t *testing.T) {
	t.Parallel()
	rm := regexp.MustCompile(`^rm( |$)`)
	ls := regexp.MustCompile(`^ls( |$)`)
	tests := []struct {
		command       string
		match, allows bool // Match(rm), Allows([ls])
	}{
		{`ls -la`, false, true},
		{`ls && rm -rf x`, true, false},
		{`eval 'rm x'`, true, false},
		{`ls 'unterminated`, true, false},
		{``, false, true},
	}
	for _, tt := range tests {
		c := shell.Parse(tt.command)
		if got := c.Match(rm); got != tt.match {
			t.Errorf("Parse(%q).Match(rm) = %v, want %v", tt.command, got, tt.match)
		}
		if got := c.Allows([]*regexp.Regexp{ls}); got != tt.allows {
			t.Errorf("Parse(%q).Allows(ls) = %v, want %v", tt.command, got, tt.allows)
		}
	}
}

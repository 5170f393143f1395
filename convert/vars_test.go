package convert

import (
	"strings"
	"testing"

	"github.com/hookcore/hookcore/config"
)

// TestAgentDirVars (new-user trial, stop 28): another agent's project-directory variable
// ($GEMINI_PROJECT_DIR, $CURSOR_PROJECT_DIR) is rewritten, and reported, for a target that
// does not set it, as $CLAUDE_PROJECT_DIR was: before, it was copied as it was, so under
// the target it was unset and the command became /.gemini/hooks/first.sh. The agents'
// other variables ($GEMINI_CWD) have no replacement and are reported.
func TestAgentDirVars(t *testing.T) {
	t.Parallel()
	gemini := `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "sh \"$GEMINI_PROJECT_DIR/.gemini/hooks/first.sh\" \"$GEMINI_CWD\""}]}]}}`
	cursor := `{"version": 1, "hooks": {"beforeShellExecution": [{"command": "$CURSOR_PROJECT_DIR/hooks/x.sh"}]}}`
	for _, tc := range []struct {
		path, src string
		dialect   config.Dialect
		target    string
		command   string // in the output, as JSON or YAML text
		lines     []string
	}{
		{"/p/.gemini/settings.json", gemini, config.Gemini, "claude", `sh \"${CLAUDE_PROJECT_DIR}/.gemini/hooks/first.sh\" \"$GEMINI_CWD\"`,
			[]string{"$GEMINI_PROJECT_DIR rewritten to ${CLAUDE_PROJECT_DIR}: claude does not set GEMINI_PROJECT_DIR", "$GEMINI_CWD is gemini's: claude does not set it"}},
		{"/p/.gemini/settings.json", gemini, config.Gemini, "cursor", `sh \"${CURSOR_PROJECT_DIR}/.gemini/hooks/first.sh\"`,
			[]string{"$GEMINI_PROJECT_DIR rewritten to ${CURSOR_PROJECT_DIR}", "$GEMINI_CWD is gemini's"}},
		{"/p/.gemini/settings.json", gemini, config.Gemini, "codex", `sh \"/p/.gemini/hooks/first.sh\"`,
			[]string{"$GEMINI_PROJECT_DIR rewritten to /p: codex sets no project-directory variable", "$GEMINI_CWD is gemini's"}},
		{"/p/.gemini/settings.json", gemini, config.Gemini, "copilot", `sh \"/p/.gemini/hooks/first.sh\"`,
			[]string{"$GEMINI_PROJECT_DIR rewritten to /p: copilot sets no project-directory variable", "$GEMINI_CWD is gemini's"}},
		{"/p/.gemini/settings.json", gemini, config.Gemini, "hookcore", `sh "${HOOKCORE_PROJECT_DIR}/.gemini/hooks/first.sh" "$GEMINI_CWD"`,
			[]string{"$GEMINI_PROJECT_DIR rewritten to ${HOOKCORE_PROJECT_DIR}: hookcore does not set GEMINI_PROJECT_DIR", "$GEMINI_CWD is gemini's: hookcore does not set it"}},
		{"/p/.gemini/settings.json", gemini, config.Gemini, "gemini", `sh \"$GEMINI_PROJECT_DIR/.gemini/hooks/first.sh\" \"$GEMINI_CWD\"`, nil},
		{"/p/.cursor/hooks.json", cursor, config.Cursor, "claude", `"${CLAUDE_PROJECT_DIR}/hooks/x.sh"`,
			[]string{"$CURSOR_PROJECT_DIR rewritten to ${CLAUDE_PROJECT_DIR}: claude does not set CURSOR_PROJECT_DIR"}},
		{"/p/.cursor/hooks.json", cursor, config.Cursor, "gemini", `"${GEMINI_PROJECT_DIR}/hooks/x.sh"`,
			[]string{"$CURSOR_PROJECT_DIR rewritten to ${GEMINI_PROJECT_DIR}"}},
		{"/p/.cursor/hooks.json", cursor, config.Cursor, "cursor", `"$CURSOR_PROJECT_DIR/hooks/x.sh"`, nil},
	} {
		t.Run(tc.path+"/"+tc.target, func(t *testing.T) {
			t.Parallel()
			f, errs := config.ParseDialect(tc.path, []byte(tc.src), config.Explicit, tc.dialect)
			if errs.Err() != nil {
				t.Fatal(errs)
			}
			out, lost, err := Options{ProjectDir: "/p"}.To(f, tc.target)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), tc.command) {
				t.Errorf("output lacks %s:\n%s", tc.command, out)
			}
			var got []string
			for _, l := range lost {
				if strings.Contains(l.What, "$") && !strings.Contains(l.What, "hook protocol") {
					got = append(got, l.What)
				}
			}
			if len(got) != len(tc.lines) {
				t.Fatalf("lines %q, want %d", got, len(tc.lines))
			}
			for i, w := range tc.lines {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("line %q, want it to start %q", got[i], w)
				}
			}
		})
	}
}

//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestFireBadInputExit: an input on stdin that cannot be read as a hook input exits 2 (a
// block, stderr the reason) on a gate event and 1 elsewhere, and runs no hook. Claude Code
// lets a tool call through on exit 1, so a bridge that pipes the call to `hookcore fire` must
// not see 1 for an input too deep to decode.
func TestFireBadInputExit(t *testing.T) {
	t.Parallel()
	deep := `{"tool_name":"Bash","tool_input":{"command":"rm -rf /x","x":` +
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}`
	tests := []struct {
		name, event, input string
		code               int
		stderr             string
	}{
		{"deep on PreToolUse", "PreToolUse", deep, 2, "hookcore: input on stdin is not valid JSON: invalid character '[' exceeded max depth"},
		{"deep on UserPromptSubmit", "UserPromptSubmit", deep, 2, "hookcore: input on stdin is not valid JSON: invalid character '[' exceeded max depth"},
		{"invalid on PermissionRequest", "PermissionRequest", `{"tool_name":"Bash",}`, 2, "hookcore: input on stdin is not valid JSON"},
		{"wrong type on PreToolUse", "PreToolUse", `{"tool_name": 5}`, 2, `hookcore: input on stdin is not a valid hook input: hook input field "tool_name"`},
		{"deep on PostToolUse", "PostToolUse", deep, 1, "hookcore: input on stdin is not valid JSON: invalid character '[' exceeded max depth"},
		{"invalid on Stop", "Stop", `{`, 1, "hookcore: input on stdin is not valid JSON"},
		// Bytes that are not UTF-8 are escaped, as the hook command escapes them (new-user
		// trial: they reached the terminal as themselves, or as U+FFFD).
		{"binary on PreToolUse", "PreToolUse", "v\xb4;G\xe9\x1b[2J\x00", 2, `hookcore: input on stdin is not a JSON object: it begins "v\xb4;G\xe9\x1b[2J\x00"` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			config := filepath.Join(dir, "hooks.yaml")
			marker := filepath.Join(dir, "ran")
			yaml := "hooks:\n"
			for _, ev := range []string{"PreToolUse", "UserPromptSubmit", "PermissionRequest", "PostToolUse", "Stop"} {
				yaml += "  - {event: " + ev + ", action: {type: command, command: 'touch " + marker + "'}}\n"
			}
			if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			code := cli.Main([]string{"fire", tt.event, "--config", config}, strings.NewReader(tt.input), &out, &errb)
			if code != tt.code || !strings.HasPrefix(errb.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d, stderr starting %q", code, errb.String(), tt.code, tt.stderr)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q, want none", out.String())
			}
			if _, err := os.Stat(marker); err == nil {
				t.Error("a hook ran")
			}
		})
	}
}

// TestFireInputSizeCap: fire reads at most 64 MiB of input; past that it stops reading and
// refuses the input (exit 2 on a gate event), instead of holding gigabytes.
func TestFireInputSizeCap(t *testing.T) {
	t.Parallel()
	big := io.MultiReader(strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"`),
		io.LimitReader(repeatReader('x'), 64<<20), strings.NewReader(`"}}`))
	var out, errb bytes.Buffer
	code := cli.Main([]string{"fire", "PreToolUse", "--config", "/nonexistent-not-read.yaml"}, big, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "larger than 64 MiB") {
		t.Fatalf("exit %d, stderr %q: want 2 and the size limit", code, errb.String())
	}
}

// repeatReader yields its byte forever.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

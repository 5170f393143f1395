package harness_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const goldenHooks = `
hooks:
  - id: rules
    event: turn_start
    action: {type: prompt, message: "Rule: keep fixed.txt."}
  - id: no-rm-rf
    event: pre_tool_use
    matcher: Bash
    if: 'args.command =~ /rm -rf/'
    action: {type: command, command: "echo 'no rm -rf here'"}
    reject: true
  - id: rewrite
    event: pre_tool_use
    matcher: Bash
    if: 'args.command == "echo original"'
    action: {type: command, command: "echo '{\"updated_input\":{\"command\":\"echo rewritten > rewritten.txt\"}}'"}
  - id: approve
    event: permission_request
    matcher: Bash|WriteFile|EditFile
    action: {type: command, command: "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"allow\"}}}'"}
  - id: check-once
    event: Stop
    action: {type: command, command: "grep -q '\"stop_hook_active\":true' || { echo 'check your work' >&2; exit 2; }"}
  - id: validate
    event: PostStopValidation
    action: {type: command, command: "test -f fixed.txt || { echo 'fixed.txt is missing' >&2; exit 2; }"}
`

const goldenScript = `[
  {"text": "Cleaning up.", "tool": "Bash", "input": {"command": "rm -rf /tmp/nothing-here"}},
  {"tool": "Bash", "input": {"command": "echo original"}},
  {"tool": "WriteFile", "input": {"path": "broken.txt", "content": "x"}},
  {"text": "Done."},
  {"text": "Checked: really done."},
  {"tool": "WriteFile", "input": {"path": "fixed.txt", "content": "ok"}},
  {"text": "Fixed."}
]`

// TestGoldenSession checks the exact event sequence and hook inputs of a whole session
// (Startup to Shutdown) with block, rewrite, context, permission, Stop and PostStopValidation.
func TestGoldenSession(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{yaml: goldenHooks, script: goldenScript})
	ctx := context.Background()
	rg.h.Startup(ctx, rg.ws)
	if err := rg.s.Run(ctx, "Tidy up and make sure fixed.txt exists."); err != nil {
		t.Fatal(err)
	}
	rg.h.Shutdown(ctx, rg.ws)

	var b strings.Builder
	for _, e := range rg.entries() {
		line := fmt.Sprintf("%s %s", e.Event, e.Input)
		if e.Result != nil && e.Result.Blocked {
			line += fmt.Sprintf("\n  => blocked: %s", e.Result.Reason)
		}
		if e.Result != nil && len(e.Result.UpdatedInput) > 0 && string(e.Result.UpdatedInput) != "null" {
			line += fmt.Sprintf("\n  => updated_input: %s", e.Result.UpdatedInput)
		}
		if e.Result != nil && e.Result.AdditionalContext != "" {
			line += fmt.Sprintf("\n  => context: %s", e.Result.AdditionalContext)
		}
		if e.Result != nil && e.Result.Permission != "" {
			line += fmt.Sprintf("\n  => permission: %s", e.Result.Permission)
		}
		b.WriteString(strings.ReplaceAll(line, rg.ws, "$WORK") + "\n")
	}
	got := b.String()
	golden := filepath.Join("testdata", "session.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("session events (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(rg.ws, "rewritten.txt")); err != nil {
		t.Errorf("the rewritten command did not run: %v", err)
	}
	// The model saw the block's reason, the validation reminder and the Stop feedback.
	var convo strings.Builder
	for _, m := range rg.s.Messages() {
		convo.WriteString(m.Text + "\n")
	}
	for _, want := range []string{
		"no rm -rf here",
		"Stop hook feedback:\ncheck your work",
		"<system-reminder>\nThe PostStopValidation hook failed. Fix the problem based on the following output:\nfixed.txt is missing\n</system-reminder>",
	} {
		if !strings.Contains(convo.String(), want) {
			t.Errorf("the conversation lacks %q:\n%s", want, convo.String())
		}
	}
}

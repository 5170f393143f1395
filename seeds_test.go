package hookcore_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestS08ExitCodeProtocolByDefault: an s08 hooks.json entry (no `type`) follows s08's
// three-state protocol without exit_codes (seed 002, "返回码协议": 1 = block, 2 = inject);
// an entry with exit_codes of its own keeps them (issue 8 item 7).
func TestS08ExitCodeProtocolByDefault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entry string
		want        summary
	}{
		{
			name:  "exit 1 blocks",
			entry: `{"matcher": "Bash", "command": "echo 'no deletes' >&2; exit 1"}`,
			want:  summary{Blocked: true, Reason: "no deletes", Permission: "deny", Continue: true, Hooks: []string{"PreToolUse#1=block"}},
		},
		{
			name:  "exit 2 injects",
			entry: `{"matcher": "Bash", "command": "echo 'mind the build dir' >&2; exit 2"}`,
			want:  summary{Context: "mind the build dir", Continue: true, Hooks: []string{"PreToolUse#1=context"}},
		},
		{
			name:  "own exit codes win",
			entry: `{"matcher": "Bash", "command": "exit 1", "exit_codes": {"1": "allow"}}`,
			want:  summary{Continue: true, Hooks: []string{"PreToolUse#1=ok"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			set := loadConfig(t, dir, "hooks.json", `{"hooks": {"PreToolUse": [`+tt.entry+`]}}`)
			r := newRunner(t, dir, set, hookcore.Options{})
			got := summarize(r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "rm -rf build")))
			got.Permission = tt.want.Permission
			if tt.want.Permission == "" {
				got.Permission = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestS08ToolInputCutAtCharacters: s08 cuts HOOK_TOOL_INPUT with Python's [:10000] on a
// str, 10 000 characters (seed 002); a codebot entry keeps the 10 000-byte cut.
func TestS08ToolInputCutAtCharacters(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, typ string
		runes     int
	}{
		{"s08", "", 10000},
		{"codebot", `"type": "command", `, 5006}, // 12 ASCII bytes, then 9988 bytes of é
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			set := loadConfig(t, dir, "hooks.json", `{"hooks": {"PreToolUse": [{`+tt.typ+`"command": "printf %s \"$HOOK_TOOL_INPUT\" > in.txt"}]}}`)
			r := newRunner(t, dir, set, hookcore.Options{})
			in := bashCall(dir, "s1", strings.Repeat("é", 20000))
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if res.Blocked {
				t.Fatalf("blocked: %s", res.Reason)
			}
			got := readFile(t, dir, "in.txt")
			if n := utf8.RuneCountInString(got); n != tt.runes {
				t.Errorf("HOOK_TOOL_INPUT has %d characters (%d bytes), want %d", n, len(got), tt.runes)
			}
			if !strings.HasPrefix(got, `{"command":"éé`) {
				t.Errorf("HOOK_TOOL_INPUT = %.40q...", got)
			}
		})
	}
}

// TestCodebotObserveEventsFireAndForget: codebot runs PostToolUse, Notification,
// SessionStart, SessionEnd and SubagentStop hooks in a goroutine with a detached context
// and never waits for them (seed 000, the event table); a codebot file keeps that by
// default, so their output changes nothing. `async: false` opts out (issue 8 item 7).
func TestCodebotObserveEventsFireAndForget(t *testing.T) {
	t.Parallel()
	ctxOut := `{"hookSpecificOutput": {"additionalContext": "from the hook"}}`
	for _, event := range []hook.Event{hook.PostToolUse, hook.Notification, hook.SessionStart, hook.SessionEnd, hook.SubagentStop} {
		for _, async := range []string{"", `"async": false, `} {
			name := string(event)
			if async != "" {
				name += "/async false"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				writeFile(t, dir, "out.json", ctxOut)
				set := loadConfig(t, dir, "settings.json", `{"hooks": {"`+string(event)+`": [{"type": "command", `+async+`"command": "cat out.json"}]}}`)
				r := newRunner(t, dir, set, hookcore.Options{})
				res := r.Fire(context.Background(), event, bashCall(dir, "s1", "ls"))
				want := []string{string(event) + "#1=async"}
				if async != "" {
					want = []string{string(event) + "#1=context"}
				}
				if diff := cmp.Diff(want, outcomes(res)); diff != "" {
					t.Errorf("records (-want +got):\n%s", diff)
				}
			})
		}
	}
	// The gate events stay synchronous.
	dir := t.TempDir()
	set := loadConfig(t, dir, "settings.json", `{"hooks": {"PreToolUse": [{"type": "command", "command": "echo no >&2; exit 2"}]}}`)
	r := newRunner(t, dir, set, hookcore.Options{})
	if res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s1", "ls")); !res.Blocked {
		t.Errorf("codebot PreToolUse did not block: %v", outcomes(res))
	}
}

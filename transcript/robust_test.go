package transcript_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/transcript"
)

func recording(t testing.TB, name string) recorded {
	t.Helper()
	for _, rec := range recordings(t) {
		if rec.name == name {
			return rec
		}
	}
	t.Fatalf("no recording %s", name)
	return recorded{}
}

func readLines(t testing.TB, path string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
}

func writeFile(t testing.TB, path string, parts ...[]byte) string {
	t.Helper()
	if err := os.WriteFile(path, bytes.Join(parts, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// names returns "Event" or "Event:Tool" for each event.
func names(evs []*transcript.Event) []string {
	var out []string
	for _, ev := range evs {
		s := string(ev.Event)
		if ev.Input.ToolName != "" {
			s += ":" + ev.Input.ToolName
		}
		out = append(out, s)
	}
	return out
}

var stopGateEvents = []string{
	"SessionStart", "UserPromptSubmit",
	"PreToolUse:Bash", "PostToolUse:Bash", "PreToolUse:Read", "PostToolUse:Read",
	"PreToolUse:Edit", "PostToolUse:Edit", "PreToolUse:Write", "PostToolUse:Write", "Stop",
	"PreToolUse:Bash", "PermissionRequest:Bash", "PostToolUse:Bash",
	"PreToolUse:Bash", "PostToolUse:Bash", "Stop", "SessionEnd",
}

func TestDamagedFiles(t *testing.T) {
	t.Parallel()
	rec := recording(t, "session-stop-gate")
	lines := readLines(t, rec.transcript) // 62 lines, the last is cost-state
	last := lines[len(lines)-1]
	tests := []struct {
		name        string
		parts       [][]byte
		strict      bool
		wantEvents  []string
		wantSkipped map[string]int
		wantErr     string
	}{{
		name:       "intact",
		parts:      lines,
		wantEvents: stopGateEvents,
	}, {
		name:        "malformed line in the middle",
		parts:       append(append(append([][]byte{}, lines[:30]...), []byte("{\"type\":\"user\",\"mess\n"), []byte("not json at all\n")), lines[30:]...),
		wantEvents:  stopGateEvents,
		wantSkipped: map[string]int{"malformed": 2},
	}, {
		name:    "malformed line in strict mode",
		parts:   append(append(append([][]byte{}, lines[:30]...), []byte("{\"type\":\"user\",\"mess\n")), lines[30:]...),
		strict:  true,
		wantErr: ":31: unexpected end of JSON input",
	}, {
		name:        "unknown line kinds",
		parts:       append(append(append([][]byte{}, lines[:30]...), []byte(`{"type":"hologram","sessionId":"x"}`+"\n"), []byte(`{"no":"type"}`+"\n")), lines[30:]...),
		wantEvents:  stopGateEvents,
		wantSkipped: map[string]int{"hologram": 1, "(no type)": 1},
	}, {
		name:        "truncated last line",
		parts:       append(append([][]byte{}, lines[:len(lines)-1]...), last[:len(last)/2]),
		wantEvents:  stopGateEvents,
		wantSkipped: map[string]int{"malformed": 1},
	}, {
		name: "truncated in the middle of a tool result",
		// Line 54 is the PermissionRequest call's result: the call gets its PreToolUse only.
		parts: append(append([][]byte{}, lines[:53]...), lines[53][:200]),
		wantEvents: []string{
			"SessionStart", "UserPromptSubmit",
			"PreToolUse:Bash", "PostToolUse:Bash", "PreToolUse:Read", "PostToolUse:Read",
			"PreToolUse:Edit", "PostToolUse:Edit", "PreToolUse:Write", "PostToolUse:Write", "Stop",
			"PreToolUse:Bash", "SessionEnd",
		},
		wantSkipped: map[string]int{"malformed": 1},
	}, {
		name:       "CRLF line endings and blank lines",
		parts:      [][]byte{bytes.ReplaceAll(bytes.Join(lines, []byte("\n")), []byte("\n"), []byte("\r\n"))},
		wantEvents: stopGateEvents,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeFile(t, filepath.Join(t.TempDir(), "s.jsonl"), tt.parts...)
			evs, st, err := transcript.ReadAll(path, transcript.Options{Strict: tt.strict})
			if tt.wantErr != "" {
				var le *transcript.LineError
				if err == nil || !errors.As(err, &le) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want a *LineError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantEvents, names(evs)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantSkipped, st.SkippedKinds); diff != "" {
				t.Errorf("skipped kinds (-want +got):\n%s", diff)
			}
			if (st.FirstMalformed != "") != (tt.wantSkipped["malformed"] > 0) {
				t.Errorf("FirstMalformed = %q with %d skipped", st.FirstMalformed, st.Skipped)
			}
		})
	}
}

func TestUnrecognisedFiles(t *testing.T) {
	t.Parallel()
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	tests := []struct {
		name    string
		content []byte
		want    error
	}{
		{"empty", nil, transcript.ErrEmpty},
		{"blank lines", []byte("\n  \n\t\r\n"), transcript.ErrEmpty},
		{"binary", binary, transcript.ErrUnrecognised},
		{"gzip header", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"), transcript.ErrUnrecognised},
		{"plain text", []byte("hello\nworld\n"), transcript.ErrUnrecognised},
		{"JSON array", []byte(`[{"type":"user"}]`), transcript.ErrUnrecognised},
		{"other JSONL", []byte(`{"level":"info","msg":"started"}` + "\n"), transcript.ErrUnrecognised},
		{"only malformed lines", []byte("{\"type\":\n{\n{\"a\n"), transcript.ErrUnrecognised},
		{"object with NUL", []byte("{\"type\":\"user\x00\"}\n"), transcript.ErrUnrecognised},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := writeFile(t, filepath.Join(t.TempDir(), "session.jsonl"), tt.content)
			r, err := transcript.Open(path, transcript.Options{})
			if err == nil {
				r.Close()
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want %v naming the file", err, tt.want)
			}
		})
	}
	if got := transcript.ErrUnrecognised.Error(); got != "not a recognised session format" {
		t.Errorf("ErrUnrecognised = %q", got)
	}
}

func TestOpenMissingFile(t *testing.T) {
	t.Parallel()
	_, err := transcript.Open(filepath.Join(t.TempDir(), "nope.jsonl"), transcript.Options{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want not exist", err)
	}
}

// TestMissingSubagentFile replays session-subagent without its subagents folder: the
// sub-agent still starts and stops, with nothing in between.
func TestMissingSubagentFile(t *testing.T) {
	t.Parallel()
	rec := recording(t, "session-subagent")
	path := writeFile(t, filepath.Join(t.TempDir(), rec.sessionID+".jsonl"), readLines(t, rec.transcript)...)
	evs, st, err := transcript.ReadAll(path, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.MissingSubagents != 1 || st.Files != 1 {
		t.Errorf("MissingSubagents = %d, Files = %d; want 1, 1", st.MissingSubagents, st.Files)
	}
	wantPaths := []string{filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents", "agent-ad5cb78b552f80f0a.jsonl")}
	if diff := cmp.Diff(wantPaths, st.MissingSubagentPaths); diff != "" {
		t.Errorf("MissingSubagentPaths (-want +got):\n%s", diff)
	}
	got := names(evs)[2:6]
	want := []string{"PreToolUse:Agent", "SubagentStart", "SubagentStop", "PostToolUse:Agent"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if a := evs[3].Input; a.AgentID != "ad5cb78b552f80f0a" || a.AgentType != "general-purpose" {
		t.Errorf("SubagentStart agent = %q %q", a.AgentID, a.AgentType)
	}
}

// TestStream reads a transcript from a stream with no path: no sub-agent lookup, and the
// transcript_path stays empty unless given.
func TestStream(t *testing.T) {
	t.Parallel()
	rec := recording(t, "session-unicode")
	data, err := os.ReadFile(rec.transcript)
	if err != nil {
		t.Fatal(err)
	}
	r, err := transcript.NewReader(bytes.NewReader(data), transcript.Options{TranscriptPath: "/t.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Input.TranscriptPath != "/t.jsonl" || ev.Index != n {
			t.Fatalf("event %d: %+v", n, ev)
		}
		n++
	}
	if n != 14 || r.Stats().Events != 14 {
		t.Errorf("%d events, stats %d; want 14", n, r.Stats().Events)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("Next after the end = %v, want io.EOF", err)
	}
}

// TestKinds checks the line counts against the shared sessions README for session-stop-gate.
func TestKinds(t *testing.T) {
	t.Parallel()
	rec := recording(t, "session-stop-gate")
	_, st, err := transcript.ReadAll(rec.transcript, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		"api-request": 8, "api-request-blob": 4, "api-request-shape": 1, "assistant/text": 3,
		"assistant/tool_use": 6, "atis-latch": 4, "attachment/agent_listing_delta": 1,
		"attachment/date": 1, "attachment/deferred_tools_delta": 1, "attachment/environment": 1,
		"attachment/hook_blocking_error": 1, "attachment/hook_permission_decision": 1,
		"attachment/model": 1, "attachment/prompt_snapshot": 2, "attachment/remote_session_change": 1,
		"attachment/session_context": 1, "attachment/skill_listing": 1, "cost-state": 1,
		"file-history-delta": 2, "file-history-snapshot": 1, "last-prompt": 4, "queue-operation": 2,
		"system/stop_hook_summary": 2, "tools-used": 4, "user/meta": 1, "user/prompt": 1,
		"user/tool_result": 6,
	}
	if diff := cmp.Diff(want, st.Kinds); diff != "" {
		t.Errorf("kinds (-README +got):\n%s", diff)
	}
	if st.Lines != 62 || st.ToolCalls != 6 || st.Events != 18 {
		t.Errorf("stats = %+v", st)
	}
}

// TestFieldsPerEvent spot-checks derived values that the ground-truth test compares only as
// a whole: the rewritten input on PostToolUse, the failure text, the compaction events.
func TestFieldsPerEvent(t *testing.T) {
	t.Parallel()
	evs, _, err := transcript.ReadAll(recording(t, "session-add-feature").transcript, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pre, post *hook.Input
	for _, ev := range evs {
		if ev.Input.ToolUseID == "toolu_fake_07_0" {
			if ev.Event == hook.PreToolUse {
				pre = ev.Input
			} else {
				post = ev.Input
			}
		}
	}
	if !strings.Contains(string(pre.ToolInput), "pytest -q tests") || !strings.Contains(string(post.ToolInput), "unittest discover") {
		t.Errorf("rewritten input: pre %s, post %s", pre.ToolInput, post.ToolInput)
	}
	evs, _, err = transcript.ReadAll(recording(t, "session-fix-failing-test").transcript, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := names(evs)[15:19]
	want := []string{"PreCompact", "SubagentStop", "SessionStart", "PostCompact"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("compaction (-want +got):\n%s", diff)
	}
	if evs[17].Input.Source != "compact" || evs[15].Input.Trigger != "manual" ||
		!strings.HasPrefix(string(evs[18].Input.Extra["compact_summary"]), `"This session is being continued`) {
		t.Errorf("compaction inputs: %+v %+v %+v", evs[15].Input, evs[17].Input, evs[18].Input)
	}
	if f := evs[3].Input; f.HookEventName != "PostToolUseFailure" || !strings.HasPrefix(f.Error, "Exit code 1\n") {
		t.Errorf("failure = %+v", f)
	}
}

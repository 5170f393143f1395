package transcript_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/transcript"
)

const sessionLog = `{"format":"hookcore-session-log","version":1,"session_id":"s1","agent":"hookcore-agent","time":"2026-11-30T07:00:00Z"}
{"event":"SessionStart","time":"2026-11-30T07:00:00Z","input":{"session_id":"s1","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}}
{"event":"pre_tool_use","time":"2026-11-30T07:00:01.5Z","input":{"session_id":"s1","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1","model":"m"},"result":{"event":"PreToolUse","blocked":false,"continue":true,"hooks":[]}}
{"event":"Hologram","time":"2026-11-30T07:00:02Z","input":{"session_id":"s1"}}
{"event":"PostToolUse","input":{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\n"},"tool_use_id":"t1"}}
{"event":"Stop","input":"not an object"}
{"event":"Stop","time":"2026-11-30T07:00:03Z","input":{"session_id":"s1","stop_hook_active":false}}
`

func TestSessionLog(t *testing.T) {
	t.Parallel()
	// The file name says nothing: the format is detected from the content.
	path := writeFile(t, filepath.Join(t.TempDir(), "whatever.txt"), []byte(sessionLog))
	evs, st, err := transcript.ReadAll(path, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"SessionStart", "PreToolUse:Bash", "PostToolUse:Bash", "Stop"}, names(evs)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	pre := evs[1]
	if pre.Input.HookEventName != "PreToolUse" || pre.Index != 1 || pre.Line != 3 ||
		!pre.Time.Equal(time.Date(2026, 11, 30, 7, 0, 1, 5e8, time.UTC)) ||
		string(pre.Input.Extra["model"]) != `"m"` || len(pre.Result) == 0 || evs[2].Result != nil {
		t.Errorf("PreToolUse event = %+v, input %+v", pre, pre.Input)
	}
	want := transcript.Stats{
		Format: transcript.SessionLog, Files: 1, Lines: 7, Events: 4, ToolCalls: 1,
		Kinds:          map[string]int{"header": 1, "SessionStart": 1, "PreToolUse": 1, "Hologram": 1, "PostToolUse": 1, "Stop": 1},
		Skipped:        2,
		SkippedKinds:   map[string]int{"Hologram": 1, "malformed": 1},
		FirstMalformed: path + ":6",
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}

	_, _, err = transcript.ReadAll(path, transcript.Options{Strict: true})
	var le *transcript.LineError
	if !errors.As(err, &le) || le.Line != 6 || le.File != path {
		t.Errorf("strict: err = %v, want a *LineError at line 6", err)
	}
}

// TestSessionLogWithoutHeader detects a log by its first entry.
func TestSessionLogWithoutHeader(t *testing.T) {
	t.Parallel()
	path := writeFile(t, filepath.Join(t.TempDir(), "log.jsonl"),
		[]byte(`{"event":"UserPromptSubmit","input":{"prompt":"hi","transcript_path":"/orig"}}`))
	evs, st, err := transcript.ReadAll(path, transcript.Options{})
	if err != nil || st.Format != transcript.SessionLog || len(evs) != 1 || evs[0].Input.Prompt != "hi" ||
		evs[0].Input.TranscriptPath != "/orig" {
		t.Fatalf("evs %v, stats %+v, err %v", evs, st, err)
	}
	evs, _, err = transcript.ReadAll(path, transcript.Options{TranscriptPath: "/new"})
	if err != nil || evs[0].Input.TranscriptPath != "/new" {
		t.Fatalf("TranscriptPath option not applied: %v %v", evs, err)
	}
}

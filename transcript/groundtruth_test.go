package transcript_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/transcript"
)

// sessionsDir holds the recorded Claude Code sessions, in Claude Code's own layout.
const sessionsDir = "../sessions"

var sessionFile = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f-]{27}\.jsonl$`)

// recorded is one recorded session: its main transcript and its ground truth.
type recorded struct {
	name, transcript, hooks, sessionID string
}

func recordings(t testing.TB) []recorded {
	t.Helper()
	dirs, err := os.ReadDir(sessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []recorded
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join(sessionsDir, d.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		rec := recorded{name: d.Name(), hooks: filepath.Join(dir, d.Name()+".hooks.jsonl")}
		for _, f := range files {
			if sessionFile.MatchString(f.Name()) {
				rec.transcript = filepath.Join(dir, f.Name())
				rec.sessionID = strings.TrimSuffix(f.Name(), ".jsonl")
			}
		}
		if rec.transcript == "" {
			t.Fatalf("%s: no <session-id>.jsonl", dir)
		}
		out = append(out, rec)
	}
	if len(out) != 7 {
		t.Fatalf("found %d recorded sessions, want 7", len(out))
	}
	return out
}

// unknowable are the input fields a transcript does not record (docs/transcript.md); they
// are left out of both sides of the comparison.
var unknowable = []string{"duration_ms", "permission_suggestions", "background_tasks", "session_crons"}

// normalise removes what a transcript cannot know from one hook input (as a map) and
// returns it.
func normalise(m map[string]any) map[string]any {
	for _, k := range unknowable {
		delete(m, k)
	}
	switch m["hook_event_name"] {
	case "SubagentStop":
		if m["agent_type"] == "" { // the compaction fork: not in any transcript
			delete(m, "agent_id")
			delete(m, "agent_transcript_path")
			delete(m, "last_assistant_message")
		}
	case "PostCompact":
		delete(m, "compact_summary") // the transcript has the rendered summary only
	case "PostToolUse":
		if _, ok := m["agent_id"]; ok { // sub-agent transcripts have no toolUseResult
			delete(m, "tool_response")
		}
	}
	return m
}

// sortParallelPre orders each run of consecutive PreToolUse events by tool_use_id: Claude
// Code starts the PreToolUse hooks of parallel calls at the same moment, so their recorded
// order is a race (session-add-feature has B before A).
func sortParallelPre(ms []map[string]any) {
	for i := 0; i < len(ms); {
		j := i
		for j < len(ms) && ms[j]["hook_event_name"] == "PreToolUse" {
			j++
		}
		if j-i > 1 {
			run := ms[i:j]
			sort.SliceStable(run, func(a, b int) bool {
				return run[a]["tool_use_id"].(string) < run[b]["tool_use_id"].(string)
			})
		}
		if j == i {
			j++
		}
		i = j
	}
}

func readGroundTruth(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var out []map[string]any
	for {
		line, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out = append(out, normalise(m))
		}
		if err != nil {
			break
		}
	}
	return out
}

// TestGroundTruth replays every recorded session and compares the derived events, in order,
// with the hook inputs the real Claude Code 2.1.332 sent: every field, compared as JSON
// values, except the unknowable ones above.
func TestGroundTruth(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		t.Run(rec.name, func(t *testing.T) {
			t.Parallel()
			opts := transcript.Options{
				TranscriptPath: "/home/dev/.claude/projects/-home-dev-project/" + rec.sessionID + ".jsonl",
			}
			events, stats, err := transcript.ReadAll(rec.transcript, opts)
			if err != nil {
				t.Fatal(err)
			}
			if stats.Format != transcript.ClaudeCode || stats.Skipped != 0 || stats.Orphans != 0 {
				t.Errorf("stats = %+v", stats)
			}
			var got []map[string]any
			for i, ev := range events {
				if ev.Index != i || string(ev.Event) != ev.Input.HookEventName {
					t.Errorf("event %d: Index %d, Event %q, hook_event_name %q", i, ev.Index, ev.Event, ev.Input.HookEventName)
				}
				data, err := json.Marshal(ev.Input)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(data, &m); err != nil {
					t.Fatal(err)
				}
				got = append(got, normalise(m))
			}
			want := readGroundTruth(t, rec.hooks)
			sortParallelPre(got)
			sortParallelPre(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("events differ from %s (-real +replayed):\n%s", rec.hooks, diff)
			}
		})
	}
}

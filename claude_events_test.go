package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
)

// TestClaudeEventsSettingsLoad: a Claude Code settings file with one hook on each of the 31
// events of Claude Code 2.1.x loads whole, and each event the real CLI fired in the
// scenario runs its hook. Scenario testdata/claude/events, observed with Claude Code
// 2.1.332 (../shared/peer-claude/run-scenario.sh testdata/claude/events): the hooks append
// the event's name to fired.log; observed.json holds the real run's fired.log.
func TestClaudeEventsSettingsLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	settings, err := os.ReadFile(filepath.Join("testdata", "claude", "events", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var observed struct{ Fired []string }
	readJSON(t, filepath.Join("testdata", "claude", "events", "observed.json"), &observed)

	set := loadConfig(t, dir, ".claude/settings.json", string(settings))
	r := newRunner(t, dir, set, hookcore.Options{})
	if n := len(set.Files[0].Hooks); n != 31 {
		t.Errorf("%d hooks loaded, want 31 (one per event)", n)
	}
	for _, name := range observed.Fired {
		ev, ok := hook.ParseEvent(name)
		if !ok {
			t.Fatalf("%s is not a known event", name)
		}
		in := &hook.Input{SessionID: "s1", Cwd: dir}
		if ev.MatchField() == "tool_name" {
			in.ToolName, in.ToolInput = "Bash", json.RawMessage(`{"command":"echo a"}`)
		}
		res := r.Fire(context.Background(), ev, in)
		if len(res.Hooks) != 1 || res.Hooks[0].Outcome != hook.OutcomeOK {
			t.Errorf("%s: records %+v", name, res.Hooks)
		}
	}
	got := strings.Fields(readFile(t, dir, "fired.log"))
	if d := cmp.Diff(observed.Fired, got); d != "" {
		t.Errorf("fired.log (-real Claude Code +hookcore):\n%s", d)
	}
}

// readJSON decodes the JSON file at path into v.
func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

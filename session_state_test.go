package hookcore_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// TestOnceSurvivesReload: a once hook that ran in a session stays spent after Runner.Reload
// (issue 13 item 3). Regression: the once map lived in the compiled hook, which Reload
// swaps, so the hook ran again in the same session.
func TestOnceSurvivesReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const conf = `hooks:
  - {id: hello, event: session_start, once: true, action: {type: inject, message: hello}}
`
	r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", conf), hookcore.Options{})
	in := &hook.Input{SessionID: "s1", Cwd: dir, Source: "startup"}
	var got []string
	got = append(got, outcomes(r.Fire(context.Background(), hook.SessionStart, in))...)
	if err := r.Reload(loadConfig(t, dir, "hooks.yaml", conf)); err != nil {
		t.Fatal(err)
	}
	got = append(got, outcomes(r.Fire(context.Background(), hook.SessionStart, in))...)
	other := &hook.Input{SessionID: "s2", Cwd: dir, Source: "startup"}
	got = append(got, outcomes(r.Fire(context.Background(), hook.SessionStart, other))...)
	if diff := cmp.Diff([]string{"hello=context", "hello=skipped", "hello=context"}, got); diff != "" {
		t.Errorf("outcomes across a reload (-want +got):\n%s", diff)
	}
}

// TestStopStreakSurvivesReload: the Stop-block streak is per session state too, counted
// across a Reload, and kept in the store Options.State names.
func TestStopStreakSurvivesReload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const conf = `hooks:
  - {id: more, event: stop, action: {type: func, name: block}}
`
	block := func(context.Context, *hook.Input) (hook.Decision, error) {
		return hook.Decision{Block: true, Reason: "keep going"}, nil
	}
	st := &state.Memory{}
	opts := hookcore.Options{Funcs: map[string]hook.ExecutorFunc{"block": block}, StopBlockLimit: 2, State: st}
	r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", conf), opts)
	in := &hook.Input{SessionID: "s1", Cwd: dir}
	var got []bool
	got = append(got, r.Fire(context.Background(), hook.Stop, in).Blocked)
	if err := r.Reload(loadConfig(t, dir, "hooks.yaml", conf)); err != nil {
		t.Fatal(err)
	}
	got = append(got, r.Fire(context.Background(), hook.Stop, in).Blocked)
	if s := st.Get("s1"); s.Stops != 2 {
		t.Errorf("store streak = %d, want 2", s.Stops)
	}
	got = append(got, r.Fire(context.Background(), hook.Stop, in).Blocked)
	if diff := cmp.Diff([]bool{true, true, false}, got); diff != "" {
		t.Errorf("blocked per stop (-want +got):\n%s", diff)
	}
}

package harness_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/transcript"
)

// TestSessionLogReplays writes a session log with the agent, reads it back with
// transcript.Open and fires every event through a fresh Runner of the same config: the
// events, inputs and decisions are the recorded ones.
func TestSessionLogReplays(t *testing.T) {
	t.Parallel()
	rg := newRig(t, setup{yaml: goldenHooks, script: goldenScript})
	ctx := context.Background()
	rg.h.Startup(ctx, rg.ws)
	if err := rg.s.Run(ctx, "Tidy up."); err != nil {
		t.Fatal(err)
	}
	rg.h.Shutdown(ctx, rg.ws)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, rg.log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := transcript.Open(path, transcript.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if f := r.Stats().Format; f != transcript.SessionLog {
		t.Fatalf("format = %q", f)
	}
	// The replay runs in a copy of the workspace as it was before the session.
	cfg := filepath.Join(t.TempDir(), "hooks.yaml")
	os.WriteFile(cfg, []byte(goldenHooks), 0o644)
	set, errs := config.Load([]config.LayerPath{{Path: cfg, Layer: config.Explicit}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	runner, err := hookcore.New(set, hookcore.Options{ProjectDir: rg.ws})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close(ctx)
	os.Remove(filepath.Join(rg.ws, "fixed.txt")) // the state PostStopValidation first saw
	logged := rg.entries()
	i := 0
	for ; ; i++ {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want := logged[i]
		if string(ev.Event) != want.Event {
			t.Fatalf("event %d = %s, want %s", i, ev.Event, want.Event)
		}
		got, _ := ev.Input.MarshalJSON()
		if !bytes.Equal(got, want.Input) {
			t.Errorf("event %d input:\n got %s\nwant %s", i, got, want.Input)
		}
		if ev.Event == hook.PostStopValidation && i > 30 {
			os.WriteFile(filepath.Join(rg.ws, "fixed.txt"), []byte("ok"), 0o644)
		}
		res := runner.Fire(ctx, ev.Event, ev.Input)
		wantRes := result{}
		if want.Result != nil {
			wantRes = *want.Result
		}
		type decision struct {
			Blocked        bool
			Reason, Perm   string
			Context, Input string
		}
		upd := string(res.UpdatedInput)
		wantUpd := string(wantRes.UpdatedInput)
		if wantUpd == "null" {
			wantUpd = ""
		}
		gotD := decision{res.Blocked, res.Reason, res.Permission.String(), res.AdditionalContext, upd}
		wantD := decision{wantRes.Blocked, wantRes.Reason, wantRes.Permission, wantRes.AdditionalContext, wantUpd}
		if diff := cmp.Diff(wantD, gotD); diff != "" {
			t.Errorf("event %d %s decision (-recorded +replayed):\n%s", i, ev.Event, diff)
		}
	}
	if i != len(logged) {
		t.Errorf("read %d events, logged %d", i, len(logged))
	}
}

//go:build !hookcore_lean

package cli

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/hooktest"
	"github.com/hookcore/hookcore/trust"
)

func fakeTerminal(in io.Reader, out io.Writer) terminal {
	return func() (io.Reader, io.Writer, error) { return in, out, nil }
}

var (
	guard   = hookcore.HookInfo{ID: "guard", Type: "command", Event: hook.PreToolUse, Target: "./guard.sh", Source: "/w/.hookcore/hooks.yaml:3"}
	webhook = hookcore.HookInfo{ID: "notify", Type: "http", Event: hook.PostToolUse, Target: "https://hooks.example.com/x", Source: "/w/.hookcore/hooks.yaml:9"}
	judge   = hookcore.HookInfo{ID: "judge", Type: "prompt", Event: hook.PreToolUse, Target: "Is this safe?\n$ARGUMENTS", Source: "/w/.hookcore/hooks.yaml:14"}
)

func TestAskApprover(t *testing.T) {
	t.Parallel()
	store := trust.DefaultStore(t.TempDir())
	var out hooktest.Buffer
	a := newAskApprover(store, "/w", fakeTerminal(strings.NewReader("y\nNo\nalways\n"), &out))
	ctx := context.Background()
	var got []bool
	for _, h := range []hookcore.HookInfo{guard, webhook, judge, guard, webhook, judge} {
		ok, err := a.Approve(ctx, h)
		if err != nil {
			t.Fatalf("Approve(%s): %v", h.ID, err)
		}
		got = append(got, ok)
	}
	if d := cmp.Diff([]bool{true, false, true, true, false, true}, got); d != "" {
		t.Errorf("answers (-want +got):\n%s", d)
	}
	text := out.String()
	if n := strings.Count(text, "Run it?"); n != 3 {
		t.Errorf("asked %d times, want 3 (once per distinct hook):\n%s", n, text)
	}
	for _, want := range []string{
		`hook "guard" wants to run on PreToolUse`, "type:   command", "runs:   ./guard.sh", "from:   .hookcore/hooks.yaml:3",
		"runs:   Is this safe? $ARGUMENTS", "a = always (remember)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("questions lack %q:\n%s", want, text)
		}
	}

	// "always" was remembered: a new process approves judge without asking, and deny-new
	// lets judge through but not the others.
	var out2 hooktest.Buffer
	b := newAskApprover(store, "/w", fakeTerminal(strings.NewReader(""), &out2))
	if ok, err := b.Approve(ctx, judge); !ok || err != nil || out2.String() != "" {
		t.Errorf("remembered hook: %v, %v, asked %q", ok, err, out2.String())
	}
	deny := storeApprover{store}
	if ok, err := deny.Approve(ctx, judge); !ok || err != nil {
		t.Errorf("deny-new on an approved hook: %v, %v", ok, err)
	}
	changed := judge
	changed.Target = "Is this safe? (edited)"
	for _, h := range []hookcore.HookInfo{guard, changed} {
		if ok, err := deny.Approve(ctx, h); ok || err == nil || !strings.Contains(err.Error(), "not approved before") {
			t.Errorf("deny-new on %s: %v, %v", h.Target, ok, err)
		}
	}
	// End of input is a no.
	if ok, err := b.Approve(ctx, guard); ok || err != nil {
		t.Errorf("end of input: %v, %v", ok, err)
	}
}

func TestAskApproverNoTerminal(t *testing.T) {
	t.Parallel()
	a := newAskApprover(nil, "/w", func() (io.Reader, io.Writer, error) { return nil, nil, errors.New("no terminal to ask on") })
	for range 2 {
		if ok, err := a.Approve(context.Background(), guard); ok || err == nil || !strings.Contains(err.Error(), "no terminal") {
			t.Errorf("Approve = %v, %v", ok, err)
		}
	}
}

func TestAskApproverCancelled(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	var out hooktest.Buffer
	a := newAskApprover(nil, "/w", fakeTerminal(pr, &out))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if ok, err := a.Approve(ctx, guard); ok || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("unanswered: %v, %v", ok, err)
	}
	// The pending read takes the next line, for the next question.
	go pw.Write([]byte("y\n"))
	if ok, err := a.Approve(context.Background(), guard); !ok || err != nil {
		t.Errorf("answered later: %v, %v", ok, err)
	}
	if strings.Contains(out.String(), "a = always") {
		t.Error("offered always without a store")
	}
}

// TestApproverInRunner: a denied guard on a gate event blocks with "hook not approved".
func TestApproverInRunner(t *testing.T) {
	t.Parallel()
	r, err := hookcore.New(nil, hookcore.Options{
		ProjectDir: t.TempDir(),
		Approver:   newAskApprover(nil, "/w", fakeTerminal(strings.NewReader("n\n"), io.Discard)),
		Callbacks: []hookcore.Callback{{ID: "cb", Event: hook.PreToolUse,
			Func: func(context.Context, *hook.Input) (hook.Decision, error) { return hook.Decision{}, nil }}},
	})
	if err != nil {
		t.Fatal(err)
	}
	res := r.Fire(context.Background(), hook.PreToolUse, &hook.Input{ToolName: "Bash"})
	if !res.Blocked || !strings.Contains(res.Reason, "hook not approved") {
		t.Errorf("result: blocked %v, reason %q", res.Blocked, res.Reason)
	}
}

func TestApproveModes(t *testing.T) {
	t.Parallel()
	e := &env{home: t.TempDir(), cwd: "/w", stdin: strings.NewReader(""), stderr: io.Discard}
	for mode, want := range map[string]string{"": "<nil>", "off": "<nil>", "ask": "*cli.askApprover", "deny-new": "cli.storeApprover"} {
		a, err := e.approver(&approveFlags{mode: mode})
		if err != nil {
			t.Fatalf("mode %q: %v", mode, err)
		}
		if got := typeName(a); got != want {
			t.Errorf("mode %q: %s, want %s", mode, got, want)
		}
	}
	if _, err := e.approver(&approveFlags{mode: "yes"}); err == nil || !strings.Contains(err.Error(), `unknown --approve mode "yes"`) {
		t.Errorf("bad mode: %v", err)
	}
	noHome := &env{cwd: "/w"}
	if _, err := noHome.approver(&approveFlags{mode: "deny-new"}); err == nil {
		t.Error("deny-new without a home directory succeeded")
	}
}

func typeName(a hookcore.Approver) string {
	switch a.(type) {
	case nil:
		return "<nil>"
	case *askApprover:
		return "*cli.askApprover"
	case storeApprover:
		return "cli.storeApprover"
	}
	return "?"
}

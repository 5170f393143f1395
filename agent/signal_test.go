package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// blockTool blocks until its context is done, after creating the file named by
// AGENT_SIGNAL_READY.
type blockTool struct{ echoTool }

func (blockTool) Name() string { return "Block" }
func (blockTool) Run(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
	os.WriteFile(os.Getenv("AGENT_SIGNAL_READY"), nil, 0o644)
	<-ctx.Done()
	return nil, ctx.Err()
}

// signalHelper is the child process of TestSignals: a session whose tool blocks until a
// signal arrives; it writes each moment to stdout.
func signalHelper() {
	ctx, stop := agent.NotifyContext(context.Background())
	defer stop()
	obs := agent.ObserverFunc(func(ctx context.Context, ev *agent.Event) agent.Verdict {
		fmt.Printf("%s %s\n", ev.Moment, ev.Reason)
		if ev.Moment == hook.SessionEnd && ctx.Err() != nil {
			fmt.Println("SessionEnd saw a cancelled context")
		}
		return agent.Verdict{}
	})
	turns := agent.ModelFunc(func(ctx context.Context, _ *agent.Request) (agent.Reply, error) {
		return agent.Reply{ToolCalls: []tool.Call{{Name: "Block", Input: json.RawMessage(`{}`)}}}, nil
	})
	s, _ := agent.New(agent.Options{Model: turns, Observer: obs, Tools: []agent.Tool{blockTool{}}})
	err := s.Run(ctx, "wait")
	fmt.Println("exit:", err)
}

func TestSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			ready := filepath.Join(t.TempDir(), "ready")
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "AGENT_SIGNAL_HELPER=1", "AGENT_SIGNAL_READY="+ready)
			var out strings.Builder
			cmd.Stdout = &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatal("the helper never reached its tool")
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				if err != nil && !errors.As(err, &ee) {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatal("the helper did not exit")
			}
			reason := map[syscall.Signal]string{syscall.SIGINT: "sigint", syscall.SIGTERM: "sigterm"}[sig]
			if !strings.Contains(out.String(), "SessionEnd "+reason+"\n") {
				t.Errorf("output lacks SessionEnd %s:\n%s", reason, out.String())
			}
			if strings.Contains(out.String(), "cancelled context") {
				t.Errorf("SessionEnd ran on the cancelled context (no grace period):\n%s", out.String())
			}
		})
	}
}

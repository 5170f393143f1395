package hookcore_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// TestMain checks that no test leaves a goroutine behind: async hooks, parallel hooks and
// the process plumbing of command hooks must all be done when Fire or Close returns.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// writeFile writes content to dir/name, or to name when it is absolute (creating parent
// directories), and returns the path.
// A name ending in ".sh" is made executable.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, name)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := os.FileMode(0o644)
	if strings.HasSuffix(name, ".sh") {
		mode = 0o755
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadConfig writes one config file into dir and loads it as an explicit layer; any config
// problem fails the test.
func loadConfig(t testing.TB, dir, name, content string) *config.Set {
	t.Helper()
	return loadLayers(t, dir, layerFile{name, config.Explicit, content})
}

type layerFile struct {
	name    string
	layer   config.Layer
	content string
}

// loadLayers writes each file into dir and loads them in order with config.Load.
func loadLayers(t testing.TB, dir string, files ...layerFile) *config.Set {
	t.Helper()
	var paths []config.LayerPath
	for _, f := range files {
		paths = append(paths, config.LayerPath{Path: writeFile(t, dir, f.name, f.content), Layer: f.layer})
	}
	set, errs := config.Load(paths)
	if err := errs.Err(); err != nil {
		t.Fatalf("config.Load: %v", err)
	}
	return set
}

// newRunner builds a Runner for set whose project dir is dir, and closes it when the test
// ends (waiting for its async hooks).
func newRunner(t testing.TB, dir string, set *config.Set, opts hookcore.Options) *hookcore.Runner {
	t.Helper()
	if opts.ProjectDir == "" {
		opts.ProjectDir = dir
	}
	r, err := hookcore.New(set, opts)
	if err != nil {
		t.Fatalf("hookcore.New: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := r.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return r
}

// bashCall is a tool-event input for the Bash tool with the given command, run in dir.
func bashCall(dir, session, command string) *hook.Input {
	args, _ := json.Marshal(map[string]string{"command": command})
	return &hook.Input{SessionID: session, Cwd: dir, ToolName: "Bash", ToolInput: args}
}

// readFile returns the content of dir/name, or "" when it does not exist.
func readFile(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// outcomes lists the records of res as "id=outcome", in order.
func outcomes(res hook.Result) []string {
	var out []string
	for _, h := range res.Hooks {
		out = append(out, h.ID+"="+h.Outcome.String())
	}
	return out
}

// summary is the part of a Result most tests compare.
type summary struct {
	Blocked      bool
	Reason       string
	Permission   string
	Context      string
	UpdatedInput string
	Continue     bool
	StopReason   string
	SystemMsg    string
	Errors       int
	Hooks        []string
}

func summarize(res hook.Result) summary {
	return summary{
		Blocked: res.Blocked, Reason: res.Reason, Permission: res.Permission.String(),
		Context: res.AdditionalContext, UpdatedInput: string(res.UpdatedInput),
		Continue: res.Continue, StopReason: res.StopReason, SystemMsg: res.SystemMessage,
		Errors: res.Errors, Hooks: outcomes(res),
	}
}

// fn adapts a function returning a Decision to hook.ExecutorFunc.
func fn(d hook.Decision) hook.ExecutorFunc {
	return func(context.Context, *hook.Input) (hook.Decision, error) { return d, nil }
}

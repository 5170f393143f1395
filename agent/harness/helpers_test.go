package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/agent"
	"github.com/hookcore/hookcore/agent/harness"
	"github.com/hookcore/hookcore/agent/tools"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/hooktest"
	"github.com/hookcore/hookcore/model"
	"github.com/hookcore/hookcore/tool"
)

// rig is one agent session wired to a Runner, with everything a test looks at.
type rig struct {
	t        *testing.T
	ws       string
	s        *agent.Session
	h        *harness.Harness
	r        *hookcore.Runner
	log      *hooktest.Buffer
	mu       sync.Mutex
	requests []*agent.Request
}

type setup struct {
	yaml      string              // a hooks config (MiniCode YAML or any dialect); "" none
	callbacks []hookcore.Callback // Go hooks
	script    string              // the scripted model's turns (JSON)
	files     map[string]string   // workspace files
	// frontmatter are workspace files (skills, agents) whose frontmatter hooks load too
	frontmatter []string
	opts        func(*agent.Options)
}

// newRig builds the session; the workspace is a temporary directory.
func newRig(t *testing.T, st setup) *rig {
	t.Helper()
	ws := t.TempDir()
	ws, _ = filepath.EvalSymlinks(ws)
	for name, content := range st.files {
		p := filepath.Join(ws, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var set *config.Set
	var paths []config.LayerPath
	if st.yaml != "" {
		cfg := filepath.Join(t.TempDir(), "hooks.yaml")
		if err := os.WriteFile(cfg, []byte(st.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, config.LayerPath{Path: cfg, Layer: config.Explicit})
	}
	for _, rel := range st.frontmatter {
		paths = append(paths, config.LayerPath{Path: filepath.Join(ws, rel), Layer: config.User})
	}
	if len(paths) > 0 {
		var errs config.ErrorList
		set, errs = config.Load(paths)
		if err := errs.Err(); err != nil {
			t.Fatal(err)
		}
	}
	rg := &rig{t: t, ws: ws, log: &hooktest.Buffer{}}
	var sess *agent.Session
	r, err := hookcore.New(set, hookcore.Options{ProjectDir: ws, Callbacks: st.callbacks,
		AgentRunner: agentRunnerFunc(func(ctx context.Context, p string) (string, error) {
			return harness.AgentRunner(sess).Run(ctx, p)
		})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	turns, err := model.ParseScript([]byte(st.script))
	if err != nil {
		t.Fatal(err)
	}
	m := model.NewScripted(turns...)
	m.Requests = func(req *agent.Request) {
		rg.mu.Lock()
		rg.requests = append(rg.requests, req)
		rg.mu.Unlock()
	}
	h := harness.New(harness.Options{Runner: r, Log: rg.log, TranscriptPath: "/logs/s-test.jsonl"})
	opts := agent.Options{
		Model: m, Tools: tools.All(tools.Workspace{Root: ws}), Observer: h,
		Middleware: []tool.Middleware{h.Middleware()}, SessionID: "s-test", Workspace: ws,
		System: "You are a test agent.", Tasks: true, Subagents: true,
	}
	if st.opts != nil {
		st.opts(&opts)
	}
	s, err := agent.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	sess = s
	rg.s, rg.h, rg.r = s, h, r
	return rg
}

type agentRunnerFunc func(ctx context.Context, prompt string) (string, error)

func (f agentRunnerFunc) Run(ctx context.Context, prompt string) (string, error) {
	return f(ctx, prompt)
}

// entry is one session-log line.
type entry struct {
	Event  string          `json:"event"`
	Input  json.RawMessage `json:"input"`
	Result *result         `json:"result"`
	in     hook.Input
}

// result is the part of a logged hook.Result the tests read.
type result struct {
	Blocked           bool            `json:"blocked"`
	Reason            string          `json:"reason"`
	Permission        string          `json:"permission"`
	AdditionalContext string          `json:"additional_context"`
	UpdatedInput      json.RawMessage `json:"updated_input"`
	Hooks             []hook.Record   `json:"hooks"`
}

// entries parses the session log (without its header).
func (rg *rig) entries() []entry {
	rg.t.Helper()
	var out []entry
	for _, line := range bytes.Split(bytes.TrimSpace(rg.log.Bytes()), []byte("\n")) {
		if bytes.Contains(line, []byte(`"format":"hookcore-session-log"`)) {
			continue
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			rg.t.Fatalf("log line %s: %v", line, err)
		}
		if err := json.Unmarshal(e.Input, &e.in); err != nil {
			rg.t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// events returns the event names of the log, in order.
func (rg *rig) events() []string {
	var out []string
	for _, e := range rg.entries() {
		out = append(out, e.Event)
	}
	return out
}

// of returns the log entries of one event.
func (rg *rig) of(event string) []entry {
	var out []entry
	for _, e := range rg.entries() {
		if e.Event == event {
			out = append(out, e)
		}
	}
	return out
}

// toolResults returns the tool messages of the conversation, by call id.
func (rg *rig) toolResults() map[string]agent.Message {
	out := map[string]agent.Message{}
	for _, m := range rg.s.Messages() {
		if m.Role == agent.RoleTool {
			out[m.ToolCallID] = m
		}
	}
	return out
}

func (rg *rig) reqs() []*agent.Request {
	rg.mu.Lock()
	defer rg.mu.Unlock()
	return append([]*agent.Request(nil), rg.requests...)
}

// cb is a Go hook.
func cb(event hook.Event, matcher string, f func(in *hook.Input) hook.Decision) hookcore.Callback {
	return hookcore.Callback{ID: "cb-" + strings.ToLower(string(event)), Event: event, Matcher: matcher,
		Func: func(_ context.Context, in *hook.Input) (hook.Decision, error) { return f(in), nil }}
}

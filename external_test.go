package hookcore_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
)

// webhook is a loopback receiver: /block answers a block envelope, /boom a 500.
func webhook(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/block":
			io.WriteString(w, `{"decision": "block", "reason": "the webhook says no"}`)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		default:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

type judgeModel string

func (m judgeModel) Complete(context.Context, string, string) (string, error) { return string(m), nil }

func TestExternalExecutors(t *testing.T) {
	t.Parallel()
	srv := webhook(t)
	hookYAML := func(action string, extra ...string) string {
		return "hooks:\n  - id: ext\n    event: pre_tool_use\n    matcher: Bash\n    action: " + action + "\n" + strings.Join(extra, "")
	}
	models := func(name string) (executor.Model, error) {
		switch name {
		case "nokey":
			return nil, errors.New("model openai:gpt-4o: api key not set: set OPENAI_API_KEY")
		case "allow":
			return judgeModel(`{"ok": true}`), nil
		}
		return judgeModel("```json\n{\"ok\": false, \"reason\": \"the judge says no\"}\n```"), nil
	}
	agent := executor.AgentRunnerFunc(func(context.Context, string) (string, error) {
		return `Checked. {"ok": false, "reason": "the sub-agent says no"}`, nil
	})
	tests := []struct {
		name   string
		config string
		opts   hookcore.Options
		want   summary
		errSub string // substring of the hook's record error
	}{
		{"http global allowlist", hookYAML(`{type: http, url: "` + srv.URL + `/block"}`),
			hookcore.Options{AllowedHosts: []string{"127.0.0.1"}},
			summary{Blocked: true, Reason: "the webhook says no", Continue: true, Hooks: []string{"ext=block"}}, ""},
		{"http hook allowlist", hookYAML(`{type: http, url: "` + srv.URL + `/block", allowed_hosts: ["127.0.0.0/8"]}`),
			hookcore.Options{},
			summary{Blocked: true, Reason: "the webhook says no", Continue: true, Hooks: []string{"ext=block"}}, ""},
		{"http loopback refused", hookYAML(`{type: http, url: "` + srv.URL + `/block"}`),
			hookcore.Options{},
			summary{Continue: true, Errors: 1, Hooks: []string{"ext=error"}}, "loopback address"},
		{"http redirect to metadata refused", hookYAML(`{type: http, url: "` + srv.URL + `/to-metadata"}`),
			hookcore.Options{AllowedHosts: []string{"127.0.0.1"}},
			summary{Continue: true, Errors: 1, Hooks: []string{"ext=error"}}, "cloud metadata"},
		{"http 500 fails open", hookYAML(`{type: http, url: "` + srv.URL + `/boom"}`),
			hookcore.Options{AllowedHosts: []string{"127.0.0.1"}},
			summary{Continue: true, Errors: 1, Hooks: []string{"ext=error"}}, "500 Internal Server Error"},
		{"http 500 fails closed", hookYAML(`{type: http, url: "`+srv.URL+`/boom"}`, "    on_error: block\n"),
			hookcore.Options{AllowedHosts: []string{"127.0.0.1"}},
			summary{Blocked: true, Reason: `guard hook "ext" failed, so the action is blocked (on_error: block): http hook "ext": 500 Internal Server Error`,
				Continue: true, Errors: 1, Hooks: []string{"ext=block"}}, "500"},
		{"prompt blocks", hookYAML(`{type: prompt, prompt: "Is this safe? $ARGUMENTS"}`),
			hookcore.Options{Models: models},
			summary{Blocked: true, Reason: "the judge says no", Continue: true, Hooks: []string{"ext=block"}}, ""},
		{"prompt allows", hookYAML(`{type: prompt, prompt: "Is this safe?", model: allow}`),
			hookcore.Options{Models: models},
			summary{Continue: true, Hooks: []string{"ext=ok"}}, ""},
		{"prompt without key", hookYAML(`{type: prompt, prompt: "Is this safe?", model: nokey}`),
			hookcore.Options{Models: models},
			summary{Continue: true, Errors: 1, Hooks: []string{"ext=error"}}, "api key not set"},
		{"prompt without resolver", hookYAML(`{type: prompt, prompt: "Is this safe?"}`),
			hookcore.Options{},
			summary{Continue: true, Errors: 1, Hooks: []string{"ext=error"}}, "no model configured"},
		{"agent blocks", hookYAML(`{type: agent, prompt: "Review $TOOL_ARGS.command"}`),
			hookcore.Options{AgentRunner: agent},
			summary{Blocked: true, Reason: "the sub-agent says no", Continue: true, Hooks: []string{"ext=block"}}, ""},
		{"agent without runner is skipped", hookYAML(`{type: agent, prompt: "Review"}`),
			hookcore.Options{},
			summary{Continue: true, Hooks: []string{"ext=skipped"}}, "no agent runner configured"},
		{"agent without runner fails closed", hookYAML(`{type: agent, prompt: "Review"}`, "    on_error: block\n"),
			hookcore.Options{},
			summary{Blocked: true, Reason: `guard hook "ext" failed, so the action is blocked (on_error: block): agent hook "ext": hook could not start: no agent runner configured`,
				Continue: true, Errors: 1, Hooks: []string{"ext=block"}}, "no agent runner configured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := newRunner(t, dir, loadConfig(t, dir, "hooks.yaml", tt.config), tt.opts)
			res := r.Fire(context.Background(), hook.PreToolUse, bashCall(dir, "s", "ls"))
			got := summarize(res)
			if tt.want.Blocked && strings.HasPrefix(tt.want.Reason, "guard hook") {
				got.Reason = got.Reason[:min(len(got.Reason), len(tt.want.Reason))]
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("result (-want +got):\n%s", d)
			}
			if len(res.Hooks) == 1 && !strings.Contains(res.Hooks[0].Error, tt.errSub) {
				t.Errorf("record error %q does not contain %q", res.Hooks[0].Error, tt.errSub)
			}
		})
	}
}

// TestExternalBadAllowlistFailsLoad: a bad allowed_hosts entry is a config error with its
// position (config.Load), and a set built by hand that skips validation still fails New,
// naming the hook and the entry.
func TestExternalBadAllowlistFailsLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeFile(t, dir, "hooks.yaml", "hooks:\n  - id: wh\n    event: post_tool_use\n    action: {type: http, url: \"https://example.com/h\", allowed_hosts: [\"not a host\"]}\n")
	if _, errs := config.Load([]config.LayerPath{{Path: path, Layer: config.Explicit}}); !strings.Contains(errs.Error(), `hooks.yaml:4:`) || !strings.Contains(errs.Error(), `wh: allowed host "not a host"`) {
		t.Errorf("config.Load = %v, want the entry's position and the hook", errs)
	}
	set := &config.Set{Files: []*config.File{{Path: path, Hooks: []config.Hook{{
		ID: "wh", Event: hook.PostToolUse, Blocking: true, Enabled: true,
		Action: config.Action{Type: "http", URL: "https://example.com/h", AllowedHosts: []string{"not a host"}},
	}}}}}
	_, err := hookcore.New(set, hookcore.Options{ProjectDir: dir})
	if err == nil || !strings.Contains(err.Error(), `wh: allowed host "not a host"`) {
		t.Errorf("New = %v, want an error naming the hook and the entry", err)
	}
}

func TestExternalApproverTargets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	set := loadConfig(t, dir, "hooks.yaml", `hooks:
  - id: wh
    event: post_tool_use
    action: {type: http, url: "https://hooks.example.com/h"}
  - id: judge
    event: post_tool_use
    action: {type: prompt, prompt: "Judge $ARGUMENTS", model: "openai:gpt-4o-mini"}
  - id: review
    event: post_tool_use
    action: {type: agent, prompt: "Review it"}
`)
	var seen []string
	approver := hookcore.ApproverFunc(func(_ context.Context, h hookcore.HookInfo) (bool, error) {
		seen = append(seen, h.ID+" "+h.Type+" "+h.Target)
		return false, nil
	})
	r := newRunner(t, dir, set, hookcore.Options{Approver: approver})
	res := r.Fire(context.Background(), hook.PostToolUse, bashCall(dir, "s", "ls"))
	want := []string{"wh http https://hooks.example.com/h", "judge prompt [openai:gpt-4o-mini] Judge $ARGUMENTS", "review agent Review it"}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("approver saw (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"wh=skipped", "judge=skipped", "review=skipped"}, outcomes(res)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
}

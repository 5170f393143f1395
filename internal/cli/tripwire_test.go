//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hookcore/hookcore/internal/cli"
)

// TestHookClaudeTripwire: with the self-protect example, `hookcore hook claude` run at a
// tool call's PreToolUse and then at its PostToolUse stops Claude Code (continue false, a
// stopReason for the user, decision block with a reason for the model) when the call
// changed a hook config file in between, naming the file and saying the change was not
// undone; a call that changed nothing gets no answer (stop 32: `git checkout BRANCH -- .`,
// `python3 -c` joining a name, `cmake -E copy`: calls no rule read before them could see).
// HOME is set: not parallel.
func TestHookClaudeTripwire(t *testing.T) {
	policy := filepath.Join(repoRoot(t), "examples", "self-protect", "hooks.yaml")
	_, proj := tripwireDirs(t, ".claude")
	settings := filepath.Join(proj, ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(`{"hooks": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
	run := func(event, id string) (int, string, string) {
		t.Helper()
		in := map[string]any{"session_id": "s1", "cwd": proj, "hook_event_name": event, "tool_name": "Bash",
			"tool_use_id": id, "tool_input": map[string]any{"command": "python3 -c 'import x'"}}
		if event == "PostToolUse" {
			in["tool_response"] = map[string]any{"stdout": ""}
		}
		stdin, _ := json.Marshal(in)
		var out, errb bytes.Buffer
		code := cli.Main([]string{"hook", "claude", "--config", policy}, bytes.NewReader(stdin), &out, &errb)
		return code, out.String(), errb.String()
	}
	// A call that changes nothing: no answer (the state directory under ~/.hookcore, written
	// by both events, is not compared).
	if code, out, errs := run("PreToolUse", "toolu_1"); code != 0 || out != "" {
		t.Fatalf("PreToolUse: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, out, errs := run("PostToolUse", "toolu_1"); code != 0 || out != "" {
		t.Fatalf("PostToolUse of a call that changed nothing: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A call that rewrites the project's Claude Code settings.
	if code, out, errs := run("PreToolUse", "toolu_2"); code != 0 || out != "" {
		t.Fatalf("PreToolUse: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if err := os.WriteFile(settings, []byte(`{"hooks": {"PreToolUse": []}, "disableAllHooks": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run("PostToolUse", "toolu_2")
	if code != 0 {
		t.Fatalf("PostToolUse: exit %d, stderr %q", code, errs)
	}
	var got struct {
		Continue   *bool  `json:"continue"`
		StopReason string `json:"stopReason"`
		Decision   string `json:"decision"`
		Reason     string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if got.Continue == nil || *got.Continue || got.Decision != "block" {
		t.Errorf("continue %v, decision %q; want false and block: %s", got.Continue, got.Decision, out)
	}
	for name, text := range map[string]string{"stopReason": got.StopReason, "reason": got.Reason} {
		if !strings.Contains(text, settings+": content changed") || !strings.Contains(text, "NOT undone") {
			t.Errorf("%s %q: want the changed file and that it was not undone", name, text)
		}
	}
	// Reported once: the baseline is the changed file now.
	if code, out, _ := run("PostToolUse", "toolu_2"); code != 0 || out != "" {
		t.Errorf("second PostToolUse: exit %d, stdout %q", code, out)
	}
}

// TestHookClaudeTripwireDisabled: a change that disables the hooks (disableAllHooks in
// ~/.claude/settings.json, `hooks: []` in ~/.hookcore/hooks.yaml) leaves a config with no
// tripwire rule, and the stop still comes; a change between events (a background write)
// and one of a hook script (~/.claude/hooks) too; and two hook processes that run at once after a change report it once (red team
// round 57, findings 1, 3). HOME is set: not parallel.
func TestHookClaudeTripwireDisabled(t *testing.T) {
	policy, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "self-protect", "hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, content string
		between             bool              // the change lands after the PostToolUse: the next PreToolUse reports it
		setup               map[string]string // files of the home written before the first event
	}{
		{"disableAllHooks", ".claude/settings.json", `{"disableAllHooks": true}`, false, nil},
		{"empty policy", ".hookcore/hooks.yaml", "hooks: []\n", false, nil},
		{"background write", ".claude/settings.json", `{"disableAllHooks": true}`, true, nil},
		{"hook script", ".claude/hooks/guard.sh", "#!/bin/sh\nexit 0\n", false, nil},
		// Red team round 65: a shell startup file changes the next session's environment
		// (`export CLAUDE_CONFIG_DIR=/tmp/cc` switches every hook off), written by an
		// interpreter no pre-call rule reads.
		{"session environment", ".bashrc", "export CLAUDE_CONFIG_DIR=/tmp/cc\n", false, nil},
		{"session environment between events", ".zshenv", "export PATH=/tmp/x:$PATH\n", true, nil},
		{"session environment created", ".config/fish/conf.d/x.fish", "set -x CLAUDE_CONFIG_DIR /tmp/cc\n", false, nil},
		{"git's global config", ".gitconfig", "[core]\n\thooksPath = /tmp/h\n", false, nil},
		// Red team round 66: what the startup files and git's config name, and the fixed
		// files that run code at a login or a session's start.
		{"cargo env sourced", ".cargo/env", "export CLAUDE_CONFIG_DIR=/tmp/cc\n", false, map[string]string{
			".bashrc": "# the user's\n. \"$HOME/.cargo/env\"\n", ".cargo/env": "export PATH=\"$HOME/.cargo/bin:$PATH\"\n"}},
		{"a file .bashrc sources", "dotfiles/env.sh", "export CLAUDE_CONFIG_DIR=/tmp/cc\n", false, map[string]string{
			".bashrc": "[ -f ~/dotfiles/env.sh ] && source ~/dotfiles/env.sh # mine\n"}},
		{"ZDOTDIR's .zshrc", ".config/zsh/.zshrc", "export PATH=/tmp/x:$PATH\n", true, map[string]string{
			".zshenv": "export ZDOTDIR=\"${XDG_CONFIG_HOME:-$HOME/.config}/zsh\"\n", ".config/zsh/.zshrc": "# the user's\n"}},
		{"gitconfig include", ".gitconfig.local", "[core]\n\thooksPath = /tmp/evilhooks\n", false, map[string]string{
			".gitconfig": "[user]\n\tname = U\n[include]\n\tpath = ~/.gitconfig.local\n"}},
		{"gitconfig includeIf relative", ".config/git/work.inc", "[core]\n\thooksPath = /tmp/evilhooks\n", true, map[string]string{
			".config/git/config": "[includeIf \"gitdir:~/work/\"]\n\tpath = work.inc ; the work identity\n"}},
		{"ssh config", ".ssh/config", "Host *\n\tProxyCommand sh -c 'echo x >> ~/.bashrc'\n", false, nil},
		{"bash_logout", ".bash_logout", "cp /tmp/x ~/.hookcore/hooks.yaml\n", false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, proj := tripwireDirs(t, "")
			if err := os.MkdirAll(filepath.Join(home, ".claude", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".claude", "hooks", "guard.sh"), []byte("#!/bin/sh\nexit 2\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".hookcore", "hooks.yaml"), policy, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("# the user's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for name, content := range tc.setup {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(home, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("ZDOTDIR", "")
			t.Chdir(proj)
			run := func(event, id string) string {
				t.Helper()
				in := map[string]any{"session_id": "s1", "cwd": proj, "hook_event_name": event, "tool_name": "Bash",
					"tool_use_id": id, "tool_input": map[string]any{"command": "python3 -c 'import x'"}}
				if event == "PostToolUse" {
					in["tool_response"] = map[string]any{"stdout": ""}
				}
				stdin, _ := json.Marshal(in)
				var out, errb bytes.Buffer
				if code := cli.Main([]string{"hook", "claude"}, bytes.NewReader(stdin), &out, &errb); code != 0 && code != 2 {
					t.Fatalf("%s: exit %d: %s", event, code, errb.String())
				}
				return out.String()
			}
			if out := run("PreToolUse", "toolu_1"); out != "" {
				t.Fatalf("PreToolUse: %s", out)
			}
			change := func() {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(home, tc.file)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(home, tc.file), []byte(tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out string
			if tc.between {
				if out := run("PostToolUse", "toolu_1"); out != "" {
					t.Fatalf("PostToolUse before the change: %s", out)
				}
				change()
				out = run("PreToolUse", "toolu_2")
			} else {
				change()
				out = run("PostToolUse", "toolu_1")
			}
			var got struct {
				Continue   *bool  `json:"continue"`
				StopReason string `json:"stopReason"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout %q: %v", out, err)
			}
			if got.Continue == nil || *got.Continue || !strings.Contains(got.StopReason, filepath.Join(home, tc.file)) || !strings.Contains(got.StopReason, "NOT undone") {
				t.Errorf("got %s; want continue false and a stop reason naming %s", out, tc.file)
			}
			if tc.between && !strings.Contains(got.StopReason, "if you made this change, resume") {
				t.Errorf("stop reason %q: want it to say the change came between events", got.StopReason)
			}
		})
	}
}

// TestHookClaudeTripwireConcurrent: hook processes of one session that run at once after
// a change report it once (the baseline is compared and replaced under the state's lock).
// HOME is set: not parallel.
func TestHookClaudeTripwireConcurrent(t *testing.T) {
	policy := filepath.Join(repoRoot(t), "examples", "self-protect", "hooks.yaml")
	_, proj := tripwireDirs(t, ".claude")
	settings := filepath.Join(proj, ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
	run := func(event, id string) string {
		in := map[string]any{"session_id": "s1", "cwd": proj, "hook_event_name": event, "tool_name": "Bash",
			"tool_use_id": id, "tool_input": map[string]any{"command": "ls"}, "tool_response": map[string]any{"stdout": ""}}
		stdin, _ := json.Marshal(in)
		var out bytes.Buffer
		cli.Main([]string{"hook", "claude", "--config", policy}, bytes.NewReader(stdin), &out, io.Discard)
		return out.String()
	}
	const n = 6
	for i := range n {
		run("PreToolUse", fmt.Sprint("toolu_", i))
	}
	if err := os.WriteFile(settings, []byte(`{"disableAllHooks": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	outs := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = run("PostToolUse", fmt.Sprint("toolu_", i))
		}()
	}
	wg.Wait()
	stops := 0
	for _, out := range outs {
		if strings.Contains(out, `"continue":false`) {
			stops++
		}
	}
	if stops != 1 {
		t.Errorf("%d stops, want 1: %q", stops, outs)
	}
}

// tripwireDirs makes a home (HOME, with ~/.hookcore) and a project (with .git and, when
// projDir is set, that directory) under a temporary directory, clears
// HOOKCORE_STATE_DIR so that the state is the home's, and returns both.
func tripwireDirs(t *testing.T, projDir string) (home, proj string) {
	t.Helper()
	dir := t.TempDir()
	home, proj = filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	t.Setenv("HOME", home)
	t.Setenv("HOOKCORE_STATE_DIR", "")
	dirs := []string{filepath.Join(proj, ".git"), filepath.Join(home, ".hookcore")}
	if projDir != "" {
		dirs = append(dirs, filepath.Join(proj, projDir))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home, proj
}

// TestHookClaudeTripwireVanished: red team round 60's sequence with the self-protect
// example: one call deletes the session's state file (~/.hookcore/state/session-*) and
// writes disableAllHooks into ~/.claude/settings.json; its PostToolUse stops Claude Code,
// since the transcript shows an earlier call (before: a new baseline, and no answer), and
// once only. A session resumed after its SessionEnd dropped the state does not stop.
// HOME is set: not parallel.
func TestHookClaudeTripwireVanished(t *testing.T) {
	t.Run("named config", func(t *testing.T) { tripwireVanished(t, false) })
	// Red team round 61: the policy in the user's layer (~/.hookcore/hooks.yaml, the
	// README's layout), which the written disableAllHooks switches off with the rest: the
	// switched-off clause still arms the session.
	t.Run("user layer", func(t *testing.T) { tripwireVanished(t, true) })
}

func tripwireVanished(t *testing.T, userLayer bool) {
	policy := filepath.Join(repoRoot(t), "examples", "self-protect", "hooks.yaml")
	home, proj := tripwireDirs(t, "")
	args := []string{"hook", "claude", "--config", policy}
	if userLayer {
		data, err := os.ReadFile(policy)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".hookcore", "hooks.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = []string{"hook", "claude"}
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(home, ".claude", "projects", "-proj", "s1.jsonl")
	if err := os.MkdirAll(filepath.Dir(tr), 0o755); err != nil {
		t.Fatal(err)
	}
	transcript := func(lines ...string) {
		t.Helper()
		if err := os.WriteFile(tr, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(proj)
	run := func(event, id string) string {
		t.Helper()
		in := map[string]any{"session_id": "s1", "transcript_path": tr, "cwd": proj, "hook_event_name": event}
		switch event {
		case "PreToolUse", "PostToolUse":
			in["tool_name"], in["tool_use_id"], in["tool_input"] = "Bash", id, map[string]any{"command": "python3 -c 'import x'"}
			if event == "PostToolUse" {
				in["tool_response"] = map[string]any{"stdout": ""}
			}
		case "SessionStart":
			in["source"] = "resume"
		case "UserPromptSubmit":
			in["prompt"] = "go on"
		case "SessionEnd":
			in["reason"] = "prompt_input_exit"
		}
		stdin, _ := json.Marshal(in)
		var out, errb bytes.Buffer
		if code := cli.Main(args, bytes.NewReader(stdin), &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", event, code, errb.String())
		}
		return out.String()
	}
	prompt := `{"type":"user","sessionId":"s1","message":{"role":"user","content":"fix the tests"}}`
	use := func(id string) string {
		return `{"type":"assistant","sessionId":"s1","message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"Bash","input":{"command":"ls"}}]}}`
	}
	result := func(id string) string {
		return `{"type":"user","sessionId":"s1","message":{"role":"user","content":[{"tool_use_id":"` + id + `","type":"tool_result","content":"ok"}]}}`
	}
	transcript(prompt, use("toolu_0"))
	for _, ev := range [][2]string{{"PreToolUse", "toolu_0"}, {"PostToolUse", "toolu_0"}, {"PreToolUse", "toolu_1"}} {
		transcript(prompt, use("toolu_0"), result("toolu_0"), use("toolu_1"))
		if out := run(ev[0], ev[1]); out != "" {
			t.Fatalf("%s %s before the change: %s", ev[0], ev[1], out)
		}
	}
	// The call: the state deleted, the hooks disabled.
	files, _ := filepath.Glob(filepath.Join(home, ".hookcore", "st*", "session-*"))
	if len(files) != 1 {
		t.Fatalf("session files %v, want one", files)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"disableAllHooks": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run("PostToolUse", "toolu_1")
	var got struct {
		Continue   *bool  `json:"continue"`
		StopReason string `json:"stopReason"`
		Decision   string `json:"decision"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	if got.Continue == nil || *got.Continue || got.Decision != "block" || !strings.Contains(got.StopReason, "tripwire state vanished") {
		t.Fatalf("got %s; want continue false, a block, and a stop reason saying the state vanished", out)
	}
	transcript(prompt, use("toolu_0"), result("toolu_0"), use("toolu_1"), result("toolu_1"), use("toolu_2"))
	if out := run("PreToolUse", "toolu_2"); out != "" {
		t.Errorf("the next PreToolUse: %s; want the new baseline, no second stop", out)
	}
	// The session ends (its state dropped) and is resumed with the same id.
	run("SessionEnd", "")
	if files, _ := filepath.Glob(filepath.Join(home, ".hookcore", "st*", "session-*")); len(files) != 0 {
		t.Fatalf("session files %v after SessionEnd, want none", files)
	}
	for _, ev := range [][2]string{{"SessionStart", ""}, {"UserPromptSubmit", ""}, {"PreToolUse", "toolu_3"}} {
		if out := run(ev[0], ev[1]); out != "" && strings.Contains(out, `"continue":false`) {
			t.Errorf("%s of the resumed session: %s", ev[0], out)
		}
	}
}

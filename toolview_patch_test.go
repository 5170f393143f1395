package hookcore_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// TestCodexApplyPatchIsWriteAndEdit (stop 33): Codex sends its file edits as tool_name
// "apply_patch" with the patch text in tool_input.command (openai/codex PR #18391); a Write
// or Edit guard did not see them, and a Bash guard read the patch as a command line. Each
// file a patch writes is now a Write call (fired as Edit too) of its path, an added file's
// with its content; a patch hookcore cannot read, or a path it cannot name, is a Write call
// of an unknown file (file_path null), which every deny path condition matches.
func TestCodexApplyPatchIsWriteAndEdit(t *testing.T) {
	t.Parallel()
	type seenCall struct{ Tool, Input, ViewOf string }
	var mu sync.Mutex
	seen := map[string][]seenCall{}
	record := func(test string, d hook.Decision) hook.ExecutorFunc {
		return func(_ context.Context, in *hook.Input) (hook.Decision, error) {
			mu.Lock()
			defer mu.Unlock()
			var of string
			_ = json.Unmarshal(in.Extra["hookcore_view_of"], &of)
			seen[test] = append(seen[test], seenCall{in.ToolName, string(in.ToolInput), of})
			return d, nil
		}
	}
	patch := func(body string) string {
		b, _ := json.Marshal(map[string]string{"command": "*** Begin Patch\n" + body + "*** End Patch\n"})
		return string(b)
	}
	const secret = `file_path ~= "**/secret/**"`
	tests := []struct {
		name, matcher, cond, tool, input string
		want                             summary
		wantSeen                         []seenCall
	}{
		{"an added file in secret is blocked", "Write|Edit", secret, "apply_patch", patch("*** Add File: secret/a\n+x\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"content":"x\n","file_path":"secret/a"}`, "apply_patch"}}},
		{"a file under ~/ is the home's (red team round 62)", "Write|Edit", `file_path ~= "~/.ssh/**"`, "apply_patch", patch("*** Add File: ~/.ssh/authorized_keys\n+ssh-ed25519 AAAA\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"content":"ssh-ed25519 AAAA\n","file_path":"~/.ssh/authorized_keys"}`, "apply_patch"}}},
		{"a file elsewhere is allowed", "Write|Edit", secret, "apply_patch", patch("*** Add File: notes/a\n+x\n*** Update File: src/b.go\n@@\n-x\n+y\n"),
			summary{Continue: true}, nil},
		{"an Edit guard sees the update", "Edit", "", "apply_patch", patch("*** Update File: src/b.go\n@@\n-x\n+y\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Edit", `{"file_path":"src/b.go"}`, "apply_patch"}}},
		{"a move into secret is blocked", "Write|Edit", secret, "apply_patch", patch("*** Update File: notes/a\n*** Move to: secret/b\n@@\n-x\n+y\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"secret/b"}`, "apply_patch"}}},
		{"a move out of secret is blocked", "Write|Edit", secret, "apply_patch", patch("*** Update File: secret/a\n*** Move to: notes/b\n@@\n-x\n+y\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"secret/a"}`, "apply_patch"}}},
		{"a delete in secret is blocked", "Write|Edit", secret, "apply_patch", patch("*** Delete File: /srv/app/secret/a\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"/srv/app/secret/a"}`, "apply_patch"}}},
		{"a malformed patch is an unknown file", "Write|Edit", secret, "apply_patch", `{"command":"*** Begin Patch\n*** Frobnicate File: secret/a\n*** End Patch"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "apply_patch"}}},
		{"a dot-dot path is an unknown file", "Write|Edit", secret, "apply_patch", patch("*** Add File: notes/../secret/a\n+x\n"),
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "apply_patch"}}},
		{"a command that is no string is an unknown file", "Write", secret, "apply_patch", `{"command":["*** Begin Patch"]}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "apply_patch"}}},
		{"the tool's own argument name", "Write|Edit", secret, "apply_patch", `{"input":"*** Begin Patch\n*** Delete File: secret/a\n*** End Patch"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"secret/a"}`, "apply_patch"}}},
		{"two patches are an unknown file", "Write|Edit", secret, "apply_patch", `{"command":"*** Begin Patch\n*** Delete File: a\n*** End Patch","input":"*** Begin Patch\n*** Delete File: secret/a\n*** End Patch"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "apply_patch"}}},
		{"the patch is no shell command", "Bash", "", "apply_patch", patch("*** Add File: a\n+rm -rf /\n"),
			summary{Continue: true}, nil},
		{"a Bash heredoc of apply_patch", "Write|Edit", secret, "Bash", `{"command":"cd secret && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"secret/a"}`, "Bash"}}},
		{"a Bash line without apply_patch", "Write|Edit", "", "Bash", `{"command":"ls secret"}`,
			summary{Continue: true}, nil},
		// Red team round 66: the tool's paths were taken in the cwd whatever its workdir said.
		{"a workdir is where the patch's paths are", "Write|Edit", secret, "apply_patch", `{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch","workdir":"secret"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"content":"x\n","file_path":"secret/a"}`, "apply_patch"}}},
		{"an absolute workdir", "Write|Edit", secret, "apply_patch", `{"input":"*** Begin Patch\n*** Delete File: a\n*** End Patch","workdir":"/srv/secret"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"/srv/secret/a"}`, "apply_patch"}}},
		{"a workdir under ~ is an unknown file", "Write|Edit", secret, "apply_patch", `{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch","workdir":"~/secret"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "apply_patch"}}},
		{"a workdir that is no string is an unknown file", "Write|Edit", secret, "apply_patch", `{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch","workdir":5}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "apply_patch"}}},
		{"a workdir elsewhere is allowed", "Write|Edit", secret, "apply_patch", `{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch","workdir":"notes"}`,
			summary{Continue: true}, nil},
		// Red team round 65: a command given as an argv array was not read.
		{"an argv bash -lc heredoc of apply_patch", "Write|Edit", secret, "Bash", `{"command":["bash","-lc","apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: secret/a\n+x\n*** End Patch\nEOF"]}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"content":"x\n","file_path":"secret/a"}`, "Bash"}}},
		{"an argv apply_patch PATCH", "Write|Edit", secret, "Bash", `{"command":["apply_patch","*** Begin Patch\n*** Delete File: secret/a\n*** End Patch"]}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"secret/a"}`, "Bash"}}},
		{"an argv applypatch PATCH", "Write|Edit", secret, "Bash", `{"command":["/usr/bin/applypatch","*** Begin Patch\n*** Delete File: secret/a\n*** End Patch"]}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":"secret/a"}`, "Bash"}}},
		{"an argv apply_patch elsewhere is allowed", "Write|Edit", secret, "Bash", `{"command":["apply_patch","*** Begin Patch\n*** Add File: notes/a\n+x\n*** End Patch"]}`,
			summary{Continue: true}, nil},
		{"another argv naming apply_patch is an unknown file", "Write|Edit", secret, "Bash", `{"command":["env","apply_patch","*** Begin Patch\n*** Add File: notes/a\n+x\n*** End Patch"]}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "Bash"}}},
		{"an argv with a word that is no string is an unknown file", "Write|Edit", secret, "Bash", `{"command":["apply_patch",5]}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "Bash"}}},
		{"an argv without apply_patch", "Write|Edit", "", "Bash", `{"command":["bash","-lc","ls secret"]}`,
			summary{Continue: true}, nil},
		{"apply_patch with the patch single-quoted", "Write|Edit", secret, "Bash", `{"command":"cd secret && apply_patch '*** Begin Patch\n*** Add File: a\n+x\n*** End Patch'"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"content":"x\n","file_path":"secret/a"}`, "Bash"}}},
		{"apply_patch with a quote in the quoted patch is an unknown file", "Write|Edit", secret, "Bash", `{"command":"apply_patch '*** Begin Patch\n*** Add File: notes/a\n+it'\\''s\n*** End Patch'"}`,
			summary{Blocked: true, Reason: "no", Continue: true, Hooks: []string{"guard=block"}},
			[]seenCall{{"Write", `{"file_path":null}`, "Bash"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cb := hookcore.Callback{ID: "guard", Event: hook.PreToolUse, Matcher: tt.matcher, If: tt.cond, Func: record(tt.name, hook.Decision{Block: true, Reason: "no"})}
			r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{cb}})
			in := &hook.Input{SessionID: "s1", Cwd: dir, HookEventName: "PreToolUse", ToolName: tt.tool, ToolInput: json.RawMessage(tt.input), ToolUseID: "call_1"}
			res := r.Fire(context.Background(), hook.PreToolUse, in)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.wantSeen, seen[tt.name]); diff != "" {
				t.Errorf("calls the hooks were given (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCodexApplyPatchPayload: the PreToolUse payload codex-cli sends for apply_patch (PR
// #18391; captured by termaxa/termaxa PR #104 with codex-cli 0.155.1: absolute paths), through
// the Codex bridge: a .env rule blocks the patch that updates .env among other files.
func TestCodexApplyPatchPayload(t *testing.T) {
	t.Parallel()
	cb := hookcore.Callback{ID: "env", Event: hook.PreToolUse, Matcher: "Edit|Write", If: `file_path ~= "**/.env"`, Func: fn(hook.Decision{Block: true, Reason: "no .env"})}
	dir := t.TempDir()
	r := newRunner(t, dir, nil, hookcore.Options{Callbacks: []hookcore.Callback{cb}})
	payload := `{"session_id":"s","turn_id":"t","cwd":"/home/dev/proj","hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_use_id":"call_1","tool_input":{"command":"*** Begin Patch\n*** Update File: /home/dev/proj/notes/a.txt\n@@\n+third line\n*** Add File: /home/dev/proj/notes/new.txt\n+hello\n*** Delete File: /home/dev/proj/scratch/f1.txt\n*** Update File: /home/dev/proj/.env\n@@\n+TOKEN=abc123\n*** End Patch"}}`
	ev, in, err := bridge.Codex{}.Decode([]byte(payload), "")
	if err != nil {
		t.Fatal(err)
	}
	res := r.Fire(context.Background(), ev, in)
	if !res.Blocked || res.Reason != "no .env" {
		t.Errorf("blocked %v, reason %q; want blocked, no .env", res.Blocked, res.Reason)
	}
}

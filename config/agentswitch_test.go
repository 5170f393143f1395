package config

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCodexSwitches: Codex's own switches (observed with Codex 0.171.0, peer-codex, stop
// 26): a handler's [hooks.state] key is "FILE:EVENT_LABEL:GROUP:HANDLER" (the same in a
// hooks.json and in config.toml's [hooks] tables), enabled = false switches that handler
// off; [features] hooks = false switches every Codex hook off, the last file that sets it
// winning, and the older codex_hooks counts only where no file sets hooks (a project's
// codex_hooks = false under the user's hooks = true ran the hooks).
func TestCodexSwitches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hooksPath := filepath.Join(dir, "home", ".codex", "hooks.json")
	hj, probs := ParseDialect(hooksPath, []byte(`{"hooks": {
  "Stop": [{"hooks": [{"type": "command", "command": "s0"}]}],
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b"}]},
    {"matcher": "*", "hooks": [{"type": "command", "command": "c"}]}]}}`), User, Codex)
	if probs.Err() != nil {
		t.Fatal(probs)
	}
	var keys []string
	for _, h := range hj.Hooks {
		keys = append(keys, h.Action.Command+" "+h.AgentKey)
	}
	want := []string{"s0 " + hooksPath + ":stop:0:0", "a " + hooksPath + ":pre_tool_use:0:0", "b " + hooksPath + ":pre_tool_use:0:1", "c " + hooksPath + ":pre_tool_use:1:0"}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}

	tomlPath := filepath.Join(dir, "home", ".codex", "config.toml")
	user, probs := ParseDialect(tomlPath, []byte(`[features]
hooks = true

[hooks.state."`+hooksPath+`:pre_tool_use:0:1"]
enabled = false

[hooks.state."`+hooksPath+`:pre_tool_use:1:0"]
trusted_hash = "x"

[[hooks.PostToolUse]]
[[hooks.PostToolUse.hooks]]
type = "command"
command = "p"
`), User, Codex)
	if probs.Err() != nil {
		t.Fatal(probs)
	}
	if diff := cmp.Diff([]string{hooksPath + ":pre_tool_use:0:1"}, user.HooksDisabled); diff != "" {
		t.Errorf("disabled (-want +got):\n%s", diff)
	}
	if len(user.Hooks) != 1 || user.Hooks[0].AgentKey != tomlPath+":post_tool_use:0:0" {
		t.Errorf("config.toml hooks: %+v", user.Hooks)
	}
	off := func(files ...*File) (cmds []string) {
		sw := AgentSwitch(files, true)
		for _, f := range []*File{hj, user} {
			for i := range f.Hooks {
				if sw.Off(f, &f.Hooks[i]) {
					cmds = append(cmds, f.Hooks[i].Action.Command)
				}
			}
		}
		return cmds
	}
	if diff := cmp.Diff([]string{"b"}, off(hj, user)); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	project := func(src string) *File {
		f, probs := ParseDialect(filepath.Join(dir, "w", ".codex", "config.toml"), []byte(src), Project, Codex)
		if probs.Err() != nil {
			t.Fatal(probs)
		}
		return f
	}
	all := []string{"s0", "a", "b", "c", "p"}
	for _, tc := range []struct {
		name string
		f    *File
		want []string
	}{
		{"project hooks = false", project("[features]\nhooks = false\n"), all},
		{"project codex_hooks = false under the user's hooks = true", project("[features]\ncodex_hooks = false\n"), []string{"b"}},
		{"project says nothing", project("model = \"x\"\n"), []string{"b"}},
	} {
		if diff := cmp.Diff(tc.want, off(hj, user, tc.f)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	alias := project("[features]\ncodex_hooks = false\n")
	if sw := AgentSwitch([]*File{hj, alias}, true); !sw.Off(hj, &hj.Hooks[0]) {
		t.Error("codex_hooks = false with no hooks key anywhere: the hooks run")
	}
	if sw := AgentSwitch([]*File{hj, alias}, false); sw.Off(hj, &hj.Hooks[0]) {
		t.Error("an untrusted project's codex_hooks = false switched the user's hooks off")
	}
}

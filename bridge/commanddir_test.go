package bridge_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hookcore/hookcore/bridge"
)

// TestCommandDir: where a Bash call's command runs, as each bridge reads it (red team round
// 60). Codex's shell tools take a workdir their hook input leaves out: unknown, unless
// tool_input names it. Gemini CLI's run_shell_command names its directory (dir_path,
// `directory` before), relative to the project root. Claude Code's Bash runs in cwd.
func TestCommandDir(t *testing.T) {
	t.Parallel()
	type dir struct {
		Dir     string
		Unknown bool
	}
	for _, tc := range []struct {
		name  string
		p     bridge.Protocol
		input string
		want  dir
	}{
		{"codex shell", bridge.Codex{}, `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cp x settings.json"}}`, dir{Unknown: true}},
		{"codex workdir", bridge.Codex{}, `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","workdir":"sub"}}`, dir{Dir: "sub"}},
		{"codex workdir not a string", bridge.Codex{}, `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","workdir":["/"]}}`, dir{Unknown: true}},
		{"codex apply_patch", bridge.Codex{}, `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** End Patch\n"}}`, dir{}},
		{"gemini dir_path", bridge.Gemini{}, `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","dir_path":"pkg"}}`, dir{Dir: "pkg"}},
		{"gemini directory", bridge.Gemini{}, `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls","directory":"/abs"}}`, dir{Dir: "/abs"}},
		{"gemini none", bridge.Gemini{}, `{"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, dir{}},
		{"claude", bridge.Claude{}, `{"cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cp x settings.json"}}`, dir{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, in, err := tc.p.Decode([]byte(tc.input), "")
			if err != nil {
				t.Fatal(err)
			}
			got := dir{in.CommandDir, in.CommandDirUnknown}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: (-want +got)\n%s", tc.input, diff)
			}
		})
	}
}

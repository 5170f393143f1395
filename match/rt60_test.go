package match

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A command whose working directory the hook input does not tell (red team round 60:
// Codex's shell tools take a workdir their hook input leaves out). Its relative words are
// paths of an unknown directory: a `changes` clause holds for one whose names may be the
// last names of a protected path or lead into one, and for a write that may replace the
// directory's entries unnamed; an ordinary relative write does not. The same lines with the
// working directory known keep their judgement.
func TestCwdUnknown60(t *testing.T) {
	t.Parallel()
	home, config := configHome(t)
	proj := filepath.Join(home, "proj")
	f, err := CompileIf(`args.command changes hook_config`)
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name, cmd      string
		unknown, known bool
	}{
		{"cp over settings.json", `cp /tmp/e.json settings.json`, true, false},
		{"printf > settings.json", `printf "{}" > settings.json`, true, false},
		{"tee settings.local.json", `tee settings.local.json < /tmp/e`, true, false},
		{"cp over hooks.json", `cp /tmp/e hooks.json`, true, false},
		{"a relative directory and name", `cp /tmp/e .claude/settings.json`, true, true},
		{"into a protected directory", `cp /tmp/e .hookcore/hooks.yaml`, true, true},
		{"after ..", `cp /tmp/e x/../settings.json`, true, false},
		{"after a relative cd", `cd sub && cp /tmp/e settings.json`, true, false},
		{"a glob of the name", `cp /tmp/e settin*.json`, true, false},
		{"a copy into the directory under its own name", `cp /tmp/x/settings.json .`, true, false},
		{"an extraction in the directory", `tar -xf /tmp/x.tar`, true, true},
		{"a move of a protected directory", `mv .claude c-old`, true, true},
		{"hooks/ of a glob's directory", `cp /tmp/e hooks/a.json`, true, false},

		{"cp a.go b.go", `cp a.go b.go`, false, false},
		{"go build -o bin/app", `go build -o bin/app ./cmd/app`, false, false},
		{"a .json of no hook directory", `cp x package.json`, false, false},
		{"a write in a cd", `cd src && echo x > main.go`, false, false},
		{"a name of the home's path", `ls ` + filepath.Base(home), false, false},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args, _ := json.Marshal(map[string]string{"command": tc.cmd})
			for _, unknown := range []bool{true, false} {
				s := NewSubjectAt(proj, "PreToolUse", "Bash", args).WithCwd(proj).WithHome(home).WithHookConfig(config)
				want := tc.known
				if unknown {
					s, want = s.WithCwdUnknown(), tc.unknown
				}
				if got := f.Match(s); got != want {
					t.Errorf("%q, cwd unknown %v: changes hook_config = %v, want %v", tc.cmd, unknown, got, want)
				}
			}
		})
	}
}

// A `names "*/NAME"` value counts every occurrence of NAME when the working directory is
// not known: a relative name is then a file of any directory (red team round 60).
func TestNamesDirCwdUnknown60(t *testing.T) {
	t.Parallel()
	f, err := CompileIf(`args.command names "*/settings.json"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd            string
		unknown, known bool
	}{
		{`cp /tmp/e.json settings.json`, true, false},
		{`printf "{}" > settings.json`, true, false},
		{`jq . .vscode/settings.json`, true, false},
		{`cp x "$D"/settings.json`, true, true},
		{`cp a.go b.go`, false, false},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd})
		for _, unknown := range []bool{true, false} {
			s := NewSubjectAt("/proj", "PreToolUse", "Bash", args).WithCwd("/proj")
			want := tc.known
			if unknown {
				s, want = s.WithCwdUnknown(), tc.unknown
			}
			if got := f.Match(s); got != want {
				t.Errorf("%q, cwd unknown %v: names = %v, want %v", strings.TrimSpace(tc.cmd), unknown, got, want)
			}
		}
	}
}

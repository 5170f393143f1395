package install

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// roundTrip installs into a file holding before, checks what the installed file must say,
// then uninstalls and wants before back byte for byte.
func roundTrip(t *testing.T, o Options, rel, before string, check func(t *testing.T, installed []byte)) {
	t.Helper()
	path := filepath.Join(o.ProjectDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, p)
	installed, _ := os.ReadFile(path)
	if check != nil {
		check(t, installed)
	}
	if again, err := Install(o); err != nil || again.Changed {
		t.Errorf("installing twice: %v, changed:\n%s", err, Diff(path, again.Old, again.New))
	}
	un, err := Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, un)
	if after, _ := os.ReadFile(path); string(after) != before {
		t.Errorf("install then uninstall did not give back the file:\n%s", Diff(path, []byte(before), after))
	}
}

// TestHandWrittenHookcoreEntriesAreTheUsers: only an entry exactly of the form install writes
// is install's; a hookcore hook entry the user wrote (another argument, a timeout, an http
// hook with headers) is left as it is by install, which adds no second entry to its event,
// and by uninstall, so install then uninstall gives back the file byte for byte (red team
// 11: `hookcore hook claude --settings /etc/team/policy.json` with timeout 120 was rewritten
// to install's command, and uninstall then left {}).
func TestHandWrittenHookcoreEntriesAreTheUsers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, agent, rel, before string
		event, hand              string // the event holding the hand-written entry, and its text
	}{
		{
			name: "claude --settings", agent: "claude", rel: ".claude/settings.json",
			before: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"hookcore hook claude --settings /etc/team/policy.json","timeout":120}]}]}}`,
			event:  "PreToolUse", hand: `"command":"hookcore hook claude --settings /etc/team/policy.json","timeout":120`,
		},
		{
			name: "claude install's command with a timeout", agent: "claude", rel: ".claude/settings.json",
			before: "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"/usr/local/bin/hookcore hook claude\", \"timeout\": 5}]}\n    ]\n  }\n}\n",
			event:  "Stop", hand: `"command": "/usr/local/bin/hookcore hook claude", "timeout": 5`,
		},
		{
			name: "claude http hook with headers", agent: "claude", rel: ".claude/settings.json",
			before: `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"http://127.0.0.1:7878/hook/claude","headers":{"Authorization":"Bearer x"}}]}]}}`,
			event:  "Stop", hand: `"headers":{"Authorization":"Bearer x"}`,
		},
		{
			name: "copilot with a flag", agent: "copilot", rel: ".github/hooks/hookcore.json",
			before: `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "hookcore hook copilot preToolUse --server http://127.0.0.1:9", "timeoutSec": 60}]}}`,
			event:  "preToolUse", hand: `"timeoutSec": 60`,
		},
		{
			name: "cursor quoted path with an argument", agent: "cursor", rel: ".cursor/hooks.json",
			before: `{"version": 1, "hooks": {"stop": [{"command": "'/opt/my tools/hookcore' hook cursor -v"}]}}`,
			event:  "stop", hand: `hookcore' hook cursor -v"`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := Options{Agent: tc.agent, ProjectDir: t.TempDir(), Command: "hookcore-hook"}
			roundTrip(t, o, tc.rel, tc.before, func(t *testing.T, installed []byte) {
				if !strings.Contains(string(installed), tc.hand) {
					t.Errorf("the hand-written entry was changed:\n%s", installed)
				}
				var f struct{ Hooks map[string]json.RawMessage }
				if err := json.Unmarshal(installed, &f); err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(string(f.Hooks[tc.event]), "hookcore-hook"); n != 0 {
					t.Errorf("install added a second hookcore entry to %s: %s", tc.event, f.Hooks[tc.event])
				}
				if len(f.Hooks) != len(agents[tc.agent].events) {
					t.Errorf("%d events installed, want all %d", len(f.Hooks), len(agents[tc.agent].events))
				}
			})
		})
	}
}

// TestInstallQuotesTheCommand: a binary path with a space, and a --server URL with the "[]"
// of an IPv6 host, are shell-quoted in every agent's command, which the shell then runs with
// the arguments install meant, even where a file matches the URL as a glob (Claude Code's
// exec form, which no shell reads, runs them as written); install knows
// the quoted entry as its own (twice is once, uninstall gives the file back). Red team 11:
// "/tmp/my bin/hookcore" was written unquoted (sh ran /tmp/my, exit 127: fail open), and
// http://[::1]:7878 became http:/1:7878 in a repository with that file.
func TestInstallQuotesTheCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "my bin", "hookcore")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\nprintf '%s|' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A file the unquoted URL matches as a glob.
	if err := os.MkdirAll(filepath.Join(dir, "http:"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "http:", "1:7878"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, agent := range Agents() {
		for _, server := range []string{"", "http://[::1]:7878"} {
			if agent == "claude" && server != "" {
				continue // an http hook: no command line
			}
			t.Run(agent+" "+server, func(t *testing.T) {
				t.Parallel()
				o := Options{Agent: agent, Scope: Project, ProjectDir: t.TempDir(), Command: bin, Server: server}
				p, err := Install(o)
				if err != nil {
					t.Fatal(err)
				}
				var f struct {
					Hooks map[string][]struct {
						Command, Bash string
						Hooks         []struct {
							Command string
							Args    *[]string
						}
					}
				}
				if err := json.Unmarshal(p.New, &f); err != nil {
					t.Fatal(err)
				}
				ev := agents[agent].events[0].name
				e := f.Hooks[ev][0]
				cmd := e.Command + e.Bash
				sh := exec.Command("sh", "-c", cmd)
				if len(e.Hooks) > 0 {
					cmd = e.Hooks[0].Command
					sh = exec.Command("sh", "-c", cmd)
					if args := e.Hooks[0].Args; args != nil {
						// Claude Code's exec form: the program as written, no shell.
						sh = exec.Command(cmd, *args...)
					}
				}
				sh.Dir = dir
				out, err := sh.CombinedOutput()
				if err != nil {
					t.Fatalf("sh -c %s: %v\n%s", cmd, err, out)
				}
				want := "hook|" + agent + "|"
				if agents[agent].eventArg {
					want += ev + "|"
				}
				if server != "" {
					want += "--server|" + server + "|"
				}
				if string(out) != want {
					t.Errorf("sh -c %s ran with %q, want %q", cmd, out, want)
				}
				roundTrip(t, o, agents[agent].files[Project], "{\"model\": \"x\"}\n", nil)
			})
		}
	}
}

// TestUninstallKeepsAnEmptyHooksKey: uninstall on a file install never wrote changes
// nothing: a user's own "hooks": {} and empty event lists stay (red team 11: the key was
// deleted).
func TestUninstallKeepsAnEmptyHooksKey(t *testing.T) {
	t.Parallel()
	for _, before := range []string{"{\"hooks\": {}}\n", `{"model": "x", "hooks": {"Stop": []}}`} {
		dir := t.TempDir()
		path := filepath.Join(dir, ".claude", "settings.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Uninstall(Options{Agent: "claude", ProjectDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		if p.Changed {
			t.Errorf("uninstall changed a file without hookcore in it:\n%s", Diff(path, p.Old, p.New))
		}
	}
}

// TestInstallRoundTripFlatFiles: for Cursor and Copilot, whose files the docs show with
// "version": 1, install then uninstall gives back a file the user wrote byte for byte
// (red team 11: "version": 1 was added and stayed); only a file install creates gets it.
// (A lone "hooks": {} or empty event list cannot come back: uninstall drops what it emptied, as most
// files had none.)
func TestInstallRoundTripFlatFiles(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{"cursor", "copilot"} {
		for _, before := range []string{"{}\n", `{"hooks": {"stop": [{"command": "./notify.sh"}]}, "x": 1}`, "{\"version\": 1}\n"} {
			o := Options{Agent: agent, ProjectDir: t.TempDir(), Command: "hookcore"}
			roundTrip(t, o, agents[agent].files[Project], before, nil)
		}
	}
}

// TestInstallEntryInAUserGroupIsTheUsers: install's own entry, exactly as install writes it,
// placed by the user in a group beside a hook of theirs is the user's placement: install adds
// no second entry, and uninstall leaves it, so install then uninstall gives back the file byte
// for byte (red team round 65: uninstall removed it and left notify-send alone), for every
// agent whose file has groups.
func TestInstallEntryInAUserGroupIsTheUsers(t *testing.T) {
	t.Parallel()
	for _, name := range Agents() {
		a := agents[name]
		if !a.grouped {
			continue // no group: an entry of install's form in the flat list is install's
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := Options{Agent: name, Scope: Project, ProjectDir: t.TempDir(), Command: "/abs/bin/hookcore-hook"}
			for _, ev := range a.events {
				group := map[string]any{"hooks": []json.RawMessage{raw(entry(a, &o, ev)), json.RawMessage(`{"type":"command","command":"notify-send done"}`)}}
				if ev.matcher != "" {
					group["matcher"] = ev.matcher
				}
				before, _ := json.Marshal(map[string]any{"hooks": map[string]any{ev.name: []any{group}}})
				t.Run(ev.name, func(t *testing.T) {
					o := o
					o.ProjectDir = t.TempDir()
					roundTrip(t, o, a.files[Project], string(before)+"\n", func(t *testing.T, installed []byte) {
						var f struct{ Hooks map[string]json.RawMessage }
						if err := json.Unmarshal(installed, &f); err != nil {
							t.Fatal(err)
						}
						if n := strings.Count(string(f.Hooks[ev.name]), "hookcore-hook"); n != 1 {
							t.Errorf("%s holds %d hookcore entries, want the user's one: %s", ev.name, n, f.Hooks[ev.name])
						}
					})
				})
			}
		})
	}
}

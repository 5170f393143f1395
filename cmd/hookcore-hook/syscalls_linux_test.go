package main_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestInstalledEventFileCalls bounds the file system calls of one event of the installed
// hook command (bench/hookbridge.sh's "installed" case: `hookcore-hook claude` with no
// --config, the policy as ~/.hookcore/hooks.yaml, a ~/.claude/settings.json, a project with
// .git, a call the rule lets through), counted by strace, the kernel's view of what the
// process asked: the calls that name a path in the test's directory or one of the
// administrator's files discovery looks for. Issue 9, stop 30: 72 such calls before (42
// stats, 8 opens, 22 readlinks: a stat and a readlink of each of 22 absent files, three
// reads of the trust store, the workspace's path resolved three times, the project's .git
// looked up twice); now 30 (28 stats, 2 opens). Stop 31: 31, the stat of
// ~/.gemini/extensions, where Gemini CLI's extensions and their hooks are (absent here).
// Red team round 57: 32, the faccessat of the session's state file (state.Dir.Holds): an
// armed tripwire must be found at a config without the rule (the change may have removed
// it); the session file is read only when it exists. Skipped without strace, or where it may not trace.
func TestInstalledEventFileCalls(t *testing.T) {
	bin := binaries(t)
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("no strace")
	}
	if out, err := exec.Command(strace, "-o", os.DevNull, "true").CombinedOutput(); err != nil {
		t.Skipf("strace cannot trace here: %v: %s", err, out)
	}
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "proj")
	for name, content := range map[string]string{
		filepath.Join(home, ".hookcore", "hooks.yaml"):  policy,
		filepath.Join(home, ".claude", "settings.json"): `{"permissions": {"allow": ["Bash(npm run test:*)"]}, "model": "opus"}`,
		filepath.Join(proj, ".git", "HEAD"):             "ref: refs/heads/main\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	trace := filepath.Join(dir, "trace")
	c := exec.Command(strace, "-f", "-qq", "-o", trace, "-e", "trace=%file,%desc", filepath.Join(bin, "hookcore-hook"), "claude")
	c.Dir = proj
	c.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "HOOKCORE_STATE_DIR=" + filepath.Join(dir, "state"), "PWD=" + proj}
	c.Stdin = strings.NewReader(claudeInput(proj, "PreToolUse", "Bash", "ls -la"))
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("hookcore-hook claude: %v: %s", err, out)
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	call := regexp.MustCompile(`^\d+\s+(\w+)\((?:AT_FDCWD, )?"([^"]*)"`)
	calls := map[string]int{}
	var lines []string
	n := 0
	for s := bufio.NewScanner(f); s.Scan(); {
		m := call.FindStringSubmatch(s.Text())
		if m == nil || m[1] == "execve" {
			continue
		}
		if p := m[2]; strings.HasPrefix(p, dir+"/") || strings.HasPrefix(p, "/etc/claude-code") || strings.HasPrefix(p, "/etc/gemini-cli") {
			calls[m[1]]++
			n++
			lines = append(lines, m[1]+" "+strings.TrimPrefix(p, dir))
		}
	}
	const most = 32
	if n > most {
		t.Errorf("%d file system calls naming the event's files, want at most %d: %v\n%s", n, most, calls, strings.Join(lines, "\n"))
	}
	if n < 20 {
		t.Errorf("%d file system calls naming the event's files: the trace missed them? %v", n, calls)
	}
	t.Logf("%d calls: %v", n, calls)
}

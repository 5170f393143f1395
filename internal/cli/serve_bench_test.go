//go:build !hookcore_lean

package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/trust"
)

// BenchmarkServeDecision: one PreToolUse decision through `hookcore serve` over loopback
// HTTP with a keep-alive client, one in-process rule (a condition and injected context: no child process; issue 9: the fast path).
// It reports the p50 and p99 latency of a request, in microseconds.
func BenchmarkServeDecision(b *testing.B) {
	dir := b.TempDir()
	policy := `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: prompt, message: "rm -rf / is never what you want"}
`
	if err := os.WriteFile(filepath.Join(dir, "hooks.yaml"), []byte(policy), 0o644); err != nil {
		b.Fatal(err)
	}
	e := &env{stdout: io.Discard, stderr: io.Discard, cwd: dir, home: dir}
	benchServe(b, newServer(e, &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok"))
}

// BenchmarkServeDecisionDiscovered is BenchmarkServeDecision with the policy discovered in
// ~/.hookcore/hooks.yaml, a ~/.claude/settings.json beside it, and a trusted project with a
// .claude/settings.json of its own: before each event serve compares every agent's config
// paths, the trust store and the project's files with what its Runner was built from (red
// team round 33).
func BenchmarkServeDecisionDiscovered(b *testing.B) {
	dir := b.TempDir()
	home, work := filepath.Join(dir, "home"), filepath.Join(dir, "work")
	for name, content := range map[string]string{
		filepath.Join(home, ".hookcore", "hooks.yaml"): `hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: prompt, message: "rm -rf / is never what you want"}
`,
		filepath.Join(home, ".claude", "settings.json"): `{"permissions": {"allow": ["Bash(ls:*)"]}, "model": "opus"}`,
		filepath.Join(work, ".git", "HEAD"):             "ref: refs/heads/main\n",
		filepath.Join(work, ".claude", "settings.json"): `{"hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "true"}]}]}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	e := &env{stdout: io.Discard, stderr: io.Discard, cwd: work, home: home}
	cf := &configFlags{dir: ".hookcore", system: systemFlags{managedDir: filepath.Join(dir, "managed"), geminiSystem: filepath.Join(dir, "gemini-cli", "settings.json")}}
	set, _, err := e.workspaceConfig(work, ".hookcore", cf.system)
	if err != nil {
		b.Fatal(err)
	}
	if err := hookcore.GrantTrust(trust.DefaultStore(home), set, work, time.Now()); err != nil {
		b.Fatal(err)
	}
	benchServe(b, newServer(e, cf, "tok"))
}

// benchServe times one PreToolUse decision of srv per iteration and reports the p50 and p99.
func benchServe(b *testing.B, srv *server) {
	ts := httptest.NewServer(srv.handler())
	defer ts.Close()
	body := []byte(`{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		req, _ := http.NewRequest("POST", ts.URL+"/hook/claude", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body) //nolint:errcheck
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

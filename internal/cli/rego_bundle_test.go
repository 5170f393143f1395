//go:build rego && !hookcore_lean

package cli_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookcore/hookcore/internal/cli"
)

// regoBundle is a bundle tarball of one policy that denies every Bash call.
func regoBundle(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range map[string]string{
		"/.manifest": `{"revision":"t1","roots":[""]}`,
		"/p.rego":    "package hookcore\ndeny contains \"team says no\" if input.tool_name == \"Bash\"\n",
	} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// TestHookRegoBundleCache: `hookcore hook claude`, one process per event, downloads a
// bundle_url bundle once per bundle_poll (it is kept in the state directory), and while the
// bundle service is down decides from the cached bundle instead of failing every call.
func TestHookRegoBundleCache(t *testing.T) {
	body := regoBundle(t)
	var gets atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gets.Add(1)
		if r.Header.Get("If-None-Match") == `"t1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"t1"`)
		w.Write(body)
	}))
	defer ts.Close()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("HOOKCORE_STATE_DIR", "")
	policy := filepath.Join(dir, "policy.yaml")
	os.WriteFile(policy, []byte("hooks:\n  - {id: team, event: pre_tool_use, action: {type: rego, bundle_url: \""+ts.URL+"/team.tar.gz\", bundle_poll: 1h, allowed_hosts: [127.0.0.1]}, on_error: block}\n"), 0o600)
	stateDir := filepath.Join(dir, "state")
	in := `{"session_id":"s1","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	event := func() string {
		var out, errb bytes.Buffer
		cli.Main([]string{"hook", "claude", "--config", policy, "--state-dir", stateDir}, strings.NewReader(in), &out, &errb)
		return out.String() + errb.String()
	}
	for i := range 3 {
		if got := event(); !strings.Contains(got, "team says no") {
			t.Fatalf("event %d: %s", i, got)
		}
	}
	if n := gets.Load(); n != 1 {
		t.Fatalf("three hook processes within bundle_poll made %d GETs, want 1", n)
	}
	ts.Close()
	m, _ := filepath.Glob(filepath.Join(stateDir, "rego-bundle-*"))
	if len(m) != 1 {
		t.Fatalf("cache files: %v", m)
	}
	if got := event(); !strings.Contains(got, "team says no") || strings.Contains(got, "connection refused") {
		t.Fatalf("with the service down: %s", got)
	}
}

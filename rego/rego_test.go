package rego

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/bundle"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/hookcore/hookcore/hook"
)

func bashInput(cmd string) *hook.Input {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return &hook.Input{HookEventName: "PreToolUse", ToolName: "Bash", ToolInput: b, SessionID: "s1"}
}

func examplePolicy(t testing.TB) string {
	t.Helper()
	return filepath.Join("..", "examples", "opa", "policy")
}

// TestExamplePolicyUnitTests runs examples/opa/policy/*_test.rego as `opa test` does, with
// OPA's own test runner.
func TestExamplePolicyUnitTests(t *testing.T) {
	results, err := tester.Run(context.Background(), examplePolicy(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) < 5 {
		t.Fatalf("only %d opa tests ran", len(results))
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("opa test %s.%s: %v", r.Package, r.Name, r)
		}
	}
}

// TestContract: each shape of the documented result contract maps onto a decision.
func TestContract(t *testing.T) {
	tests := []struct {
		name, policy string
		want         hook.Decision
		wantErr      string
	}{
		{"deny set", `deny contains "no rm" if input.tool_name == "Bash"`, hook.Decision{Block: true, Permission: hook.Deny, Reason: "no rm"}, ""},
		{"deny set, two messages sorted", `deny contains "b" if true
deny contains "a" if true`, hook.Decision{Block: true, Permission: hook.Deny, Reason: "a; b"}, ""},
		{"deny true with reason", "deny := true\nreason := \"because\"", hook.Decision{Block: true, Permission: hook.Deny, Reason: "because"}, ""},
		{"deny string", `deny := "nope"`, hook.Decision{Block: true, Permission: hook.Deny, Reason: "nope"}, ""},
		{"empty deny set decides nothing", `deny contains "x" if false`, hook.Decision{}, ""},
		{"ask", `ask contains "sure?" if true`, hook.Decision{Permission: hook.Ask, Reason: "sure?"}, ""},
		{"allow", "allow := true\nreason := \"ok\"", hook.Decision{Permission: hook.Allow, Reason: "ok"}, ""},
		{"deny wins over allow", "allow := true\ndeny := true", hook.Decision{Block: true, Permission: hook.Deny, Reason: "denied by policy"}, ""},
		{"updated input", `updated_input := {"command": "ls -la"}`, hook.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -la"}`)}, ""},
		{"context set", `additional_context contains "one" if true`, hook.Decision{AdditionalContext: "one"}, ""},
		{"system message", `system_message := "hi"`, hook.Decision{SystemMessage: "hi"}, ""},
		{"nothing", `x := 1`, hook.Decision{}, ""},
		{"allow not a bool", `allow := "yes"`, hook.Decision{}, "allow is a string"},
		{"updated input not an object", `updated_input := "ls"`, hook.Decision{}, "updated_input is a string"},
		{"deny of numbers", `deny contains 1 if true`, hook.Decision{}, "want strings"},
		{"conflict is an eval error", "x := 1 if true\nx := 2 if true", hook.Decision{}, "conflict"},
		{"conflict in a helper a decision key reads", "h := 1 if input.tool_name == \"Bash\"\nh := 2 if true\ndeny if h == 1", hook.Decision{}, "conflict"},
		{"conflict in a helper no decision key reads", "h := 1 if input.tool_name == \"Bash\"\nh := 2 if true\nallow := true", hook.Decision{}, "conflict"},
		{"conflict in a helper of a helper a key reads", "g if true\ng if h == 1\nh := 1 if input.tool_name == \"Bash\"\nh := 2 if true\ndeny if g", hook.Decision{}, "conflict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "p.rego"), []byte("package hookcore\n"+tt.policy+"\n"), 0o644)
			x, err := New(context.Background(), Options{HookID: "h", Policy: dir})
			if err != nil {
				if tt.wantErr != "" && strings.Contains(err.Error(), tt.wantErr) {
					return // a compile-time conflict
				}
				t.Fatal(err)
			}
			defer x.Close()
			got, err := x.Execute(context.Background(), bashInput("rm -rf /"))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.ExitCode = -1
			if got.Block != tt.want.Block || got.Permission != tt.want.Permission || got.Reason != tt.want.Reason ||
				string(got.UpdatedInput) != string(tt.want.UpdatedInput) || got.AdditionalContext != tt.want.AdditionalContext ||
				got.SystemMessage != tt.want.SystemMessage {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestBadPolicyIsAnError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "p.rego"), []byte("package hookcore\ndeny contains if {"), 0o644)
	if _, err := New(context.Background(), Options{Policy: dir}); err == nil {
		t.Fatal("a policy that does not parse compiled")
	}
	if _, err := New(context.Background(), Options{Policy: filepath.Join(dir, "missing")}); err == nil {
		t.Fatal("a missing policy compiled")
	}
	if _, err := New(context.Background(), Options{}); err == nil {
		t.Fatal("no source compiled")
	}
	if _, err := New(context.Background(), Options{Policy: dir, Query: "data.["}); err == nil {
		t.Fatal("a bad query compiled")
	}
}

// buildBundle writes a bundle tarball of the given modules with revision rev, signed with
// key (HS256) when key is not empty.
func buildBundle(t testing.TB, rev string, modules map[string]string, key string) []byte {
	t.Helper()
	b := bundle.Bundle{Manifest: bundle.Manifest{Revision: rev, Roots: &[]string{""}}, Data: map[string]any{}}
	for path, src := range modules {
		b.Modules = append(b.Modules, bundle.ModuleFile{URL: path, Path: path, Raw: []byte(src)})
	}
	if key != "" {
		if err := b.GenerateSignature(bundle.NewSigningConfig(key, "HS256", ""), "hookcore", false); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := bundle.NewWriter(&buf).Write(b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// bundleServer serves the current bundle with an ETag (the revision) and answers 304 to a
// matching If-None-Match, as OPA bundle servers do; down makes it answer 503.
type bundleServer struct {
	mu       sync.Mutex
	body     []byte
	etag     string
	down     atomic.Bool
	requests atomic.Int32
	notMod   atomic.Int32
}

func (s *bundleServer) set(body []byte, etag string) {
	s.mu.Lock()
	s.body, s.etag = body, etag
	s.mu.Unlock()
}

func (s *bundleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if s.down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	s.mu.Lock()
	body, etag := s.body, s.etag
	s.mu.Unlock()
	if r.Header.Get("If-None-Match") == etag {
		s.notMod.Add(1)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Type", "application/gzip")
	w.Write(body)
}

// waitFor polls cond, bounded in steps (not in an asserted time).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 2000 {
		if cond() {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s", what)
}

const v1 = "package hookcore\ndeny contains \"v1 says no\" if input.tool_name == \"Bash\"\n"
const v2 = "package hookcore\ndeny contains \"v2 says no\" if input.tool_name == \"Bash\"\n"

// TestBundleService: a bundle from a bundle server (built with OPA's bundle package) is used;
// an update is picked up without a restart; 304s are honoured; when the service goes away
// the last good bundle stays in use; a bundle that does not compile is not activated.
func TestBundleService(t *testing.T) {
	srv := &bundleServer{}
	srv.set(buildBundle(t, "r1", map[string]string{"/p.rego": v1}, ""), `"r1"`)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	x, err := New(context.Background(), Options{HookID: "h", BundleURL: ts.URL + "/bundles/hookcore.tar.gz", Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	reason := func() string {
		d, err := x.Execute(context.Background(), bashInput("ls"))
		if err != nil {
			t.Fatal(err)
		}
		return d.Reason
	}
	if got := reason(); got != "v1 says no" || x.Revision() != "r1" {
		t.Fatalf("reason %q revision %q", got, x.Revision())
	}
	waitFor(t, "a 304", func() bool { return srv.notMod.Load() > 0 })

	srv.set(buildBundle(t, "r2", map[string]string{"/p.rego": v2}, ""), `"r2"`)
	waitFor(t, "revision r2", func() bool { return x.Revision() == "r2" })
	if got := reason(); got != "v2 says no" {
		t.Fatalf("after the update: %q", got)
	}

	srv.down.Store(true)
	n := srv.requests.Load()
	waitFor(t, "polls while down", func() bool { return srv.requests.Load() > n+2 })
	if got := reason(); got != "v2 says no" || x.Revision() != "r2" {
		t.Fatalf("while the service is down: %q %q", got, x.Revision())
	}

	srv.down.Store(false)
	srv.set(buildBundle(t, "r3", map[string]string{"/p.rego": "package hookcore\ndeny contains if {"}, ""), `"r3"`)
	n = srv.requests.Load()
	waitFor(t, "polls of the broken bundle", func() bool { return srv.requests.Load() > n+2 })
	if x.Revision() != "r2" {
		t.Fatalf("a broken bundle was activated: %q", x.Revision())
	}
}

// TestSignedBundles: with a verification key, a bundle signed with it is used; an unsigned
// or wrongly signed one is refused (the first download fails New; a later one keeps the last
// good bundle).
func TestSignedBundles(t *testing.T) {
	srv := &bundleServer{}
	srv.set(buildBundle(t, "s1", map[string]string{"/p.rego": v1}, "secret"), `"s1"`)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	o := Options{BundleURL: ts.URL, Poll: 20 * time.Millisecond, VerificationKey: "secret", Algorithm: "HS256"}
	x, err := New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	srv.set(buildBundle(t, "s2", map[string]string{"/p.rego": v2}, "wrong"), `"s2"`)
	n := srv.requests.Load()
	waitFor(t, "polls", func() bool { return srv.requests.Load() > n+2 })
	if x.Revision() != "s1" {
		t.Fatalf("a bundle signed with another key was activated")
	}
	srv.set(buildBundle(t, "s3", map[string]string{"/p.rego": v2}, ""), `"s3"`)
	n = srv.requests.Load()
	waitFor(t, "polls", func() bool { return srv.requests.Load() > n+2 })
	if x.Revision() != "s1" {
		t.Fatalf("an unsigned bundle was activated")
	}
	srv.set(buildBundle(t, "s4", map[string]string{"/p.rego": v2}, "secret"), `"s4"`)
	waitFor(t, "s4", func() bool { return x.Revision() == "s4" })

	srv.set(buildBundle(t, "u1", map[string]string{"/p.rego": v1}, ""), `"u1"`)
	if _, err := New(context.Background(), o); err == nil {
		t.Fatal("an unsigned first bundle was accepted")
	}
}

// TestLocalBundle: a .tar.gz bundle on disk is a policy source.
func TestLocalBundle(t *testing.T) {
	p := filepath.Join(t.TempDir(), "b.tar.gz")
	os.WriteFile(p, buildBundle(t, "l1", map[string]string{"/p.rego": v1}, ""), 0o644)
	x, err := New(context.Background(), Options{Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	d, err := x.Execute(context.Background(), bashInput("ls"))
	if err != nil || d.Reason != "v1 says no" {
		t.Fatalf("%+v %v", d, err)
	}
}

// TestDecisionLogs: decisions reach a decision-log receiver as gzip'ed JSON arrays of OPA
// decision events; Close flushes what is left.
func TestDecisionLogs(t *testing.T) {
	var mu sync.Mutex
	var got []DecisionEvent
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Encoding") != "gzip" || r.Method != http.MethodPost {
			http.Error(w, "want a gzip POST", http.StatusBadRequest)
			return
		}
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body, _ := io.ReadAll(zr)
		var evs []DecisionEvent
		if err := json.Unmarshal(body, &evs); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, evs...)
		mu.Unlock()
	}))
	defer ts.Close()
	x, err := New(context.Background(), Options{HookID: "guard", Policy: examplePolicy(t), DecisionLogURL: ts.URL + "/logs"})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"rm -rf /", "ls", "npm install x"} {
		if _, err := x.Execute(context.Background(), bashInput(cmd)); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 3 {
		t.Fatalf("%d events arrived", len(got))
	}
	if got[0].Path != "hookcore" || got[0].Labels["hook"] != "guard" || got[0].DecisionID == "" || !strings.Contains(string(got[0].Result), "rm -rf") || !strings.Contains(string(got[0].Input), `"tool_name":"Bash"`) {
		t.Fatalf("event: %+v", got[0])
	}
}

// TestDecisionLogBufferBounded: a logger whose sender is stuck (a receiver that never
// answers) keeps at most BufferSize events and counts the rest as dropped; Log never blocks.
func TestDecisionLogBufferBounded(t *testing.T) {
	d := &DecisionLogger{log: slog.New(slog.DiscardHandler), kick: make(chan struct{}, 1)} // no sender running
	for range BufferSize + 100 {
		d.Log(DecisionEvent{DecisionID: "x"})
	}
	if d.Dropped() != 100 || len(d.buf) != BufferSize {
		t.Fatalf("dropped %d, buffered %d", d.Dropped(), len(d.buf))
	}
	// A receiver that hangs: Close gives up at its context, also while the background
	// sender has an upload in flight (it used to wait out that upload's own 30 s timeout,
	// twice), and Log still returns at once. The upload in flight is observed, not timed.
	hang := make(chan struct{})
	arrived := make(chan struct{}, 8)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(hang)
	var warnings bytes.Buffer
	l := NewDecisionLogger(ts.URL, ts.Client(), slog.New(slog.NewTextHandler(&warnings, nil)))
	for range 3 * BatchSize {
		l.Log(DecisionEvent{DecisionID: "y"})
	}
	<-arrived // the background sender is now blocked in an upload
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := l.Close(ctx); err == nil {
		t.Fatal("a flush to a hanging receiver succeeded")
	}
	if n := len(l.buf); n == 0 {
		t.Fatal("the events of the cancelled upload were lost")
	}
	// Close cancelled the upload in flight rather than waiting for its own deadline.
	if w := warnings.String(); !strings.Contains(w, "context canceled") {
		t.Fatalf("the background upload ended with %q, want it cancelled by Close", w)
	}
}

func BenchmarkRegoDecision(b *testing.B) {
	x, err := New(context.Background(), Options{Policy: examplePolicy(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	in := bashInput("cd /srv && rm -rf build")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := x.Execute(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRegoDecisionNoRm(b *testing.B) {
	x, err := New(context.Background(), Options{Policy: examplePolicy(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer x.Close()
	in := bashInput("ls -la")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := x.Execute(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExampleAsBundle: the guardrails policy of examples/opa, built into a bundle (as
// `opa build -b examples/opa/policy` does) and served by a bundle server, decides as the
// policy directory does.
func TestExampleAsBundle(t *testing.T) {
	mods := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(examplePolicy(t), "*.rego"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.rego") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mods["/"+filepath.Base(f)] = string(b)
	}
	srv := &bundleServer{}
	srv.set(buildBundle(t, "guardrails-1", mods, ""), `"g1"`)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	fromBundle, err := New(context.Background(), Options{BundleURL: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer fromBundle.Close()
	fromDir, err := New(context.Background(), Options{Policy: examplePolicy(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer fromDir.Close()
	for _, cmd := range []string{"rm -rf /", "rm -r x", "npm install y", "ls", "sudo rm -Rf z"} {
		a, err1 := fromBundle.Execute(context.Background(), bashInput(cmd))
		b, err2 := fromDir.Execute(context.Background(), bashInput(cmd))
		if err1 != nil || err2 != nil || a.Block != b.Block || a.Reason != b.Reason || string(a.UpdatedInput) != string(b.UpdatedInput) {
			t.Errorf("%q: bundle %+v %v, dir %+v %v", cmd, a, err1, b, err2)
		}
	}
}

package rego

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// cacheFile is the one bundle cache file in dir.
func cacheFile(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "rego-bundle-*"))
	if len(m) != 1 {
		t.Fatalf("cache files in %s: %v", dir, m)
	}
	return m[0]
}

// age makes the cache file in dir look fetched d ago, and returns that time.
func age(t *testing.T, dir string, d time.Duration) time.Time {
	t.Helper()
	old := time.Now().Add(-d)
	if err := os.Chtimes(cacheFile(t, dir), old, old); err != nil {
		t.Fatal(err)
	}
	return old
}

// process builds an executor as one hook process does, decides one event and closes it.
func process(t *testing.T, o Options) (string, error) {
	t.Helper()
	x, err := New(context.Background(), o)
	if err != nil {
		return "", err
	}
	defer x.Close()
	d, err := x.Execute(context.Background(), bashInput("ls"))
	if err != nil {
		t.Fatal(err)
	}
	return d.Reason, nil
}

// TestBundleCacheAcrossProcesses: with a cache directory, a second executor (a second hook
// process) within bundle_poll decides from the cached bundle without a request; after
// bundle_poll it revalidates with If-None-Match (a 304 refreshes the cache's time); with the
// service gone it still decides from the cache.
func TestBundleCacheAcrossProcesses(t *testing.T) {
	srv := &bundleServer{}
	srv.set(buildBundle(t, "r1", map[string]string{"/p.rego": v1}, ""), `"r1"`)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cache := t.TempDir()
	var logs bytes.Buffer
	o := Options{BundleURL: ts.URL + "/team.tar.gz", Poll: time.Hour, CacheDir: cache, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	for i := range 3 {
		if got, err := process(t, o); err != nil || got != "v1 says no" {
			t.Fatalf("process %d: %q %v", i, got, err)
		}
	}
	if n := srv.requests.Load(); n != 1 {
		t.Fatalf("three processes within bundle_poll made %d requests, want 1", n)
	}
	st, err := os.Lstat(cacheFile(t, cache))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("cache file mode %v %v", st.Mode(), err)
	}

	aged := age(t, cache, 2*time.Hour)
	if got, err := process(t, o); err != nil || got != "v1 says no" {
		t.Fatalf("after bundle_poll: %q %v", got, err)
	}
	if srv.requests.Load() != 2 || srv.notMod.Load() != 1 {
		t.Fatalf("after bundle_poll: %d requests, %d 304s; want a conditional GET answered 304", srv.requests.Load(), srv.notMod.Load())
	}
	if st, _ := os.Stat(cacheFile(t, cache)); !st.ModTime().After(aged) {
		t.Fatalf("a 304 did not refresh the cache's time: %v", st.ModTime())
	}
	if got, err := process(t, o); err != nil || got != "v1 says no" || srv.requests.Load() != 2 {
		t.Fatalf("after the 304: %q %v, %d requests", got, err, srv.requests.Load())
	}

	// A new bundle after bundle_poll replaces the cached one.
	srv.set(buildBundle(t, "r2", map[string]string{"/p.rego": v2}, ""), `"r2"`)
	age(t, cache, 2*time.Hour)
	if got, err := process(t, o); err != nil || got != "v2 says no" {
		t.Fatalf("a new bundle: %q %v", got, err)
	}
	if got, err := process(t, o); err != nil || got != "v2 says no" || srv.requests.Load() != 3 {
		t.Fatalf("the new bundle from the cache: %q %v, %d requests", got, err, srv.requests.Load())
	}

	// The service is gone: a cache older than bundle_poll, younger than the maximum, decides
	// with a warning naming its age.
	ts.Close()
	age(t, cache, 3*time.Hour)
	logs.Reset()
	if got, err := process(t, o); err != nil || got != "v2 says no" {
		t.Fatalf("service down: %q %v", got, err)
	}
	if !strings.Contains(logs.String(), "cached bundle") || !strings.Contains(logs.String(), "age=3h") {
		t.Fatalf("no warning naming the cache's age: %s", logs.String())
	}
}

// TestBundleCacheThroughRunner: two Runners built in a row with CachedFactory (two hook
// processes) make one request.
func TestBundleCacheThroughRunner(t *testing.T) {
	srv := &bundleServer{}
	srv.set(buildBundle(t, "r1", map[string]string{"/p.rego": v1}, ""), `"r1"`)
	ts := newLoopbackServer(t, srv)
	dir, cache := t.TempDir(), t.TempDir()
	cfg := "hooks:\n  - {id: b, event: pre_tool_use, action: {type: rego, bundle_url: \"" + ts + "/team.tar.gz\", bundle_poll: 5s, allowed_hosts: [127.0.0.1]}, on_error: block}\n"
	for i := range 2 {
		r := loadRunner(t, dir, cfg, map[string]hookcore.ExecutorFactory{config.TypeRego: CachedFactory(cache)})
		if res := r.Fire(context.Background(), hook.PreToolUse, bashInput("ls")); res.Reason != "v1 says no" {
			t.Fatalf("runner %d: %+v", i, res)
		}
	}
	if n := srv.requests.Load(); n != 1 {
		t.Fatalf("two hook processes within bundle_poll made %d requests, want 1", n)
	}
}

// TestBundleCacheUntrusted: a damaged cache file, a symlink or a too old one is not used;
// a cached bundle is verified again when a verification key is set.
func TestBundleCacheUntrusted(t *testing.T) {
	srv := &bundleServer{}
	srv.set(buildBundle(t, "r1", map[string]string{"/p.rego": v1}, ""), `"r1"`)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cache := t.TempDir()
	o := Options{BundleURL: ts.URL, Poll: time.Hour, MaxStale: 24 * time.Hour, CacheDir: cache}
	if _, err := process(t, o); err != nil {
		t.Fatal(err)
	}
	f := cacheFile(t, cache)
	good, _ := os.ReadFile(f)

	// Damaged: ignored and downloaded again (and the cache repaired).
	os.WriteFile(f, []byte("not a bundle"), 0o600)
	if got, err := process(t, o); err != nil || got != "v1 says no" || srv.requests.Load() != 2 {
		t.Fatalf("damaged cache: %q %v, %d requests", got, err, srv.requests.Load())
	}
	if b, _ := os.ReadFile(f); !bytes.Equal(b, good) {
		t.Fatal("the damaged cache was not replaced")
	}

	// A symlink to a good cache file is not followed.
	other := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(other, good, 0o600)
	os.Remove(f)
	if err := os.Symlink(other, f); err != nil {
		t.Fatal(err)
	}
	if _, err := process(t, o); err != nil || srv.requests.Load() != 3 {
		t.Fatalf("symlinked cache: %v, %d requests", err, srv.requests.Load())
	}
	if st, _ := os.Lstat(f); !st.Mode().IsRegular() {
		t.Fatal("the symlink was not replaced by a regular file")
	}

	// Down: a cache past the maximum staleness is the old failure.
	srv.down.Store(true)
	age(t, cache, 30*time.Hour)
	if _, err := process(t, o); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a cache past the maximum staleness was used: %v", err)
	}
	age(t, cache, 2*time.Hour)
	if got, err := process(t, o); err != nil || got != "v1 says no" {
		t.Fatalf("a cache within the maximum: %q %v", got, err)
	}

	// A verification key: the cached (unsigned) bundle is verified again and refused.
	o.VerificationKey, o.Algorithm = "secret", "HS256"
	if _, err := process(t, o); err == nil {
		t.Fatal("an unsigned cached bundle was used under a verification key")
	}
}

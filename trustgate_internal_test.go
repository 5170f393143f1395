package hookcore

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// TestUntrustedWorkspaceComputesNoCover: a Runner over an untrusted workspace, or one whose
// config changed since it was trusted, never resolves its project hooks' scripts. The cover
// resolves the command's words against the repository's files, globs included, and an
// untrusted repository chose both: `cat l*/l*/…/l*` through symlinks to "." grew without
// bound and hung every hook event (stop 23, red team). A trusted config's hooks still get
// their cover (a changed script makes them pending).
func TestUntrustedWorkspaceComputesNoCover(t *testing.T) {
	var covers atomic.Int64
	old := coverHook
	coverHook = func(h *config.Hook, f *config.File, root string, memo hashMemo) HookCover {
		covers.Add(1)
		return old(h, f, root, memo)
	}
	t.Cleanup(func() { coverHook = old })

	root := t.TempDir()
	for i := range 8 {
		if err := os.Symlink(".", filepath.Join(root, "l"+string(rune('0'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(root, ".hookcore", "hooks.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(cmd string) *config.Set {
		if err := os.WriteFile(cfg, []byte("hooks:\n  - {id: repo, event: pre_tool_use, action: {type: command, command: '"+cmd+"'}}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		set, probs := config.Load([]config.LayerPath{{Path: cfg, Layer: config.Project}})
		if probs.Err() != nil {
			t.Fatal(probs)
		}
		return set
	}
	store := &trust.Store{Path: filepath.Join(t.TempDir(), "trust.json")}
	compile := func(set *config.Set) {
		t.Helper()
		if _, err := New(set, Options{Trust: store, ProjectDir: root}); err != nil {
			t.Fatal(err)
		}
	}

	compile(write("cat l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*"))
	if n := covers.Load(); n != 0 {
		t.Errorf("untrusted workspace: %d covers computed, want 0", n)
	}

	trusted := write("./x.sh")
	if err := GrantTrust(store, trusted, root, time.Now()); err != nil {
		t.Fatal(err)
	}
	covers.Store(0)
	compile(trusted)
	if n := covers.Load(); n != 1 {
		t.Errorf("trusted workspace: %d covers computed, want 1", n)
	}

	covers.Store(0)
	compile(write("cat l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*/l*"))
	if n := covers.Load(); n != 0 {
		t.Errorf("config changed since trusted: %d covers computed, want 0", n)
	}
}

package trust

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestGrantTrustedRevoke(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ws := t.TempDir()
	s := DefaultStore(home)
	d := Digest("a\x00h1", "b\x00h2")

	if ok, err := s.Trusted(ws, d); err != nil || ok {
		t.Fatalf("fresh store: Trusted = %v, %v; want false, nil", ok, err)
	}
	if err := s.Grant(ws, d, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Trusted(ws, d); err != nil || !ok {
		t.Fatalf("after Grant: Trusted = %v, %v; want true, nil", ok, err)
	}
	if ok, _ := s.Trusted(ws, Digest("a\x00changed")); ok {
		t.Fatal("a changed digest must not be trusted")
	}
	had, err := s.Revoke(ws)
	if err != nil || !had {
		t.Fatalf("Revoke = %v, %v; want true, nil", had, err)
	}
	if ok, _ := s.Trusted(ws, d); ok {
		t.Fatal("revoked workspace still trusted")
	}
	if had, err := s.Revoke(ws); err != nil || had {
		t.Fatalf("second Revoke = %v, %v; want false, nil", had, err)
	}
}

func TestDigestOrderIndependent(t *testing.T) {
	t.Parallel()
	if Digest("x", "y") != Digest("y", "x") {
		t.Fatal("digest depends on order")
	}
	if Digest("x") == Digest("y") {
		t.Fatal("different parts, same digest")
	}
}

func TestSymlinkedWorkspaceIsOneEntry(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	ws := filepath.Join(dir, "real")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	s := DefaultStore(home)
	if err := s.Grant(link, "d", time.Now()); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Trusted(ws, "d"); err != nil || !ok {
		t.Fatalf("trust granted through a symlink not seen at the real path: %v, %v", ok, err)
	}
}

func TestCorruptStoreFailsClosed(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := DefaultStore(home)
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok, err := s.Trusted(t.TempDir(), "d")
	if ok || err == nil {
		t.Fatalf("corrupt store: Trusted = %v, %v; want false and an error", ok, err)
	}
	if err := s.Grant(t.TempDir(), "d", time.Now()); err == nil {
		t.Fatal("Grant over a corrupt store must fail, not overwrite what the user wrote")
	}
}

// TestEntryChanges: Put keeps an entry's Files, and Changes names the files changed, added
// and removed since, sorted; an entry without Files (written before them) knows none.
func TestEntryChanges(t *testing.T) {
	t.Parallel()
	s := DefaultStore(t.TempDir())
	ws := t.TempDir()
	granted := map[string]string{".hookcore/hooks.yaml": "h1", ".hookcore/hooks.local.yaml": "h2", "b.yaml": "h3"}
	if err := s.Put(ws, Entry{Digest: "d", Hooks: []string{}, Files: granted, Time: time.Now()}); err != nil {
		t.Fatal(err)
	}
	e, ok, err := s.Lookup(ws)
	if err != nil || !ok {
		t.Fatalf("Lookup = %v, %v", ok, err)
	}
	changed, added, removed, known := e.Changes(map[string]string{".hookcore/hooks.yaml": "h1x", "b.yaml": "h3", "z.yaml": "h", "a.yaml": "h"})
	if diff := cmp.Diff([][]string{{".hookcore/hooks.yaml"}, {"a.yaml", "z.yaml"}, {".hookcore/hooks.local.yaml"}}, [][]string{changed, added, removed}); diff != "" || !known {
		t.Errorf("Changes (-want +got):\n%s (known %v)", diff, known)
	}
	if _, _, _, known := (Entry{Digest: "d"}).Changes(granted); known {
		t.Error("an entry without Files knows its changes")
	}
}

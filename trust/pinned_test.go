package trust

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestPinnedReadsOnce: a pinned store answers every lookup from its first read of the file
// (issue 9: one read per hook event, where Enclosing, Lookup and the Runner's trust gate read
// it three times): what another Store writes after that read is not seen by it — which shows
// that it did not read the file again — and is seen by a store pinned after, and by the
// Store itself.
func TestPinnedReadsOnce(t *testing.T) {
	t.Parallel()
	home, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	s := DefaultStore(home)
	d := Digest("a")
	if err := s.Grant(a, d, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	p := s.Pinned()
	if ws, ok, err := p.Enclosing(filepath.Join(a, "sub")); err != nil || !ok || ws != canonical(t, a) {
		t.Fatalf("Enclosing(a/sub) = %q, %v, %v", ws, ok, err)
	}
	// Another process revokes a and trusts b; then the store is corrupt.
	if _, err := s.Revoke(a); err != nil {
		t.Fatal(err)
	}
	if err := s.Grant(b, d, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	if ok, err := p.Trusted(a, d); err != nil || !ok {
		t.Errorf("pinned Trusted(a) after a revoke elsewhere = %v, %v; want its first read's true", ok, err)
	}
	if _, ok, err := p.Lookup(b); err != nil || ok {
		t.Errorf("pinned Lookup(b) after a grant elsewhere = %v, %v; want its first read's false", ok, err)
	}
	if ok, err := s.Pinned().Trusted(b, d); err != nil || !ok {
		t.Errorf("a new pin: Trusted(b) = %v, %v", ok, err)
	}
	if ok, err := s.Trusted(a, d); err != nil || ok {
		t.Errorf("the Store: Trusted(a) = %v, %v", ok, err)
	}
	if err := os.WriteFile(s.Path, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := p.Lookup(a); err != nil || !ok {
		t.Errorf("pinned Lookup(a), store corrupt since = %v, %v; want its first read", ok, err)
	}
	if _, _, err := s.Pinned().Lookup(a); err == nil {
		t.Error("a new pin read a corrupt store without an error")
	}
}

// TestPinnedWrites: a pinned store's writes read the file afresh (a grant another process made
// after the pin's read is kept), and its lookups after a write read what was written.
func TestPinnedWrites(t *testing.T) {
	t.Parallel()
	home, a, b := t.TempDir(), t.TempDir(), t.TempDir()
	s := DefaultStore(home)
	p := s.Pinned()
	d := Digest("x")
	if _, ok, err := p.Lookup(a); err != nil || ok {
		t.Fatalf("Lookup(a) of no store = %v, %v", ok, err)
	}
	if err := s.Grant(b, d, time.Unix(0, 0)); err != nil { // elsewhere, after the pin's read
		t.Fatal(err)
	}
	if err := p.Grant(a, d, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	for _, ws := range []string{a, b} {
		if ok, err := p.Trusted(ws, d); err != nil || !ok {
			t.Errorf("pinned Trusted(%s) after its grant = %v, %v", ws, ok, err)
		}
		if ok, err := s.Trusted(ws, d); err != nil || !ok {
			t.Errorf("Trusted(%s) after the pinned grant = %v, %v", ws, ok, err)
		}
	}
	if had, err := p.Revoke(a); err != nil || !had {
		t.Fatalf("pinned Revoke(a) = %v, %v", had, err)
	}
	if _, ok, _ := p.Lookup(a); ok {
		t.Error("pinned Lookup(a) after its revoke found it")
	}
}

// TestPinnedResolvesOnce: a pinned store resolves a workspace's symbolic links once (the
// workspace's path was resolved, one lstat per element, at each of an event's three
// lookups); a link changed since is the next pin's.
func TestPinnedResolvesOnce(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	one, two, link := filepath.Join(dir, "one"), filepath.Join(dir, "two"), filepath.Join(dir, "link")
	for _, d := range []string{one, two} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(one, link); err != nil {
		t.Skip(err)
	}
	s := DefaultStore(home)
	if err := s.Grant(one, Digest("one"), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	if err := s.Grant(two, Digest("two"), time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	p := s.Pinned()
	if e, ok, err := p.Lookup(link); err != nil || !ok || e.Digest != Digest("one") {
		t.Fatalf("Lookup(link to one) = %v, %v, %v", e, ok, err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(two, link); err != nil {
		t.Fatal(err)
	}
	if e, _, _ := p.Lookup(link); e.Digest != Digest("one") {
		t.Errorf("pinned Lookup(link) after the link changed = %s; want one's, resolved once", e.Digest)
	}
	if c, err := p.Canonical(link); err != nil || c != canonical(t, one) {
		t.Errorf("pinned Canonical(link) = %q, %v", c, err)
	}
	if e, _, _ := s.Pinned().Lookup(link); e.Digest != Digest("two") {
		t.Errorf("a new pin: Lookup(link) = %s; want two's", e.Digest)
	}
	if c, err := s.Canonical(link); err != nil || c != canonical(t, two) {
		t.Errorf("the Store: Canonical(link) = %q, %v", c, err)
	}
}

// TestPinnedConcurrent: lookups and a write of one pinned store, at once (go test -race).
func TestPinnedConcurrent(t *testing.T) {
	t.Parallel()
	home, a := t.TempDir(), t.TempDir()
	p := DefaultStore(home).Pinned()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, _, err := p.Lookup(a); err != nil {
					t.Error(err)
				}
				if _, _, err := p.Enclosing(a); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		if err := p.Grant(a, Digest("a"), time.Unix(0, 0)); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	if ok, err := p.Trusted(a, Digest("a")); err != nil || !ok {
		t.Errorf("Trusted after the grant = %v, %v", ok, err)
	}
}

func canonical(t *testing.T, ws string) string {
	t.Helper()
	c, err := Canonical(ws)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

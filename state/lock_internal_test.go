//go:build unix

package state

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestLockFileBounded: a lock another process keeps is given up after maxLockTries polls,
// with an error, not waited for until the agent kills the hook (red team round 58: a
// background flock held it for 700 s and the hook let the call through at the agent's
// timeout). The polls are bounded, not the time.
func TestLockFileBounded(t *testing.T) {
	old := maxLockTries
	maxLockTries = 5
	t.Cleanup(func() { maxLockTries = old })
	path := filepath.Join(t.TempDir(), "s.json")
	holder, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := syscall.Flock(int(holder.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockFile(context.Background(), f); err == nil {
		t.Fatal("lockFile took a lock another file description holds")
	}
}

// TestUpdateTorn: a session file that is no state (garbage, or larger than MaxSessionBytes)
// starts over with Torn set, so the tripwire can say its baseline is gone.
func TestUpdateTorn(t *testing.T) {
	t.Parallel()
	d := &Dir{Path: filepath.Join(t.TempDir(), "state")}
	ctx := context.Background()
	if err := d.Update(ctx, "s", func(s *Session) { s.Stops = 1 }); err != nil {
		t.Fatal(err)
	}
	var torn bool
	if err := d.Update(ctx, "s", func(s *Session) { torn = s.Torn }); err != nil || torn {
		t.Fatalf("a good file: torn %v, err %v", torn, err)
	}
	for name, content := range map[string]string{"garbage": "{not json", "over the bound": string(make([]byte, MaxSessionBytes+1))} {
		if err := os.WriteFile(d.file("s"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := d.Update(ctx, "s", func(s *Session) { torn = s.Torn }); err != nil || !torn {
			t.Errorf("%s: torn %v, err %v; want torn", name, torn, err)
		}
	}
}

package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestApprovals(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := DefaultStore(home)
	d := HookDigest("command", "./guard.sh", "/p/.hookcore/hooks.yaml:3")

	if ok, err := s.Approved(d); ok || err != nil {
		t.Fatalf("fresh store: Approved = %v, %v", ok, err)
	}
	a := Approval{ID: "guard", Type: "command", Target: "./guard.sh", Source: "/p/.hookcore/hooks.yaml:3", Time: time.Unix(100, 0)}
	if err := s.Approve(d, a); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Approved(d); !ok || err != nil {
		t.Fatalf("after Approve: Approved = %v, %v", ok, err)
	}
	all, err := s.Approvals()
	if err != nil {
		t.Fatal(err)
	}
	a.Time = a.Time.UTC()
	if diff := cmp.Diff(map[string]Approval{d: a}, all); diff != "" {
		t.Errorf("Approvals (-want +got):\n%s", diff)
	}
	if got := s.ApprovalsPath(); got != filepath.Join(home, ".hookcore", "approvals.json") {
		t.Errorf("ApprovalsPath = %s", got)
	}

	// Trusting a workspace does not disturb approvals, and approvals do not disturb trust.
	ws := t.TempDir()
	if err := s.Grant(ws, "digest", time.Now()); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.Approved(d); !ok {
		t.Error("Grant lost an approval")
	}
	if ok, _ := s.Trusted(ws, "digest"); !ok {
		t.Error("Approve lost trust")
	}

	had, err := s.Unapprove(d)
	if !had || err != nil {
		t.Fatalf("Unapprove = %v, %v", had, err)
	}
	if had, _ := s.Unapprove(d); had {
		t.Error("second Unapprove found an approval")
	}
	if ok, _ := s.Approved(d); ok {
		t.Error("still approved after Unapprove")
	}
}

func TestHookDigest(t *testing.T) {
	t.Parallel()
	base := HookDigest("command", "ls", "a.yaml:1")
	for _, other := range []string{
		HookDigest("http", "ls", "a.yaml:1"),
		HookDigest("command", "ls -la", "a.yaml:1"),
		HookDigest("command", "ls", "a.yaml:2"),
		HookDigest("command", "ls\x00a.yaml:1", ""), // fields cannot run into each other
	} {
		if other == base {
			t.Errorf("digest collision with %s", other)
		}
	}
	if len(base) != 64 || HookDigest("command", "ls", "a.yaml:1") != base {
		t.Errorf("digest %q is not a stable hex SHA-256", base)
	}
}

func TestApprovalsCorruptFailsClosed(t *testing.T) {
	t.Parallel()
	s := DefaultStore(t.TempDir())
	if err := os.MkdirAll(filepath.Dir(s.ApprovalsPath()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.ApprovalsPath(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok, err := s.Approved("x")
	if ok || err == nil || !strings.Contains(err.Error(), "approvals file") {
		t.Errorf("Approved = %v, %v; want false and an error naming the file", ok, err)
	}
	if err := s.Approve("x", Approval{}); err == nil {
		t.Error("Approve over a corrupt file succeeded")
	}
}

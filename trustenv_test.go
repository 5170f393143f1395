package hookcore_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// TestGrantTrustEnv: GrantTrustEnv binds the project env files the user reviewed
// (trust.Entry.Env), and EnvAccepted holds for them as they are and not once they change;
// GrantTrust (--trust, which lists nothing) keeps what an earlier grant accepted, which
// accepts only the env the user reviewed (stop 29).
func TestGrantTrustEnv(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	p := filepath.Join(ws, ".claude", "settings.json")
	if err := os.Mkdir(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(content string) config.ProjectEnv {
		t.Helper()
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		pe, err := config.ReadProjectEnv(p, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		return pe
	}
	store := trust.NewStore(filepath.Join(t.TempDir(), "trust.json"))
	set := &config.Set{}
	lookup := func() trust.Entry {
		t.Helper()
		e, ok, err := store.Lookup(ws)
		if err != nil || !ok {
			t.Fatalf("lookup: %v %v", ok, err)
		}
		return e
	}
	reviewed := write(`{"env": {"JAVA_HOME": "/usr/lib/jvm/17"}}`)
	if err := hookcore.GrantTrust(store, set, ws, time.Now()); err != nil {
		t.Fatal(err)
	}
	if hookcore.EnvAccepted(lookup(), reviewed) {
		t.Error("a grant without the env listed accepts it")
	}
	if err := hookcore.GrantTrustEnv(store, set, ws, []config.ProjectEnv{reviewed}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if !hookcore.EnvAccepted(lookup(), reviewed) {
		t.Error("the granted env is not accepted")
	}
	changed := write(`{"env": {"JAVA_HOME": "/tmp/jdk"}}`)
	if hookcore.EnvAccepted(lookup(), changed) {
		t.Error("a changed env is accepted")
	}
	if err := hookcore.GrantTrust(store, set, ws, time.Now()); err != nil {
		t.Fatal(err)
	}
	if e := lookup(); !hookcore.EnvAccepted(e, reviewed) || hookcore.EnvAccepted(e, changed) {
		t.Error("GrantTrust did not keep the env accepted as it was reviewed")
	}
}

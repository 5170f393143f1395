//go:build !hookcore_lean

package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestModelsResolver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "judge.json"), []byte(`[{"text": "{\"ok\": false, \"reason\": \"scripted\"}"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	resolve := (&env{cwd: dir}).models()
	m, err := resolve("scripted:judge.json")
	if err != nil {
		t.Fatal(err)
	}
	reply, err := m.Complete(context.Background(), "sys", "prompt")
	if err != nil || reply != `{"ok": false, "reason": "scripted"}` {
		t.Errorf("Complete = %q, %v", reply, err)
	}
	if m, err := resolve("scripted:missing.json"); err == nil || m != nil {
		t.Errorf("missing script: %v, %v", m, err)
	}
}

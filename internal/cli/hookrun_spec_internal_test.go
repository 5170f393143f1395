//go:build !hookcore_lean

package cli

import (
	"slices"
	"testing"

	"github.com/hookcore/hookcore/internal/policytest"
)

// TestSpecRuns: a policy test file's hook_runs: gives the same paths as the hook command
// would find on a machine with that PATH, without looking at this one.
func TestSpecRuns(t *testing.T) {
	t.Parallel()
	runs := specRuns(&policytest.Runs{
		Path:     []string{"/h/go/bin", "/h/.local/bin", "/usr/bin", "/bin"},
		Programs: map[string]string{"python3": "/usr/bin/python3.11", "/bin/sh": "/bin/sh", "jq": ""},
	})
	programs, startup := guardPaths(runs, runView{home: "/h", getenv: func(string) string { return "" }})
	want := []string{"/bin/sh", "/h/go/bin/jq", "/h/.local/bin/jq", "/usr/bin/jq", "/bin/jq", "/usr/bin/python3.11", "/h/go/bin/python3", "/h/.local/bin/python3"}
	if !slices.Equal(programs, want) {
		t.Errorf("programs %q, want %q", programs, want)
	}
	for _, p := range []string{"/h/.jq", "/h/.local/lib/python3.11/site-packages", "/usr/lib/python3.11", "/etc/ld.so.preload"} {
		if !slices.Contains(startup, p) {
			t.Errorf("startup lacks %s: %q", p, startup)
		}
	}
}

package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamples loads every config file under examples/: each must parse with no problem at
// all, Lint must find every script and program it names (except the external tools of
// exampleTools, which this machine may lack), and every script must be executable.
func TestExamples(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "examples")
	var configs, scripts []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		slash := filepath.ToSlash(p)
		switch ext := filepath.Ext(p); {
		case strings.Contains(slash, "/inputs/") || strings.Contains(slash, "/testdata/") ||
			strings.HasSuffix(slash, "demo/script.json") || strings.HasSuffix(slash, ".test.yaml"):
			// event inputs, the policy tests' fixture projects, the demo's scripted model and
			// policy tests, not configs
		case ext == ".yaml" || ext == ".yml" || ext == ".json":
			configs = append(configs, p)
		case strings.Contains(filepath.ToSlash(p), "/scripts/"):
			scripts = append(scripts, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(configs) < 4 {
		t.Fatalf("found only %d example configs: %v", len(configs), configs)
	}
	for _, p := range configs {
		t.Run(filepath.ToSlash(p), func(t *testing.T) {
			t.Parallel()
			f, errs := ParseFile(p, Explicit)
			if len(errs) != 0 {
				t.Fatalf("problems:\n%v", errs)
			}
			if len(f.Hooks) == 0 {
				t.Fatal("no hooks")
			}
			var l ErrorList
			for _, p := range Lint(f, LintOptions{}) {
				if !externalTool(p.Msg) {
					l = append(l, p)
				}
			}
			if len(l) != 0 {
				t.Errorf("lint:\n%v", l)
			}
		})
	}
	for _, p := range scripts {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", p)
		}
	}
}

// exampleTools are the programs the examples run that are not part of a base system.
var exampleTools = []string{"black", "python3"}

// externalTool reports whether msg is Lint's warning that one of exampleTools is not in PATH.
func externalTool(msg string) bool {
	for _, tool := range exampleTools {
		if msg == "program "+quote(tool)+" not found in PATH" {
			return true
		}
	}
	return false
}

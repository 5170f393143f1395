package config

import (
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse as a YAML and as a JSON file: it must never
// panic, must return a File, and a File with errors must have no hooks.
func FuzzParse(f *testing.F) {
	for _, s := range []string{case01, case05, case10, case11, case24user, case42codebot, case42claude, case43b,
		"", "hooks:\n", "disable_all_hooks: true\n", "a: &x {b: 1}\nc: *x\n", "hooks: [*x]\n",
		"hooks:\n  - <<: [*a, *b]\n", "{\"hooks\": {\"Stop\": [{\"hooks\": null}]}}",
		"hooks:\n  - event: stop\n    if: 'a == \"\\xff\" && b || c'\n    action: {type: command, command: x}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"hooks.yaml", "settings.json"} {
			file, errs := Parse(name, data, Project)
			if file == nil {
				t.Fatal("nil File")
			}
			if errs.Errors() > 0 && len(file.Hooks) > 0 {
				t.Fatalf("%d hooks despite errors: %v", len(file.Hooks), errs)
			}
			for _, p := range errs {
				_ = p.Error()
			}
			_ = Lint(file, LintOptions{Tools: []string{"Bash"}})
		}
	})
}

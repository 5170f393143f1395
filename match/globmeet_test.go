package match

import (
	"strings"
	"testing"
)

// TestGlobsMeet: globsMeet finds a path both globs match, and with written one whose every
// run of the rule's literals takes a byte the tool's glob writes. The rule is anchored at
// /p (an unmarked prefix), the tool's glob is under /p, as a search of the project names it.
func TestGlobsMeet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rule, glob    string
		meet, written bool
	}{
		{"**/.env/**", "**/.env", true, true},
		{"**/.env/**", "**/*", true, false},
		{"**/.env/**", "*", true, false},
		{"**/.env/**", "**/.e*", true, true},
		{"**/.env/**", "**/.en?", true, true},
		{"**/.env/**", "**/*.env", true, true},
		{"**/.env/**", "**/[.]env", true, true},
		{"**/.env/**", "**/[!a]env", true, true}, // "env" is written
		{"**/.env/**", "**/.ENV", true, false},   // inside a directory .env
		{"**/.env", "**/.ENV", false, false},
		{"**/.env/**", "**/*.go", true, false},
		{"**/.env", "**/*.go", false, false},
		{"**/.env/**", "**/{a,.env}", true, true},
		{"**/.env", "**/{*.go,*.ts}", false, false},
		{"**/.env/**", "**/@(.env|x)", true, true},
		{"**/.env/**", "**/!(x)", true, false},
		{"**/.env/**", "src/**", true, false},
		{"**/.env/**", `**/\.env`, true, true},
		{"secrets/**", "secrets/*", true, true},
		{"secrets/**", "**/*.go", true, false},
		{"secrets/**", "*/key.txt", true, false},
		{"secrets/**", "s*/**", true, true},
		{"secrets/**", "lib/**", false, false},
		{"secrets/*.txt/**", "secrets/*", true, false},
		{"secrets/*.txt/**", "secrets/*.txt", true, true},
		{"**", "*", true, true},
		{"**/*.pem/**", "*.pem", true, true},
		{"**/*.pem/**", "*", true, false},
		{"**/*.pem/**", "*.p*", true, true},
		{"[", "[", true, true},
		{"a{b", "a{b", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.rule+" "+tt.glob, func(t *testing.T) {
			t.Parallel()
			rule := compileGlob("", false, tt.rule, false, false).after("/p/")
			tool := compileGlob("/p/", true, tt.glob, false, true)
			if got, ok := globsMeet(rule, tool, false); !ok || got != tt.meet {
				t.Errorf("globsMeet = %v, %v; want %v", got, ok, tt.meet)
			}
			if got, ok := globsMeet(rule, tool, true); !ok || got != tt.written {
				t.Errorf("globsMeet written = %v, %v; want %v", got, ok, tt.written)
			}
		})
	}
}

// TestGlobsMeetFold: a tool's glob compiled with fold matches either case.
func TestGlobsMeetFold(t *testing.T) {
	t.Parallel()
	rule := compileGlob("", false, "**/.env/**", false, false).after("/p/")
	tool := compileGlob("/P/", true, "**/.E[N]V", true, true)
	if got, ok := globsMeet(rule, tool, true); !ok || !got {
		t.Errorf("globsMeet = %v, %v; want true", got, ok)
	}
}

// TestGlobsMeetBounded: automata too large to run together are refused (ok false), in
// bounded time, and a long glob within the bound is run.
func TestGlobsMeetBounded(t *testing.T) {
	t.Parallel()
	rule := compileGlob("", false, "**/.env/**", false, false).after("/p/")
	huge := compileGlob("/p/", true, strings.Repeat("*a", 1<<15), false, true)
	if _, ok := globsMeet(rule, huge, true); ok {
		t.Error("globsMeet ran a product past maxGlobStates")
	}
	long := compileGlob("/p/", true, strings.Repeat("{a,*}", 2000)+".env", false, true)
	if got, ok := globsMeet(rule, long, true); !ok || !got {
		t.Errorf("globsMeet = %v, %v; want true", got, ok)
	}
}

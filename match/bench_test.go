package match

import (
	"encoding/json"
	"testing"
)

func BenchmarkMatcherExactNoMatch(b *testing.B) {
	m, err := CompileMatcher("Edit|Write|MultiEdit")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if m.Match("Bash") {
			b.Fatal("unexpected match")
		}
	}
}

func BenchmarkMatcherRegexNoMatch(b *testing.B) {
	m, err := CompileMatcher("mcp__github__.*")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if m.Match("Bash") {
			b.Fatal("unexpected match")
		}
	}
}

// BenchmarkIfCondition measures one event: a new Subject and a two-clause condition that
// decodes the arguments.
func BenchmarkIfCondition(b *testing.B) {
	f, err := CompileIf(`tool == "Bash" && args.command =~ /rm\s+-rf\s+\//`)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"rm -rf ./build","description":"clean"}`)
	b.ReportAllocs()
	for b.Loop() {
		if f.Match(NewSubject("PreToolUse", "Bash", args)) {
			b.Fatal("unexpected match")
		}
	}
}

// BenchmarkIfConditionToolOnly measures a condition decided without reading the arguments.
func BenchmarkIfConditionToolOnly(b *testing.B) {
	f, err := CompileIf(`tool == "WriteFile" && args.path ~= "vendor/**"`)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"ls"}`)
	b.ReportAllocs()
	for b.Loop() {
		if f.Match(NewSubject("PreToolUse", "Bash", args)) {
			b.Fatal("unexpected match")
		}
	}
}

// BenchmarkIfRuleBash measures one event: a new Subject, parsing a compound command and
// matching Bash(rm *) against its simple commands.
func BenchmarkIfRuleBash(b *testing.B) {
	f, err := CompileIf("Bash(rm *)")
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"command":"cd /tmp/build && ls | head -1 ; make clean"}`)
	b.ReportAllocs()
	for b.Loop() {
		if f.Match(NewSubject("PreToolUse", "Bash", args)) {
			b.Fatal("unexpected match")
		}
	}
}

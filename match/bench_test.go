package match

import (
	"encoding/json"
	"fmt"
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

// BenchmarkIfRulePath measures one event of the common single-path call: a new Subject
// in a directory, and Read(./.env) as a deny rule (Match) and as an allow rule (Allows)
// against its file_path.
func BenchmarkIfRulePath(b *testing.B) {
	f, err := CompileIf("Read(./.env)")
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"file_path":"/ws/src/main.go"}`)
	b.ReportAllocs()
	for b.Loop() {
		s := NewSubjectIn("PreToolUse", "Read", args, "/ws")
		if f.Match(s) || f.Allows(s) {
			b.Fatal("unexpected match")
		}
	}
}

// BenchmarkReadRuleSearch: a Read rule on a search of the project at /ws (cwd and root),
// by its root and its glob (globsMeet), which names no denied file; and on a
// read_many_files of two globs.
func BenchmarkReadRuleSearch(b *testing.B) {
	f, err := CompileIf("Read(./.env)")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, tool, args string }{
		{"grep", "Grep", `{"pattern":"TODO","path":"src","glob":"*.go"}`},
		{"glob", "Glob", `{"pattern":"**/*.ts"}`},
		{"read_many_files", "Read", `{"include":["src/**/*.ts","docs/*.md"]}`},
	} {
		args := json.RawMessage(c.args)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := NewSubjectAt("/ws", "PreToolUse", c.tool, args).WithCwd("/ws")
				if f.Match(s) {
					b.Fatal("unexpected match")
				}
			}
		})
	}
}

// BenchmarkIndexBashRules: one event against 1 000 Bash(cmdN *) rules, through an Index
// (one parse, then a command-word lookup per rule) and one by one with If.Match (the scan
// the Index replaces), in the same run.
func BenchmarkIndexBashRules(b *testing.B) {
	filters := make([]*If, 1000)
	for i := range filters {
		f, err := CompileIf(fmt.Sprintf("Bash(cmd%d *)", i))
		if err != nil {
			b.Fatal(err)
		}
		filters[i] = f
	}
	x := NewIndex(filters)
	args := json.RawMessage(`{"command":"cd /tmp/build && ls | head -1 ; make clean"}`)
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			h := x.Bind(NewSubject("PreToolUse", "Bash", args))
			for i := range filters {
				if h.Match(i) {
					b.Fatal("unexpected match")
				}
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := NewSubject("PreToolUse", "Bash", args)
			for _, f := range filters {
				if f.Match(s) {
					b.Fatal("unexpected match")
				}
			}
		}
	})
}

// BenchmarkIndexRegexFilters: one event against 100 /re/ filters, each needing a literal the
// arguments lack (/cmd\d+ --flagN/), through an Index (required-literal prefilter) and one by
// one.
func BenchmarkIndexRegexFilters(b *testing.B) {
	filters := make([]*If, 100)
	for i := range filters {
		f, err := CompileIf(fmt.Sprintf(`/\bcmd\d+\s+--flag%d\b/`, i))
		if err != nil {
			b.Fatal(err)
		}
		filters[i] = f
	}
	x := NewIndex(filters)
	args := json.RawMessage(`{"command":"go test ./... && git status --short","description":"run the tests and show the tree"}`)
	b.Run("index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			h := x.Bind(NewSubject("PreToolUse", "Bash", args))
			for i := range filters {
				if h.Match(i) {
					b.Fatal("unexpected match")
				}
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := NewSubject("PreToolUse", "Bash", args)
			for _, f := range filters {
				if f.Match(s) {
					b.Fatal("unexpected match")
				}
			}
		}
	})
}

package hookcore_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// module is this module's path; package names below are relative to it ("." is the root).
const module = "github.com/hookcore/hookcore"

// allowedImports is the dependency direction of DESIGN.md section 2, as edges: a package of
// the lower layers (or a package under it: "executor/x" follows "executor") may import only
// the packages of this module listed for it. Every package named on the right is itself in
// the table, so the direct edges also bound the transitive ones.
var allowedImports = map[string][]string{
	"hook":                 {"internal/text"}, // the vocabulary: standard library only, and the text helpers
	"bridge":               {"hook", "internal/text"},
	"match":                {"hook", "shell", "internal/shbound", "internal/text"}, // shbound: the names operator stops where Bash parsing does
	"shell":                {"internal/shbound"},                                   // the bash engine: stdlib, mvdan.cc/sh, the parser bound
	"config":               {"hook", "bridge", "match", "internal/hostspec", "internal/shbound", "internal/text", "internal/regularfile"},
	"convert":              {"config", "bridge", "hook", "match", "internal/hostspec", "internal/shbound", "internal/text", "internal/regularfile"},
	"trust":                {"hook", "match", "internal/text", "internal/regularfile"},
	"executor":             {"hook", "match", "internal/netguard", "internal/text"}, // and its own executor/...
	"internal/proc":        {},
	"internal/netguard":    {"internal/hostspec"},
	"internal/hostspec":    {},
	"internal/shbound":     {},
	"internal/text":        {}, // Truncate and Printable: standard library only, importable by every layer
	"internal/regularfile": {}, // the no-wait, regular-file-only open and capped read: standard library only, importable by every layer
	"internal/pipetest":    {}, // a test helper (named pipes): standard library only
	"state":                {},
	"tool":                 {},       // the tool-call vocabulary: standard library only
	"hooktest":             {"hook"}, // test helpers: hook, the standard library, goleak

	// The command executor (docs/decisions.md, "The command executor in executor/command")
	// and what it shares with the other executors (context variables, placeholders, the
	// stdin JSON): the vocabulary only, so neither side imports the other's internals.
	"executor/command":         {"hook", "executor/internal/hookio", "internal/proc", "internal/shbound", "internal/text"},
	"executor/internal/hookio": {"hook", "internal/text"},
}

// forbiddenDeps lists, per package, packages of this module it must not depend on even
// transitively: the upper layers (reference agent, model clients, CLI, transcripts) sit on
// top of the root, never below it, and nothing below the root imports the root.
var forbiddenDeps = map[string][]string{
	".":                 {"agent", "agent/tools", "model", "internal/cli", "transcript", "cmd/hookcore", "telemetry"},
	"hook":              {".", "agent", "model", "internal/cli", "transcript"},
	"match":             {".", "agent", "model", "internal/cli", "transcript"},
	"config":            {".", "agent", "model", "internal/cli", "transcript"},
	"trust":             {".", "agent", "model", "internal/cli", "transcript"},
	"executor":          {".", "agent", "model", "internal/cli", "transcript"},
	"internal/proc":     {".", "agent", "model", "internal/cli", "transcript"},
	"internal/netguard": {".", "agent", "model", "internal/cli", "transcript"},
	"internal/shbound":  {".", "agent", "model", "internal/cli", "transcript"},
	"hooktest":          {".", "config", "executor", "agent", "model", "internal/cli", "transcript"},
	"shell":             {".", "hook", "match", "config", "executor", "agent", "model", "internal/cli", "transcript"},
	"internal/hostspec": {".", "agent", "model", "internal/cli", "transcript"},
	// The LLM clients implement the agent kernel's Model; they know nothing of the engine,
	// the harness or the CLI (docs/decisions.md, "One model package").
	"model": {".", "config", "executor", "trust", "agent/harness", "agent/tools", "internal/cli", "transcript"},
	"state": {".", "agent", "model", "internal/cli", "transcript"},
	"tool":  {".", "hook", "agent", "model", "internal/cli", "transcript"},
	// The agent kernel knows no engine: it speaks hook's and tool's vocabulary and runs
	// middleware (issue 13); its harness (agent/harness) is where the Runner comes in.
	"agent":         {".", "config", "executor", "trust", "state", "bridge", "model", "internal/cli", "transcript"},
	"agent/tools":   {".", "config", "executor", "trust", "state", "bridge", "model", "internal/cli", "transcript"},
	"agent/llm":     {".", "config", "executor", "trust", "state", "bridge", "internal/cli", "transcript"},
	"agent/harness": {"internal/cli", "transcript"},
	"bridge":        {".", "agent", "model", "internal/cli", "transcript"},
	"convert":       {".", "agent", "model", "executor", "internal/cli", "transcript"},
	// The replay engine sits under the CLI, never the other way round (docs/decisions.md,
	// "The replay engine in internal/replay").
	"internal/replay": {"internal/cli", "agent", "model"},
	"internal/text":   {".", "hook", "agent", "model", "internal/cli", "transcript"},

	// The command executor knows nothing of the config or of the upper layers, and nothing
	// of the other executors either: executor imports it for the deprecated aliases, never
	// the other way round (its allowedImports row has no "executor", which bounds the
	// transitive edges; "executor" cannot be listed here, it would forbid
	// executor/internal/hookio by prefix).
	"executor/command":         {".", "config", "agent", "model", "internal/cli", "transcript"},
	"executor/internal/hookio": {".", "config", "executor/command", "agent", "model", "internal/cli", "transcript"},
}

// forbiddenModules lists, per package, modules outside this one it must not depend on even
// transitively: the replay engine is used and tested without the command-line library; the
// root and the default CLI build do not link the MCP SDK (package mcptool, -tags mcp:
// docs/decisions.md, "mcp_tool: wired, opt-in in the binary").
var forbiddenModules = map[string][]string{
	"internal/replay": {"github.com/spf13/cobra", "github.com/spf13/pflag"},
	".":               {"github.com/modelcontextprotocol/go-sdk"},
	"internal/cli":    {"github.com/modelcontextprotocol/go-sdk"},
	"cmd/hookcore":    {"github.com/modelcontextprotocol/go-sdk"},
}

// goPackage is the part of `go list -json` this test reads.
type goPackage struct {
	ImportPath string
	Imports    []string
	Deps       []string
	Error      *struct{ Err string }
}

// rel returns an import path relative to the module ("." for the root), and false for
// packages of other modules and the standard library.
func rel(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r, true
	}
	return "", false
}

// ruleFor returns the table key that governs pkg: pkg itself or its nearest listed parent.
func ruleFor[V any](table map[string]V, pkg string) (string, bool) {
	for p := pkg; ; {
		if _, ok := table[p]; ok {
			return p, true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 || p == "." {
			return "", false
		}
		p = p[:i]
	}
}

// TestDependencyDirection enforces DESIGN.md section 2 on the module's non-test packages,
// as `go list -deps` sees them.
func TestDependencyDirection(t *testing.T) {
	t.Parallel()
	for key, targets := range allowedImports {
		for _, to := range targets {
			if _, ok := allowedImports[to]; !ok {
				t.Errorf("table: %s may import %s, which has no row of its own", key, to)
			}
		}
	}

	pkgs := listPackages(t)
	seen := map[string]bool{}
	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		seen[from] = true
		if p.Error != nil {
			t.Logf("%s: %s (its imports may be incomplete)", from, p.Error.Err)
		}
		if key, ok := ruleFor(allowedImports, from); ok {
			for _, imp := range p.Imports {
				to, ours := rel(imp)
				if ours && !slices.Contains(allowedImports[key], to) && !strings.HasPrefix(to, from+"/") {
					t.Errorf("%s imports %s; allowed: %v (DESIGN.md section 2)", from, to, allowedImports[key])
				}
			}
		}
		for _, bad := range forbiddenModules[from] {
			for _, dep := range p.Deps {
				if dep == bad || strings.HasPrefix(dep, bad+"/") {
					t.Errorf("%s depends on %s (it must not: see forbiddenModules)", from, dep)
				}
			}
		}
		if key, ok := ruleFor(forbiddenDeps, from); ok {
			for _, dep := range p.Deps {
				to, ours := rel(dep)
				if !ours {
					continue
				}
				for _, bad := range forbiddenDeps[key] {
					if to == bad || (bad != "." && strings.HasPrefix(to, bad+"/")) {
						t.Errorf("%s depends on %s (DESIGN.md section 2: it must not)", from, to)
					}
				}
			}
		}
	}
	for _, must := range []string{".", "hook", "tool", "agent", "match", "config", "executor", "executor/command", "trust", "internal/replay", "internal/text"} {
		if !seen[must] {
			t.Errorf("go list did not report package %s", must)
		}
	}
}

// listPackages runs `go list -deps` over the module's packages and returns the module's own
// packages.
func listPackages(t *testing.T) []goPackage {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list packages: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-e", "-deps", "-json=ImportPath,Imports,Deps,Error", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if _, ok := rel(p.ImportPath); ok {
			pkgs = append(pkgs, p)
		}
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })
	return pkgs
}

// TestRuleFor checks the table lookup the dependency test relies on.
func TestRuleFor(t *testing.T) {
	t.Parallel()
	for pkg, want := range map[string]string{
		"executor": "executor", "executor/http": "executor", "executor/command": "executor/command",
		"executor/command/x": "executor/command", "internal/proc": "internal/proc",
		"internal/cli": "", "agent/tools": "", ".": "", "hookish": "",
	} {
		if got, _ := ruleFor(allowedImports, pkg); got != want {
			t.Errorf("ruleFor(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// TestShellDeps checks that package shell, the bash engine, depends only on the standard
// library, mvdan.cc/sh and internal/shbound (DESIGN.md section 2): it can be reused or
// benchmarked without the engine.
func TestShellDeps(t *testing.T) {
	t.Parallel()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list packages: %v", err)
	}
	out, err := exec.Command(goCmd, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./shell").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		switch {
		case p == module+"/shell", p == module+"/internal/shbound", strings.HasPrefix(p, "mvdan.cc/sh/"):
		default:
			t.Errorf("shell depends on %s; allowed: the standard library, mvdan.cc/sh, internal/shbound", p)
		}
	}
}

// TestLeanHookBinaryDeps holds the lean hook binary (cmd/hookcore-hook, -tags hookcore_lean)
// to what makes it start fast (issue 9; docs/decisions.md, "The lean hook binary"): none of
// net/http, TLS, package net, OpenTelemetry, cobra, the model clients or the SSRF guard is
// linked, since a linked package's initialisation runs at every start whether used or not.
func TestLeanHookBinaryDeps(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-tags", "hookcore_lean", module+"/cmd/hookcore-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, module+"/config") || !slices.Contains(deps, module+"/shell") {
		t.Fatalf("go list -deps gave no hookcore packages: %q", deps)
	}
	forbidden := []string{"net/http", "crypto/tls", "net", "go.opentelemetry.io/", "github.com/spf13/cobra",
		"github.com/spf13/pflag", module + "/model", module + "/internal/netguard", module + "/telemetry",
		"github.com/modelcontextprotocol/", "github.com/open-policy-agent/",
		"runtime/metrics"} // its initialisation builds its tables: 15 KB and 0.1 ms per hook process (stop 23)
	for _, d := range deps {
		for _, f := range forbidden {
			if d == f || (strings.HasSuffix(f, "/") && strings.HasPrefix(d, f)) {
				t.Errorf("the lean hook binary links %s", d)
			}
		}
	}
}

// TestLeanHookBinaryInitCompilesNoRegexp checks that no package of this module linked into
// the lean hook binary compiles a regular expression, builds a map or calls a function
// literal in a package-level variable's initialiser: each runs at every hook process's start,
// whether the value is used or not (stop 32: six regexps, about 4 % of the process under perf,
// two of them Gemini extension patterns added at stop 31; stop 33: 57 map literals and a
// registry index, 56 KB and about 0.1 ms of package init per process). A pattern or a table
// is built on first use instead (sync.OnceValue), or a small set is a switch.
func TestLeanHookBinaryInitCompilesNoRegexp(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-tags", "hookcore_lean",
		"-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}{{end}}", module+"/cmd/hookcore-hook").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	files := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.Split(line, "\t")
		if len(parts) != 3 || (parts[0] != module && !strings.HasPrefix(parts[0], module+"/")) {
			continue
		}
		for _, name := range strings.Fields(parts[2]) {
			path := filepath.Join(parts[1], name)
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files++
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					for _, v := range s.(*ast.ValueSpec).Values {
						if name := initCompile(v); name != "" {
							t.Errorf("%s: a package-level variable calls regexp.%s at start-up; compile it on first use", path, name)
						}
						if what := initBuild(v); what != "" {
							t.Errorf("%s: a package-level variable builds %s at start-up; build it on first use (sync.OnceValue) or use a switch", path, what)
						}
					}
				}
			}
		}
	}
	if files < 50 {
		t.Fatalf("read only %d files of the lean hook binary's packages", files)
	}
}

// initBuild describes what the expression e builds when evaluated at package init (not
// inside a function literal): "a map" for a non-empty map literal, "a value in a function
// literal" for a function literal called in place; "" for neither.
func initBuild(e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if _, ok := n.Fun.(*ast.FuncLit); ok {
				found = "a value in a function literal"
			}
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			if _, ok := n.Type.(*ast.MapType); ok && len(n.Elts) > 0 {
				found = "a map"
			}
		}
		return found == ""
	})
	return found
}

// initCompile returns the name of the regexp compile function that the expression e calls
// when evaluated (not inside a function literal), "" for none.
func initCompile(e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && id.Name == "regexp" && strings.Contains(n.Sel.Name, "Compile") {
				found = n.Sel.Name
			}
		}
		return found == ""
	})
	return found
}

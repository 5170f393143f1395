//go:build !hookcore_lean

package cli

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// parsedHook is what a hook command line sets.
type parsedHook struct {
	Args    []string
	Config  configFlags
	Hook    hookFlags
	Verbose bool
}

// cobraParse parses args (after "hook") as the full binary does: root with --verbose, the
// hook command with registerHookFlags and cobra.RangeArgs(1, 2). ok is false on a usage error.
func cobraParse(args []string) (p parsedHook, ok bool) {
	e := &env{}
	root := &cobra.Command{Use: "hookcore", SilenceUsage: true, SilenceErrors: true}
	root.PersistentFlags().BoolVarP(&e.verbose, "verbose", "v", false, "")
	var cf configFlags
	var hf hookFlags
	ran := false
	cmd := &cobra.Command{Use: "hook", Args: cobra.RangeArgs(1, 2), RunE: func(_ *cobra.Command, a []string) error {
		ran, p.Args = true, a
		return nil
	}}
	registerHookFlags(cmd, &cf, &hf)
	root.AddCommand(cmd)
	root.SetArgs(append([]string{"hook"}, args...))
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	if err := root.Execute(); err != nil || !ran {
		return p, false
	}
	p.Config, p.Hook, p.Verbose = cf, hf, e.verbose
	return p, true
}

// leanParse parses args as the lean hook binary does.
func leanParse(args []string) (p parsedHook, ok bool) {
	e := &env{}
	var cf configFlags
	var hf hookFlags
	pos, ok := parseHookArgs(args, hookFlagSpecs(e, &cf, &hf))
	if !ok {
		return p, false
	}
	return parsedHook{Args: pos, Config: cf, Hook: hf, Verbose: e.verbose}, true
}

var parsedOpts = cmp.Options{cmp.AllowUnexported(configFlags{}, hookFlags{}, approveFlags{}, systemFlags{})}

// TestLeanFlagsMatchCobra: the lean parser knows every flag of the full hook command with its
// shorthand, kind and default, and no other (issue 9: the lean binary must read a command
// line as the full one does, or hand it over).
func TestLeanFlagsMatchCobra(t *testing.T) {
	t.Setenv("HOOKCORE_AUDIT", "audit.log") // --audit's default comes from it
	var cf configFlags
	var hf hookFlags
	cmd := &cobra.Command{Use: "hook"}
	registerHookFlags(cmd, &cf, &hf)
	cmd.PersistentFlags().BoolP("verbose", "v", false, "") // the root's, in Main
	specs := hookFlagSpecs(&env{}, &configFlags{}, &hookFlags{})
	kinds := map[flagKind]string{flagString: "string", flagArray: "stringArray", flagBool: "bool"}
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		seen[f.Name] = true
		s := lookupFlag(specs, f.Name, false)
		if s == nil {
			t.Errorf("--%s: the lean parser does not know it", f.Name)
			return
		}
		if s.short != f.Shorthand || kinds[s.kind] != f.Value.Type() {
			t.Errorf("--%s: lean -%s %s, cobra -%s %s", f.Name, s.short, kinds[s.kind], f.Shorthand, f.Value.Type())
		}
		def := ""
		switch s.kind {
		case flagString:
			def = *s.str
		case flagArray:
			def = "[" + strings.Join(*s.arr, ",") + "]"
		case flagBool:
			def = fmt.Sprint(*s.b)
		}
		if def != f.DefValue {
			t.Errorf("--%s: lean default %q, cobra %q", f.Name, def, f.DefValue)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.PersistentFlags().VisitAll(visit)
	for _, s := range specs {
		if !seen[s.name] {
			t.Errorf("--%s: the lean parser has it and the hook command does not", s.name)
		}
	}
}

// TestLeanParseMatchesCobra: a command line the lean parser accepts sets what cobra sets;
// one cobra refuses, the lean parser refuses too (it then hands it to the full binary).
func TestLeanParseMatchesCobra(t *testing.T) {
	t.Setenv("HOOKCORE_AUDIT", "")
	lines := [][]string{
		{"claude"}, {"claude", "PreToolUse"}, {"claude", "--config", "a.yaml"}, {"claude", "-c", "a", "-c", "b"},
		{"-cfoo", "claude"}, {"-c=foo", "claude"}, {"--config=", "claude"}, {"--config=a=b", "claude"},
		{"claude", "--trust"}, {"claude", "--trust=false"}, {"claude", "--trust=1"}, {"claude", "-v"},
		{"--verbose", "claude"}, {"--on-error", "allow", "claude"}, {"claude", "--", "--config"},
		{"claude", "--state-dir", "/x", "--token", "t", "--server", "http://127.0.0.1:1"},
		{"claude", "--settings", "s.json", "--config-dir", ".x", "--allow-host", "h", "--audit", "a", "--otel", "u", "--approve", "ask"},
		{"--managed-settings-dir", "/m", "claude"}, {"claude", "--gemini-system-settings=/g"}, {"claude", "--config", "-x"}, {"claude", "-"}, {"claude", ""},
		{"claude", "--config", "--trust"}, {"claude", "-c", "-v"},
		// refused by both, or by the lean parser alone (handed over)
		{"--help"}, {"claude", "-h"}, {"claude", "--bogus"}, {"claude", "-vc", "x"}, {}, {"a", "b", "c"},
		{"claude", "--config"}, {"claude", "--trust=maybe"}, {"claude", "-x"}, {"--", "claude", "a", "b"},
		{"claude", "--trust", "false"}, {"-v=true", "claude"}, {"claude", "--=x"}, {"claude", "---config", "x"},
	}
	for _, l := range lines {
		checkLeanParse(t, l)
	}
	// Generated lines of the same words, for the orders and joins a table misses.
	words := []string{"claude", "codex", "PreToolUse", "--config", "-c", "a.yaml", "--config=b", "-cx", "--trust",
		"--trust=false", "-v", "--verbose=true", "--on-error", "allow", "--", "-", "--state-dir", "--server=",
		"-h", "--bogus", "--approve", "deny-new", "--allow-host", "10.0.0.1", "=", "-c=", "--settings=s"}
	rng := rand.New(rand.NewPCG(9, 9))
	accepted := 0
	for range 4000 {
		l := make([]string, rng.IntN(6))
		for i := range l {
			l[i] = words[rng.IntN(len(words))]
		}
		if checkLeanParse(t, l) {
			accepted++
		}
	}
	if accepted < 400 {
		t.Errorf("the lean parser accepted %d of 4000 generated lines: the comparison says little", accepted)
	}
}

// checkLeanParse compares the two parses of args and reports whether the lean parser
// accepted the line.
func checkLeanParse(t *testing.T, args []string) bool {
	t.Helper()
	want, cobraOK := cobraParse(args)
	got, leanOK := leanParse(args)
	if !leanOK {
		return false // handed over: the full binary answers
	}
	if !cobraOK {
		t.Errorf("%q: the lean parser accepts a line cobra refuses", args)
	} else if d := cmp.Diff(want, got, parsedOpts); d != "" {
		t.Errorf("%q: lean parse differs from cobra's (-cobra +lean):\n%s", args, d)
	}
	return true
}

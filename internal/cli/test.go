//go:build !hookcore_lean

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/policytest"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/state"
)

// testCmd is `hookcore test FILE...`: policy unit tests without a recorded session (issue
// 11.5; the file format is package policytest's).
func testCmd(e *env) *cobra.Command {
	var (
		cf     configFlags
		junit  string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "test FILE...",
		Short: "Run policy test cases (YAML: an event, an input, the expected decision) against the configs",
		Long: `test runs the cases of each test file against the hooks: the files its config: key names
(relative to the test file), else the --config files, else the discovered layers. A case
gives an event, the parts of a hook input that matter, and what it expects: blocked,
reason_contains, permission, updated_input, context_contains, continue,
stop_reason_contains, errors, hooks. Each case runs as a session of its own, unless cases
name the same session_id in their input (they then share it, in file order). It prints PASS
or FAIL per case, then "N passed, M failed"; exit 1 when a case failed or a file could not
be read. --junit writes a JUnit XML report for CI systems (over an existing file only when
it is such a report). See the README's "Policy tests, audit and coverage".`,
		Example: `  hookcore test examples/guardrails/hooks.test.yaml
  hookcore test --junit report.xml policies/*.test.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if junit != "" {
				// Refused before any case runs (new-user trial, stop 30: --junit named the
				// policy file under test, which the report replaced with no backup).
				if err := e.junitTarget(junit, args); err != nil {
					return &exitError{code: ExitFailure, msg: "test: " + err.Error()}
				}
			}
			var all []policytest.Outcome
			broken := 0
			for _, path := range args {
				f, err := policytest.Parse(path)
				var pe *fs.PathError
				if errors.As(err, &pe) {
					// A file that cannot be opened or read is the command's error, said as
					// such (new-user trial: "open nonexist.yaml: ..." with no prefix).
					fmt.Fprintf(e.stderr, "hookcore test: %s: %v\n", relativize(pe.Path, e.cwd), pe.Err)
					broken++
					continue
				}
				if err != nil {
					fmt.Fprintln(e.stderr, relativize(err.Error(), e.cwd))
					broken++
					continue
				}
				outs, err := e.runPolicyTests(cmd.Context(), f, cf)
				if err != nil {
					why := err.Error()
					if why == "" { // the config's problems are on the lines above (new-user trial)
						why = "its config does not load; no case ran"
					}
					fmt.Fprintf(e.stderr, "%s: %s\n", path, why)
					broken++
					continue
				}
				all = append(all, outs...)
			}
			if junit != "" {
				if err := writeJUnitFile(junit, all); err != nil {
					return err
				}
			}
			if asJSON {
				if err := writeTestJSON(e, all, broken); err != nil {
					return err
				}
			} else if len(all) > 0 || broken == 0 {
				// No "0 passed, 0 failed" when no case ran because the files are broken:
				// their errors above are the outcome (new-user trial).
				for i := range all {
					o := &all[i]
					if o.Passed() {
						fmt.Fprintf(e.stdout, "PASS  %s: %s\n", o.Case.Pos, o.Case.Name)
						continue
					}
					fmt.Fprintf(e.stdout, "FAIL  %s: %s\n", o.Case.Pos, o.Case.Name)
					for _, f := range o.Failures {
						fmt.Fprintf(e.stdout, "      %s\n", f)
					}
				}
				fmt.Fprintln(e.stdout, policytest.Summary(all))
			}
			for i := range all {
				if !all[i].Passed() {
					broken++
				}
			}
			if broken > 0 {
				return exitWith(ExitFailure)
			}
			return nil
		},
	}
	cf.registerRun(cmd)
	cmd.Flags().StringVar(&junit, "junit", "", "also write a JUnit XML report to this file (an existing file only when it is such a report)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the outcomes as JSON")
	return cmd
}

// runPolicyTests builds a Runner for one test file (its own config: list wins over the
// flags) and runs its cases.
func (e *env) runPolicyTests(ctx context.Context, f *policytest.File, cf configFlags) ([]policytest.Outcome, error) {
	if len(f.Config) > 0 {
		if len(cf.files) > 0 && !slices.Equal(cf.files, f.Config) {
			// Said (red team round 41: a repository's test file replaced --config silently).
			fmt.Fprintf(e.stderr, "hookcore test: %s names its own config (%s): its cases run against it, not --config\n", relativize(f.Path, e.cwd), relativize(strings.Join(f.Config, ", "), e.cwd))
		}
		cf.files = f.Config
	}
	cf.noFileAudit = true
	l, err := e.load(&cf)
	if err != nil {
		return nil, err
	}
	r, err := e.runner(l, &cf, e.testGuards(f, l))
	if err != nil {
		return nil, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = r.Close(cctx)
	}()
	return policytest.Run(f, func(ev hook.Event, in *hook.Input) hook.Result {
		if err := bridge.Incomplete(ev, in); err != nil {
			// What `hookcore hook` answers for such an input (new-user trial, stop 28: a
			// case with `tool_inptu` passed as not blocked, and the hook command blocks it).
			return hook.Result{Event: ev, Blocked: true, Continue: true, Reason: "hookcore could not evaluate its hooks: " + err.Error()}
		}
		res := r.Fire(ctx, ev, in)
		relSources(res.Hooks, e.cwd)
		return res
	}), nil
}

// junitTarget checks the file --junit names: a new file, or a JUnit report (a previous run's:
// CI runs the tests again), which the new report replaces. Anything else that exists is
// refused, the test files named first of all, as convert -o refuses an existing file and
// --audit a file that is no audit log: the report is written over it with no backup.
func (e *env) junitTarget(path string, testFiles []string) error {
	shown := relativize(path, e.cwd)
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// Refused now, not after the cases ran, when its directory is missing (new-user
		// trial, stop 34: the error named writeJUnitFile's temporary file).
		if d, derr := os.Stat(filepath.Dir(path)); derr != nil || !d.IsDir() {
			return fmt.Errorf("--junit %s: its directory %s does not exist: create it, or name a file in an existing directory", shown, relativize(filepath.Dir(path), e.cwd))
		}
		return nil
	case err != nil:
		return fmt.Errorf("--junit %s: %w", shown, err)
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("--junit %s is a symbolic link: name the report file itself", shown)
	case !st.Mode().IsRegular():
		return fmt.Errorf("--junit %s exists and is not a regular file", shown)
	}
	for _, t := range testFiles {
		if ts, err := os.Stat(t); err == nil && os.SameFile(st, ts) {
			return fmt.Errorf("--junit %s is a test file to run: name another file for the report", shown)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	if !isJUnitReport(head[:n]) {
		return fmt.Errorf("--junit %s exists and is not a JUnit report: hookcore replaces only a report of an earlier run; name another file, or move this one away", shown)
	}
	return nil
}

// isJUnitReport reports whether head, the start of a file, is a JUnit XML report: after an
// optional XML declaration and comments, a <testsuites> or <testsuite> element.
func isJUnitReport(head []byte) bool {
	s := strings.TrimSpace(strings.TrimPrefix(string(head), "\ufeff"))
	for {
		switch {
		case strings.HasPrefix(s, "<?"):
			_, rest, ok := strings.Cut(s, "?>")
			if !ok {
				return false
			}
			s = strings.TrimSpace(rest)
		case strings.HasPrefix(s, "<!--"):
			_, rest, ok := strings.Cut(s, "-->")
			if !ok {
				return false
			}
			s = strings.TrimSpace(rest)
		default:
			return strings.HasPrefix(s, "<testsuites") || strings.HasPrefix(s, "<testsuite")
		}
	}
}

// testGuards returns the Options with what the cases' `changes hook_program` protects: the
// file's hook_program: (default: this hookcore's paths), and what its hook_runs: says the
// hooks run, on no machine's file system; without hook_runs:, the programs the config's
// command hooks run, looked up on this machine as the hook command would (all nil when no
// condition names hook_program: the Runner's default); and what `changes hook_config`
// protects: the file's hook_config:, else discovery's paths from the test file's directory
// and the home of the user running it and ~/.hookcore (configPaths).
func (e *env) testGuards(f *policytest.File, l *loaded) hookcore.Options {
	opts := hookcore.Options{HookProgram: f.HookProgram, HookConfig: f.HookConfig}
	if opts.HookConfig == nil && usesChanges(l.set, match.HookConfig) {
		// Not the test's own config files: they are the policy under test, beside its cases'
		// working directory (a hook process protects the files it loads).
		home, _ := os.UserHomeDir()
		opts.HookConfig = configPaths(config.Discovery{Cwd: f.Dir, Home: home}, nil, func(string) string { return "" })
		// The state directory the hook processes of a real session write at every event:
		// not a change the tripwire's cases made (`tool changed hook_config`).
		opts.HookConfigVolatile = []string{state.DefaultDir(os.Getenv, home)}
	}
	if !usesChanges(l.set, match.HookProgram) || f.HookProgram == nil && f.HookRuns == nil {
		return opts
	}
	if opts.HookProgram == nil {
		opts.HookProgram = hookPrograms()
	}
	var progs, startup []string
	if f.HookRuns != nil {
		home, _ := os.UserHomeDir()
		progs, startup = guardPaths(specRuns(f.HookRuns), runView{home: home, getenv: func(string) string { return "" }})
	} else {
		progs, startup = e.hookGuards(l)
	}
	opts.HookProgram = append(slices.Clip(opts.HookProgram), progs...)
	opts.HookStartup = startup
	return opts
}

// specRuns returns the hookRuns a test file's hook_runs: describes: each program by its
// name, the file it resolves to, and the PATH directories before that file's (all of them
// when it is not found; none for an absolute name).
func specRuns(spec *policytest.Runs) []hookRun {
	names := make([]string, 0, len(spec.Programs))
	for n := range spec.Programs {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []hookRun
	for _, n := range names {
		r := hookRun{name: n, file: spec.Programs[n]}
		if !strings.Contains(n, "/") {
			r.before = []string{}
			for _, d := range spec.Path {
				if r.file != "" && filepath.Dir(r.file) == filepath.Clean(d) {
					break
				}
				r.before = append(r.before, d)
			}
		}
		out = append(out, r)
	}
	return out
}

func writeJUnitFile(path string, outs []policytest.Outcome) error {
	tmp, err := os.CreateTemp(dirOf(path), ".junit-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := policytest.WriteJUnit(tmp, outs); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func writeTestJSON(e *env, outs []policytest.Outcome, broken int) error {
	type jcase struct {
		File     string   `json:"file"`
		Pos      string   `json:"pos"`
		Name     string   `json:"name"`
		Passed   bool     `json:"passed"`
		Failures []string `json:"failures,omitempty"`
	}
	out := struct {
		Passed      int     `json:"passed"`
		Failed      int     `json:"failed"`
		BrokenFiles int     `json:"broken_files"`
		Cases       []jcase `json:"cases"`
	}{BrokenFiles: broken, Cases: []jcase{}}
	for i := range outs {
		o := &outs[i]
		if o.Passed() {
			out.Passed++
		} else {
			out.Failed++
		}
		out.Cases = append(out.Cases, jcase{File: o.File, Pos: o.Case.Pos, Name: o.Case.Name, Passed: o.Passed(), Failures: o.Failures})
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// dirOf is the directory of path, "." for a bare name.
func dirOf(path string) string {
	if d := filepath.Dir(path); d != "" {
		return d
	}
	return "."
}

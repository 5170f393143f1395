//go:build !hookcore_lean

package cli_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"go.uber.org/goleak"

	"github.com/hookcore/hookcore/internal/cli"
)

// update rewrites the files that `cmp` compares against inside the scripts (the golden
// sections of testdata/script/*.txtar) with the actual output: go test ./internal/cli -update.
var update = flag.Bool("update", false, "rewrite the golden sections of testdata/script/*.txtar that cmp compares against")

// TestMain registers the hookcore, fakeserver and mcpserver commands: testscript puts copies
// of this test binary under those names on the PATH of the scripts and of the tests;
// hookcore runs cli.Main, fakeserver runs fakeServerMain, mcpserver mcpServerMain.
func TestMain(m *testing.M) {
	testscript.Main(leakCheck{m}, map[string]func(){
		"hookcore":   func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"fakeserver": fakeServerMain, // see fakeServerUsage
		"mcpserver":  mcpServerMain,  // an MCP server over stdio (mcpserver_test.go)
	})
}

// leakCheck runs the tests and then fails the run when goroutines are left over.
type leakCheck struct{ m *testing.M }

func (l leakCheck) Run() int {
	code := l.m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			return 1
		}
	}
	return code
}

// TestScript runs the end-to-end scripts of testdata/script: every
// conformance case of ../shared/conformance/cases as fire_*, check_* and list_* scripts, and
// the CLI's own behaviour. Besides the standard testscript commands they can use:
//
//	hc EXIT ARGS...        run hookcore ARGS in the current directory with the stdin set by a
//	                       preceding `stdin FILE`, and fail unless it exits EXIT; its stdout
//	                       and stderr are what `stdout`, `stderr`, `cmp stdout` read
//	expect FILE            check the last hc run against an expect.json (keys as in the
//	                       conformance runner: exit, blocked, permission, reason_contains, ...)
//	subst FILE...          replace $WORK and $HOME in the files in place
//	genbig FILE MARK BYTES replace MARK in FILE with BYTES 'x' bytes (a large input without a
//	                       large file in the repository)
//	waitfile FILE...       wait up to 5 s until the files exist (a background process is ready)
//	template [-mark MARK] ADDRFILE FILE...
//	                       replace MARK (default @ADDR@) in the files in place with the address
//	                       that a background fakeserver wrote to ADDRFILE
//	envaddr ADDRFILE NAME=VALUE...
//	                       set environment variables, @ADDR@ in VALUE replaced by that address
//	                       (OPENAI_BASE_URL=http://@ADDR@/v1)
//
// and run the program fakeserver (exec fakeserver -addr FILE ... &), a loopback webhook
// receiver, redirector, slow server or fake OpenAI / Anthropic API: see fakeServerUsage, and
// name mcpserver, an MCP server over stdio (mcpserver_test.go), in a .mcp.json. The
// condition [mcp] holds when the CLI links the mcp_tool executor (go test -tags mcp).
//
// Every script runs with HOME=$WORK/home (created empty), EXAMPLES the repository's
// examples directory (read only) and the PATH of the test, since
// hooks run sh, printf and python3; testscript passes no other variable of the test's
// environment, so HOOKCORE_CONFIG and XDG_CONFIG_HOME are unset.
func TestScript(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:   filepath.Join("testdata", "script"),
		Setup: setupScript,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"hc":       cmdHC,
			"expect":   cmdExpect,
			"subst":    cmdSubst,
			"genbig":   cmdGenbig,
			"waitfile": cmdWaitfile,
			"template": cmdTemplate,
			"envaddr":  cmdEnvaddr,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "mcp" { // the CLI links the mcp_tool executor (-tags mcp)
				return cli.MCPLinked, nil
			}
			if cond == "rego" { // the CLI links the rego executor (-tags rego)
				return cli.RegoLinked, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// stateKey is the key of a script's *runState in its testscript values.
type stateKey struct{}

// runState is what the last hc command observed, for expect.
type runState struct {
	ran     bool
	exit    int
	elapsed time.Duration
}

func state(ts *testscript.TestScript) *runState {
	return ts.Value(stateKey{}).(*runState)
}

func setupScript(env *testscript.Env) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	env.Setenv("HOME", home)
	if env.Getenv("GORACE") == "" {
		// Under -race every exit of the re-executed test binary would otherwise sleep 1 s.
		env.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		return err
	}
	env.Setenv("EXAMPLES", examples) // the repository's example policies, read only
	env.Values[stateKey{}] = &runState{}
	return nil
}

// cmdHC runs hookcore as a subprocess and checks its exit status.
func cmdHC(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! hc (give the expected exit status instead)")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: hc EXIT ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("hc: exit status %q is not a number", args[0])
	}
	st := state(ts)
	start := time.Now()
	err = ts.Exec("hookcore", withManagedDir(ts, args[1:])...)
	st.elapsed = time.Since(start)
	got := 0
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		got = ee.ExitCode()
	default:
		ts.Fatalf("hc: %v", err)
	}
	st.ran, st.exit = true, got
	ts.Logf("[exit %d after %.2fs]", got, st.elapsed.Seconds())
	if got != want {
		ts.Fatalf("hookcore exited %d, want %d", got, want)
	}
}

// withManagedDir points the commands that discover config at $WORK/managed for Claude
// Code's managed settings and $WORK/gemini-cli/settings.json for Gemini CLI's system
// settings, so that no script reads the machine's /etc/claude-code or /etc/gemini-cli.
func withManagedDir(ts *testscript.TestScript, args []string) []string {
	switch args[0] {
	case "fire", "list", "replay", "run", "check", "trust", "coverage", "test", "hook":
		return append([]string{args[0],
			"--managed-settings-dir", filepath.Join(ts.Getenv("WORK"), "managed"),
			"--gemini-system-settings", filepath.Join(ts.Getenv("WORK"), "gemini-cli", "settings.json"),
		}, args[1:]...)
	}
	return args
}

// cmdExpect checks the last hc run against an expect.json.
func cmdExpect(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! expect")
	}
	if len(args) != 1 {
		ts.Fatalf("usage: expect FILE")
	}
	st := state(ts)
	if !st.ran {
		ts.Fatalf("expect: no hc command ran before")
	}
	exp, err := parseExpectation([]byte(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("expect: %s: %v", args[0], err)
	}
	if exp.SettleSeconds > 0 {
		time.Sleep(time.Duration(exp.SettleSeconds * float64(time.Second)))
	}
	problems := exp.check(observed{
		exit:   st.exit,
		stdout: ts.ReadFile("stdout"),
		stderr: ts.ReadFile("stderr"),
		work:   ts.Getenv("WORK"),
	})
	if len(problems) > 0 {
		ts.Fatalf("expect %s:\n\t%s", args[0], strings.Join(problems, "\n\t"))
	}
}

// cmdSubst replaces $WORK and $HOME in files in place, as the conformance runner does in
// every file of a case.
func cmdSubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: subst FILE...")
	}
	r := strings.NewReplacer("$WORK", ts.Getenv("WORK"), "$HOME", ts.Getenv("HOME"))
	for _, f := range args {
		p := ts.MkAbs(f)
		data, err := os.ReadFile(p)
		ts.Check(err)
		ts.Check(os.WriteFile(p, []byte(r.Replace(string(data))), 0o666))
	}
}

// cmdGenbig replaces MARK in FILE with BYTES bytes of 'x'.
func cmdGenbig(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: genbig FILE MARK BYTES")
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 0 {
		ts.Fatalf("genbig: bad byte count %q", args[2])
	}
	p := ts.MkAbs(args[0])
	data, err := os.ReadFile(p)
	ts.Check(err)
	if !bytes.Contains(data, []byte(args[1])) {
		ts.Fatalf("genbig: %s does not contain %q", args[0], args[1])
	}
	data = bytes.ReplaceAll(data, []byte(args[1]), bytes.Repeat([]byte{'x'}, n))
	ts.Check(os.WriteFile(p, data, 0o666))
}

// cmdWaitfile waits until every named file exists, for at most 60 s in all (a hang guard,
// not a speed bound: on a busy machine a hook can take seconds to start).
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: waitfile FILE...")
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, f := range args {
		for {
			if _, err := os.Stat(ts.MkAbs(f)); err == nil {
				break
			}
			if time.Now().After(deadline) {
				ts.Fatalf("waitfile: %s did not appear within 60s", f)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

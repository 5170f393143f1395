//go:build !hookcore_lean

package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInstallWarnsOffPath: when install writes its default command and no "hookcore" is on
// PATH (the binary run with `go run`, or a test binary), it warns: the agent would not find
// its hook command, and Claude Code lets a call through when the command fails (new-user
// trial, stop 21). Not parallel: it changes PATH.
func TestInstallWarnsOffPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", filepath.Join(dir, "nothing-here"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := Main([]string{"install", "claude", "--dry-run"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	if !strings.Contains(errb.String(), `"hookcore" is not on PATH, so the agent will not find its hook command`) {
		t.Errorf("stderr = %q, want the PATH warning", errb.String())
	}
	errb.Reset()
	if code := Main([]string{"install", "claude", "--dry-run", "--command", "/opt/hookcore"}, strings.NewReader(""), &out, &errb); code != 0 || strings.Contains(errb.String(), "not on PATH") {
		t.Errorf("with --command: exit %d, stderr %q, want no warning", code, errb.String())
	}
}

// TestInstallFromTemporaryBinary: a hookcore binary the go command made for `go run` (under
// the Go build cache, or a go-build* work directory of the temporary directory) has no
// lasting path, so install writes "hookcore" and warns when it is not on PATH, and no
// lean binary is looked for beside it; a binary elsewhere off PATH writes its absolute path,
// or the lean hookcore-hook beside it (new-user trial, stop 22: `go run ./cmd/hookcore
// install claude` wrote /root/.cache/go-build/.../hookcore, which exits 127 once the cache
// is cleaned, and Claude Code lets the call through). The binary run is the test binary as
// testscript's "hookcore" command, copied to each place.
func TestInstallFromTemporaryBinary(t *testing.T) {
	t.Parallel()
	bin, err := exec.LookPath("hookcore") // testscript's copy of this test binary (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		bin   string // where hookcore is copied, under the test's directory
		env   []string
		lean  bool              // an executable hookcore-hook beside it
		files map[string]string // more files under the test's directory (a go env file)
		want  string            // the command written, "" for the binary's own absolute path
	}{
		{name: "GOCACHE", bin: "gocache/2f/2fa9c1-d/hookcore", env: []string{"GOCACHE=@/gocache"}, lean: true, want: "hookcore"},
		{name: "user cache dir", bin: "xdg/go-build/2f/2fa9c1-d/hookcore", env: []string{"XDG_CACHE_HOME=@/xdg"}, lean: true, want: "hookcore"},
		{name: "go-build temp dir", bin: "tmp/go-build3141/b001/exe/hookcore", env: []string{"TMPDIR=@/tmp"}, lean: true, want: "hookcore"},
		{name: "GOTMPDIR", bin: "gotmp/go-build27/b001/exe/hookcore", env: []string{"GOTMPDIR=@/gotmp"}, want: "hookcore"},
		// `go env -w GOCACHE=...` (red team 11): the go env file, default place or $GOENV.
		{name: "go env file", bin: "envcache/2f/2fa9c1-d/hookcore", env: []string{"XDG_CONFIG_HOME=@/cfg"}, files: map[string]string{"cfg/go/env": "GOPROXY=off\nGOCACHE=@/envcache\n"}, lean: true, want: "hookcore"},
		{name: "GOENV", bin: "envcache/2f/2fa9c1-d/hookcore", env: []string{"GOENV=@/my.env"}, files: map[string]string{"my.env": "GOCACHE=@/envcache\n"}, want: "hookcore"},
		{name: "installed", bin: "opt/bin/hookcore"},
		// A path with a space is shell-quoted (red team 11: sh ran /opt/my, exit 127).
		{name: "a space in the path", bin: "opt/my bin/hookcore", want: "'@/opt/my bin/hookcore'"},
		{name: "installed with the lean binary", bin: "opt/bin/hookcore", lean: true, want: "@/opt/bin/hookcore-hook"},
		{name: "a go-build directory elsewhere", bin: "src/go-build/hookcore", env: []string{"TMPDIR=@/tmp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if d, err := filepath.EvalSymlinks(dir); err == nil {
				dir = d
			}
			self := filepath.Join(dir, filepath.FromSlash(tc.bin))
			project := filepath.Join(dir, "project")
			for _, d := range []string{filepath.Dir(self), filepath.Join(project, ".git"), filepath.Join(dir, "tmp"), filepath.Join(dir, "empty")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(self, data, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range tc.files {
				name = filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(strings.ReplaceAll(text, "@", dir)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.lean {
				if err := os.WriteFile(filepath.Join(filepath.Dir(self), "hookcore-hook"), []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			run := func() error {
				cmd := exec.Command(self, "install", "claude", "--dry-run")
				cmd.Dir = project
				// Only the variables the case sets: no GOCACHE, XDG_CACHE_HOME or TMPDIR of the test.
				cmd.Env = []string{"PATH=" + filepath.Join(dir, "empty"), "HOME=" + filepath.Join(dir, "home"), "TMPDIR=" + filepath.Join(dir, "tmp")}
				for _, kv := range tc.env {
					cmd.Env = append(cmd.Env, strings.ReplaceAll(kv, "@", dir))
				}
				stdout.Reset()
				stderr.Reset()
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				return cmd.Run()
			}
			// The binary was just written while the parallel cases fork: a child forked
			// before its descriptor closed holds it open for writing until that child
			// execs, and exec then fails with ETXTBSY (golang/go#22315; CI saw it once at
			// stop 24). Tried again a bounded number of times.
			err := run()
			for i := 0; i < 20 && errors.Is(err, syscall.ETXTBSY); i++ {
				time.Sleep(time.Duration(i+1) * time.Millisecond) // a back-off, not a bound on the test's time
				err = run()
			}
			if err != nil {
				t.Fatalf("%v\nstderr: %s", err, stderr.String())
			}
			want := strings.ReplaceAll(tc.want, "@", dir)
			if want == "" {
				want = self
			}
			if line := `"command": "` + want + ` hook claude"`; !strings.Contains(stdout.String(), line) {
				t.Errorf("the diff does not write %s:\n%s", line, stdout.String())
			}
			warned := strings.Contains(stderr.String(), `"hookcore" is not on PATH`)
			if warned != (want == "hookcore") {
				t.Errorf("PATH warning %v, want %v; stderr: %s", warned, want == "hookcore", stderr.String())
			}
		})
	}
}

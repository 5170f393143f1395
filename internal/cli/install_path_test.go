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

// TestInstallNeedsALastingProgram: install writes an absolute path, and when this binary
// has none that lasts (a test binary, `go run`'s) and no hookcore is on PATH, it writes
// nothing and says so (new-user trial, stop 21: it wrote "hookcore", which the agent could
// not find, and Claude Code lets a call through when its hook command fails). A --command
// name is looked up on PATH now; an absolute --command is the user's word. Uninstall needs
// no program. Not parallel: it changes PATH.
func TestInstallNeedsALastingProgram(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "my-hookcore"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Join(dir, "nothing-here"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Chdir(dir)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (code int, stdout, stderr string) {
		var out, errb bytes.Buffer
		code = Main(args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, _, stderr := run("install", "claude", "--dry-run"); code != 1 || !strings.Contains(stderr, "is a temporary binary of `go run` or `go test`") || !strings.Contains(stderr, "no hookcore is on PATH") {
		t.Errorf("no lasting program: exit %d, stderr %q, want exit 1 saying why", code, stderr)
	}
	if code, stdout, stderr := run("install", "claude", "--dry-run", "--command", "/opt/hookcore"); code != 0 || stderr != "" || !strings.Contains(stdout, `"command": "/opt/hookcore",`) {
		t.Errorf("--command /opt/hookcore: exit %d, stderr %q, stdout %s", code, stderr, stdout)
	}
	if code, _, stderr := run("install", "claude", "--dry-run", "--command", "my-hookcore"); code != 1 || !strings.Contains(stderr, `--command "my-hookcore": no such program on PATH`) {
		t.Errorf("--command off PATH: exit %d, stderr %q", code, stderr)
	}
	t.Setenv("PATH", bin)
	if code, stdout, stderr := run("install", "claude", "--dry-run", "--command", "my-hookcore"); code != 0 || !strings.Contains(stdout, `"command": "`+filepath.Join(bin, "my-hookcore")+`",`) {
		t.Errorf("--command on PATH: exit %d, stderr %q, stdout %s, want its absolute path", code, stderr, stdout)
	}
	if code, stdout, stderr := run("install", "claude", "--dry-run", "--command", "tools/hookcore"); code != 0 || !strings.Contains(stdout, `"command": "`+filepath.Join(dir, "tools", "hookcore")+`",`) {
		t.Errorf("relative --command: exit %d, stderr %q, stdout %s, want it made absolute", code, stderr, stdout)
	}
	if code, stdout, stderr := run("uninstall", "claude"); code != 0 || !strings.Contains(stdout, "no hookcore entry to remove") {
		t.Errorf("uninstall: exit %d, stderr %q, stdout %s", code, stderr, stdout)
	}
}

// TestInstallFromTemporaryBinary: install writes the hook program's absolute path, never a
// name the agent's shell looks up on PATH when the hook runs (red team round 45: a
// repository's settings env set PATH to "bin:...", its bin/hookcore-hook ran in hookcore's
// place, and rm -rf ran). The program is this binary, named by the PATH entry that is it
// when there is one (a symbolic link: an upgrade of what it points to keeps working), or
// the lean hookcore-hook beside it. A hookcore binary the go command made for `go run`
// (under the Go build cache, or a go-build* work directory of the temporary directory) has
// no lasting path (new-user trial, stop 22: `go run ./cmd/hookcore install claude` wrote
// /root/.cache/go-build/.../hookcore, which exits 127 once the cache is cleaned, and Claude
// Code lets the call through): install writes the hookcore on PATH instead, by its absolute
// path, or the lean binary beside that one, and refuses when there is none. The binary run
// is the test binary as testscript's "hookcore" command, copied to each place.
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
	const script = "#!/bin/sh\n"
	for _, tc := range []struct {
		name  string
		bin   string // where hookcore is copied, under the test's directory
		env   []string
		lean  bool              // an executable hookcore-hook beside it
		files map[string]string // more files under the test's directory (a go env file, programs on PATH)
		links map[string]string // symbolic links under the test's directory: name → target
		path  string            // PATH, under the test's directory (default: an empty directory)
		want  string            // the command written, "" for the binary's own absolute path
		fail  string            // what stderr says when install refuses
	}{
		{name: "GOCACHE", bin: "gocache/2f/2fa9c1-d/hookcore", env: []string{"GOCACHE=@/gocache"}, lean: true, fail: "no hookcore is on PATH"},
		{name: "user cache dir", bin: "xdg/go-build/2f/2fa9c1-d/hookcore", env: []string{"XDG_CACHE_HOME=@/xdg"}, lean: true, fail: "no hookcore is on PATH"},
		{name: "go-build temp dir", bin: "tmp/go-build3141/b001/exe/hookcore", env: []string{"TMPDIR=@/tmp"}, lean: true, fail: "no hookcore is on PATH"},
		{name: "GOTMPDIR", bin: "gotmp/go-build27/b001/exe/hookcore", env: []string{"GOTMPDIR=@/gotmp"}, fail: "no hookcore is on PATH"},
		// `go env -w GOCACHE=...` (red team 11): the go env file, default place or $GOENV.
		{name: "go env file", bin: "envcache/2f/2fa9c1-d/hookcore", env: []string{"XDG_CONFIG_HOME=@/cfg"}, files: map[string]string{"cfg/go/env": "GOPROXY=off\nGOCACHE=@/envcache\n"}, lean: true, fail: "no hookcore is on PATH"},
		{name: "GOENV", bin: "envcache/2f/2fa9c1-d/hookcore", env: []string{"GOENV=@/my.env"}, files: map[string]string{"my.env": "GOCACHE=@/envcache\n"}, fail: "no hookcore is on PATH"},
		// `go run` with hookcore installed: that one, by its absolute path, and the lean
		// binary beside it, not beside the temporary one.
		{name: "go run, hookcore on PATH", bin: "gocache/2f/2fa9c1-d/hookcore", env: []string{"GOCACHE=@/gocache"}, lean: true, path: "gobin", files: map[string]string{"gobin/hookcore": script}, want: "@/gobin/hookcore"},
		{name: "go run, both on PATH", bin: "gocache/2f/2fa9c1-d/hookcore", env: []string{"GOCACHE=@/gocache"}, path: "gobin", files: map[string]string{"gobin/hookcore": script, "gobin/hookcore-hook": script}, want: "@/gobin/hookcore-hook"},
		{name: "installed", bin: "opt/bin/hookcore"},
		// On PATH: before red team round 45 install wrote the bare names.
		{name: "installed, on PATH", bin: "opt/bin/hookcore", path: "opt/bin"},
		{name: "installed with the lean binary, on PATH", bin: "opt/bin/hookcore", lean: true, path: "opt/bin", want: "@/opt/bin/hookcore-hook"},
		// A link on PATH to this binary (a package manager's): the link's path, which an
		// upgrade keeps; the lean binary's link beside it likewise.
		{name: "a link on PATH", bin: "opt/v1/hookcore", path: "usr/bin", links: map[string]string{"usr/bin/hookcore": "@/opt/v1/hookcore"}, want: "@/usr/bin/hookcore"},
		{name: "links on PATH, with the lean binary", bin: "opt/v1/hookcore", lean: true, path: "usr/bin", links: map[string]string{"usr/bin/hookcore": "@/opt/v1/hookcore", "usr/bin/hookcore-hook": "@/opt/v1/hookcore-hook"}, want: "@/usr/bin/hookcore-hook"},
		{name: "a link on PATH, the lean binary beside its target", bin: "opt/v1/hookcore", lean: true, path: "usr/bin", links: map[string]string{"usr/bin/hookcore": "@/opt/v1/hookcore"}, want: "@/opt/v1/hookcore-hook"},
		// Another hookcore first on PATH is not this binary: this one is written.
		{name: "another hookcore on PATH", bin: "opt/bin/hookcore", path: "other", files: map[string]string{"other/hookcore": script}},
		// A path with a space is shell-quoted (red team 11: sh ran /opt/my, exit 127).
		{name: "a space in the path", bin: "opt/my bin/hookcore", want: "@/opt/my bin/hookcore"}, // exec form: no shell, no quoting
		{name: "installed with the lean binary", bin: "opt/bin/hookcore", lean: true, want: "@/opt/bin/hookcore-hook"},
		{name: "a go-build directory elsewhere", bin: "src/go-build/hookcore", env: []string{"TMPDIR=@/tmp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if d, err := filepath.EvalSymlinks(dir); err == nil {
				dir = d
			}
			at := func(s string) string { return strings.ReplaceAll(s, "@", dir) }
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
				if err := os.WriteFile(name, []byte(at(text)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if tc.lean {
				if err := os.WriteFile(filepath.Join(filepath.Dir(self), "hookcore-hook"), []byte(script), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for name, target := range tc.links {
				name = filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(at(target), name); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(dir, "empty")
			if tc.path != "" {
				path = filepath.Join(dir, filepath.FromSlash(tc.path))
			}
			var stdout, stderr bytes.Buffer
			run := func() error {
				cmd := exec.Command(self, "install", "claude", "--dry-run")
				cmd.Dir = project
				// Only the variables the case sets: no GOCACHE, XDG_CACHE_HOME or TMPDIR of the test.
				cmd.Env = []string{"PATH=" + path, "HOME=" + filepath.Join(dir, "home"), "TMPDIR=" + filepath.Join(dir, "tmp")}
				for _, kv := range tc.env {
					cmd.Env = append(cmd.Env, at(kv))
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
			if tc.fail != "" {
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), tc.fail) || strings.Contains(stdout.String(), "command") {
					t.Errorf("%v, stderr %q, stdout %q; want exit 1 saying %q and no diff", err, stderr.String(), stdout.String(), tc.fail)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\nstderr: %s", err, stderr.String())
			}
			want := at(tc.want)
			if want == "" {
				want = self
			}
			if line := `"command": "` + want + `",`; !strings.Contains(stdout.String(), line) {
				t.Errorf("the diff does not write %s:\n%s", line, stdout.String())
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr: %s", stderr.String())
			}
		})
	}
}

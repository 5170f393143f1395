//go:build !hookcore_lean

package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// hookProgram is the program the hook entries install writes run: an absolute path, never a
// name the agent's shell looks up on PATH when the hook runs. Claude Code gives a project's
// settings `env` to every hook process: a repository that sets PATH to "bin:..." and ships
// an executable bin/hookcore-hook ran in hookcore's place at every event, so hookcore, which
// refuses such an env, never started, and rm -rf ran (red team round 45, with the real
// Claude Code). Where sh is bash, an exported function named hookcore-hook replaces the bare
// name too; bash 5.2 imports no function whose name holds a slash (docs/decisions.md).
//
// command is --command: an absolute path is written as it is (the user's word: it need not
// exist yet); a name without a slash is looked up on PATH now, install's own, and a relative
// path is made absolute from dir. Without it the program is the full hookcore: this binary,
// named by the PATH entry that is it when there is one (so that an upgrade that replaces what
// a symbolic link points to keeps the entries working), else by its own path; when this
// binary has no lasting path (temporaryBinary: `go run`, a test binary) or is not named
// hookcore, the hookcore on PATH, the one that would have run before. With lean, the lean
// hook binary hookcore-hook beside that hookcore (as named, else beside the file it links
// to) when there is one. The error says why there is no program to name.
func hookProgram(command, dir string, lean bool) (string, error) {
	if command != "" {
		switch {
		case filepath.IsAbs(command):
			return command, nil
		case !strings.ContainsRune(command, '/') && !strings.ContainsRune(command, filepath.Separator):
			p, err := exec.LookPath(command)
			if err != nil || !filepath.IsAbs(p) {
				return "", fmt.Errorf("--command %q: no such program on PATH: give the absolute path of the program the agent should run", command)
			}
			return p, nil
		}
		return filepath.Join(dir, command), nil
	}
	full, err := fullProgram()
	if err != nil {
		return "", err
	}
	if lean {
		if l := leanBeside(full); l != "" {
			return l, nil
		}
	}
	return full, nil
}

// fullProgram is the absolute path of the full hookcore install writes (hookProgram).
func fullProgram() (string, error) {
	onPath := ""
	if p, err := exec.LookPath("hookcore"); err == nil && filepath.IsAbs(p) {
		onPath = p
	}
	self, err := os.Executable()
	if err != nil {
		if onPath == "" {
			return "", fmt.Errorf("this binary's path is unknown (%v), and no hookcore is on PATH: pass --command with the absolute path of the hookcore the agent should run", err)
		}
		return onPath, nil
	}
	if s, err := filepath.EvalSymlinks(self); err == nil {
		self = s
	}
	why := ""
	switch {
	case temporaryBinary(self):
		why = "a temporary binary of `go run` or `go test`, deleted when the Go build cache is cleaned"
	case strings.TrimSuffix(filepath.Base(self), ".exe") != "hookcore":
		why = "not named hookcore, the name hookcore knows its own hook entries by"
	}
	if why == "" {
		if onPath != "" {
			if p, err := filepath.EvalSymlinks(onPath); err == nil && p == self {
				return onPath, nil
			}
		}
		return self, nil
	}
	if onPath == "" {
		// New-user trial, stop 22: `go run ./cmd/hookcore install claude` wrote a path under
		// the build cache, which exits 127 once it is cleaned, and Claude Code lets a call
		// through when its hook command fails.
		return "", fmt.Errorf("this hookcore (%s) is %s, and no hookcore is on PATH: build it where it lasts (CGO_ENABLED=0 go build -o ~/go/bin/hookcore ./cmd/hookcore) and install with that binary, or pass --command with the absolute path of the hookcore the agent should run", self, why)
	}
	return onPath, nil
}

// leanBeside is the lean hook binary (cmd/hookcore-hook) beside the full hookcore at full:
// in full's directory, else in the directory of the file full links to; "" when there is
// none. It answers `hookcore-hook hook AGENT` as `hookcore hook AGENT`, and starts faster
// (README, "The lean hook binary").
func leanBeside(full string) string {
	dirs := []string{filepath.Dir(full)}
	if p, err := filepath.EvalSymlinks(full); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	for _, d := range dirs {
		if l := filepath.Join(d, "hookcore-hook"); executableFile(l) {
			return l
		}
	}
	return ""
}

// temporaryBinary reports whether the binary at path (symbolic links resolved) is one the
// go command made for `go run` or `go test`, which is deleted when the build cache is
// cleaned: a file under the Go build cache ($GOCACHE, the GOCACHE of the go env file (see
// goEnvFile), os.UserCacheDir()/go-build, the default of `go env GOCACHE`; go 1.24+ caches
// `go run` binaries there) or under a go-build*
// work directory of the temporary directory ($GOTMPDIR, else os.TempDir()). The go command
// is not run. A hook command at such a path exits 127 once it is gone, which Claude Code
// takes as a non-blocking error: the call goes through (new-user trial, stop 22: `go run
// ./cmd/hookcore install claude` wrote .../go-build/.../hookcore).
func temporaryBinary(path string) bool {
	var caches, temps []string
	if c := os.Getenv("GOCACHE"); c != "" {
		caches = append(caches, c)
	}
	if c := goEnvFile("GOCACHE"); c != "" {
		caches = append(caches, c)
	}
	if c, err := os.UserCacheDir(); err == nil {
		caches = append(caches, filepath.Join(c, "go-build"))
	}
	if t := os.Getenv("GOTMPDIR"); t != "" {
		temps = append(temps, t)
	}
	temps = append(temps, os.TempDir())
	for _, c := range caches {
		if rel, ok := under(path, c); ok && rel != "." {
			return true
		}
	}
	for _, t := range temps {
		if rel, ok := under(path, t); ok && strings.HasPrefix(rel, "go-build") && strings.ContainsRune(rel, filepath.Separator) {
			return true
		}
	}
	return false
}

// goEnvFile returns the value of name in the go command's environment file, where `go env
// -w` writes ($GOENV, else os.UserConfigDir()/go/env; "off" for none), "" when it sets
// none. The go command is not run (red team 11: `go env -w GOCACHE=...` put `go run`'s
// binary in a cache temporaryBinary did not know).
func goEnvFile(name string) string {
	file := os.Getenv("GOENV")
	if file == "off" {
		return ""
	}
	if file == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		file = filepath.Join(dir, "go", "env")
	}
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	val := ""
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), name+"="); ok {
			val = v // the go command reads the last
		}
	}
	return val
}

package match

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// goTarget is `go install` and `go clean -i` (and `go get` in GOPATH mode): GOBIN, else the
// first GOPATH entry's bin, else ~/go/bin; the environment over the go env file (GOENV,
// default $XDG_CONFIG_HOME/go/env).
func (w *writeCheck) goTarget(args []string, pre map[string]string) (installTarget, bool) {
	sub, rest := subcommand(args, "-C")
	switch sub {
	case "install":
	case "clean":
		if !slicesHasAny(rest, []string{"-i"}) {
			return installTarget{}, false
		}
	case "get":
		if !strings.Contains(w.cmd, "GO111MODULE") && os.Getenv("GO111MODULE") != "off" {
			return installTarget{}, false
		}
	default:
		return installTarget{}, false
	}
	var t installTarget
	if sub == "install" {
		t.names = goNames(rest)
		if t.names == nil {
			t.names = w.goLocalNames(args, rest)
		}
	}
	file := map[string]string{}
	envFile, unsetEnv, unk := w.lookup(pre, "GOENV")
	if unk {
		return installTarget{any: true}, true
	}
	if unsetEnv {
		cfg := os.Getenv("XDG_CONFIG_HOME")
		if cfg == "" {
			cfg = "~/.config"
		}
		envFile = append(envFile, filepath.Join(cfg, "go", "env"))
	}
	for _, f := range envFile {
		if f == "off" {
			continue
		}
		b, _ := os.ReadFile(w.expand(f))
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
				file[k] = v
			}
		}
	}
	gobin, unset, unk := w.lookup(pre, "GOBIN")
	if unk {
		return installTarget{any: true}, true
	}
	t.bins = gobin
	if !unset {
		return t, true
	}
	if v := file["GOBIN"]; v != "" {
		t.bins = append(t.bins, v)
		return t, true
	}
	gopath, unset, unk := w.lookup(pre, "GOPATH")
	if unk {
		return installTarget{any: true}, true
	}
	if unset {
		if v := file["GOPATH"]; v != "" {
			gopath = append(gopath, v)
		} else {
			gopath = append(gopath, "~/go")
		}
	}
	for _, p := range gopath {
		first, _, _ := strings.Cut(p, string(filepath.ListSeparator))
		t.bins = append(t.bins, filepath.Join(first, "bin"))
	}
	return t, true
}

// goBoolFlags are the go build flags that take no value.
var goBoolFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-a": true, "-n": true, "-race": true, "-msan": true, "-asan": true, "-cover": true, "-v": true,
		"-work": true, "-x": true, "-trimpath": true, "-linkshared": true, "-modcacherw": true, "-buildvcs": true,
		"-i": true,
	}
})

// goNames returns the names of the programs `go install args` installs when each package
// is named with a version (pkg@v: the last element of its path, the one before a /vN major
// version suffix), nil when one is a package of the local module or GOPATH, whose import
// path and so its name come from a go.mod the line does not show, or a pattern (...).
func goNames(args []string) []string {
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if !goBoolFlags()[a] && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		pkg, _, ok := strings.Cut(a, "@")
		if !ok || strings.Contains(pkg, "...") || hasExpansion(pkg) {
			return nil
		}
		elems := strings.Split(strings.Trim(pkg, "/"), "/")
		n := elems[len(elems)-1]
		if len(elems) > 1 && len(n) > 1 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
			n = elems[len(elems)-2]
		}
		names = append(names, n)
	}
	return names
}

// goLocalNames returns the names of the programs `go install rest` installs when each
// package is a directory of the local module named by a relative path (./cmd/tool): the
// last element of its import path, which is the module's path joined with the directory's
// below the module root, so the directory's own name, when the directory is not a module
// root itself (a go.mod there, or a go.work's module, names it: the repository's choice)
// and its name is not a major version (v2). nil when that is not known: go -C, a line that
// may run elsewhere (a cd) or whose other commands may write (only commands that read and
// go build, test, vet, list, version and install beside it), an expansion, a pattern (...),
// the module root itself (.). Source: a false positive of red team round 50's reading
// (stop 32: `go install ./cmd/tool` was taken for a write of any name into ~/go/bin).
func (w *writeCheck) goLocalNames(args, rest []string) []string {
	if w.scope == nil || w.scope.moved() || len(w.scope.cwds) != 1 || !filepath.IsAbs(w.scope.cwds[0]) || w.units == nil {
		return nil
	}
	for _, a := range args {
		if a == "-C" || strings.HasPrefix(a, "-C=") || a == "install" {
			if a != "install" {
				return nil
			}
			break
		}
	}
	for _, u := range w.units {
		if !goLineQuiet(strings.Fields(u)) {
			return nil
		}
	}
	var names []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if strings.HasPrefix(a, "-") {
			if !goBoolFlags()[a] && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		if !strings.HasPrefix(a, "./") && !strings.HasPrefix(a, "../") || strings.Contains(a, "...") || hasExpansion(a) || strings.ContainsAny(a, "@*?[\\") {
			return nil
		}
		c := filepath.Clean(a)
		n := filepath.Base(c)
		if c == "." || n == ".." || n == "." || len(n) > 1 && n[0] == 'v' && strings.Trim(n[1:], "0123456789") == "" {
			return nil
		}
		dir := filepath.Join(w.scope.cwds[0], c)
		if _, err := os.Lstat(filepath.Join(dir, "go.mod")); !errors.Is(err, fs.ErrNotExist) {
			return nil // a module root, or not known
		}
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			return nil // a link, or no directory: not read here
		}
		names = append(names, n)
	}
	return names
}

// goLineQuiet reports whether the command words (a unit of the line, leading assignments
// allowed) only read, or are go building, testing or installing: nothing that may write a
// go.mod or the go env file before a go install of the line runs (goLocalNames).
func goLineQuiet(words []string) bool {
	for len(words) > 0 && strings.Contains(words[0], "=") && !strings.HasPrefix(words[0], "-") {
		words = words[1:]
	}
	if len(words) == 0 || readsOnly(words) {
		return true
	}
	if words[0] != "go" {
		return false
	}
	for _, a := range words[1:] {
		if a == "-C" || strings.HasPrefix(a, "-C=") {
			return false
		}
	}
	sub, _ := subcommand(words[1:], "-C")
	switch sub {
	case "build", "test", "vet", "list", "version", "install":
		return true
	}
	return false
}

package match

import (
	"os"
	"path/filepath"
	"strings"
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
var goBoolFlags = map[string]bool{
	"-a": true, "-n": true, "-race": true, "-msan": true, "-asan": true, "-cover": true, "-v": true,
	"-work": true, "-x": true, "-trimpath": true, "-linkshared": true, "-modcacherw": true, "-buildvcs": true,
	"-i": true,
}

// goNames returns the names of the programs `go install args` installs when each package
// is named with a version (pkg@v: the last element of its path, the one before a /vN major
// version suffix), nil when one is a package of the local module or GOPATH, whose import
// path and so its name come from a go.mod the line does not show, or a pattern (...).
func goNames(args []string) []string {
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if !goBoolFlags[a] && !strings.Contains(a, "=") {
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

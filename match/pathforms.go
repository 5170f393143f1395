package match

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// procAlias matches the /proc and /dev/fd spellings of a directory the kernel resolves for
// the process that opens the path (red team: Edit(**/.env) and Write(.env) allowed
// /proc/self/cwd/.env, the project's .env): /proc/self|thread-self|PID[/task/TID]/cwd|root,
// /proc/…/fd/N and /dev/fd/N, each followed by the rest of the path. It is compiled on first
// use: package initialisation runs in every hook process (docs/decisions.md, "Cold start of
// the hook path, second pass").
var procAlias = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(cwd|root|fd/[0-9]+)|/dev/(fd/[0-9]+))(/.*)?$`)
})

// maxPathForms bounds the work of one path's normalisation (forms tried by the rules).
const maxPathForms = 8

// pathForms returns the spellings of the file path v that a path rule is matched against,
// the written one first (cleaned: `.`, `..` and `//` folded; relative ones joined to cwd,
// else to root): the alias forms — ~/ in home; /proc/self/cwd/X (any pid, thread-self) in
// cwd, else root; /proc/…/root/X as /X; /proc/…/fd/N/X and /dev/fd/N/X, whose directory is
// not known, as X in cwd and in root — and of each, the form with symlinks resolved: the
// longest existing prefix through filepath.EvalSymlinks plus the rest, also spelled under
// root when the resolution lies under root's own resolution. A deny rule matches when any
// form matches; a permit only when every form is permitted. At most maxPathForms forms.
// linked reports whether a resolved form is an existing regular file with more than one
// hard link (see pathSet).
func pathForms(v, root, cwd, home string) (forms []string, linked bool) {
	base := cwd
	if base == "" {
		base = root
	}
	var raw []string
	add := func(p string) {
		if p == "" || len(forms) >= maxPathForms {
			return
		}
		c := path.Clean(p)
		for _, f := range forms {
			if f == c {
				return
			}
		}
		forms, raw = append(forms, c), append(raw, p)
	}
	join := func(dir, p string) string { return strings.TrimSuffix(dir, "/") + "/" + p } // uncleaned: for the kernel's ..
	switch {
	case strings.HasPrefix(v, "~/") || v == "~":
		if home != "" {
			add(join(home, strings.TrimPrefix(v[1:], "/")))
		} else {
			add(v)
		}
	case !path.IsAbs(v):
		// Relative: in the project root, as Claude Code anchors a tool's relative path,
		// and in the call's working directory.
		if root != "" {
			add(join(root, v))
		}
		if cwd != "" {
			add(join(cwd, v))
		}
		if root == "" && cwd == "" {
			add(v)
		}
	default:
		add(v)
	}
	if m := procAlias().FindStringSubmatch(path.Clean(v)); m != nil {
		kind, rest := m[1]+m[2], strings.TrimPrefix(m[3], "/")
		switch {
		case kind == "cwd":
			add(path.Join(base, rest))
		case kind == "root":
			add("/" + rest)
		default: // an fd's directory: anywhere, so where the rules look
			if rest != "" {
				add(path.Join(base, rest))
				if root != "" {
					add(path.Join(root, rest))
				}
			}
		}
	}
	realRoot := ""
	if root != "" {
		if r, err := filepath.EvalSymlinks(root); err == nil {
			realRoot = filepath.ToSlash(r)
		}
	}
	for _, f := range append([]string(nil), raw...) {
		if len(f) > maxResolve {
			// The kernel refuses it as written, but a tool that cleans the path first (Node's
			// path.resolve) opens the cleaned one: resolve that (red team round 44: /ws/ and
			// 900 "a/../" then x, a link to .env, missed a .env rule).
			f = path.Clean(f)
		}
		if !path.IsAbs(f) || len(f) > maxResolve {
			continue
		}
		r, fi := resolveExisting(f)
		if fi != nil && fi.Mode().IsRegular() && linkCount(fi) > 1 {
			linked = true
		}
		add(r)
		if realRoot != "" && realRoot != root {
			if rel, ok := strings.CutPrefix(r, strings.TrimSuffix(realRoot, "/")+"/"); ok {
				add(path.Join(root, rel))
			}
		}
	}
	return forms, linked
}

// maxResolve is the longest path whose symlinks are resolved, in bytes (Linux's PATH_MAX:
// the kernel refuses a longer one).
const maxResolve = 4096

// resolveExisting resolves the absolute path p as the kernel walks it for an open or a
// create: component by component, each symlink's target spliced in (a relative target from
// the link's directory), `..` the parent of the directory reached so far (so `link/..` is the
// parent of the link's target), and the part from the first component that does not exist
// appended as written. A dangling symlink resolves to its target, which is where a write
// through it lands (open with O_CREAT follows it: red team, stop 20, `ln -s .env.prod x`
// then Write x). More than 40 links (the kernel's ELOOP bound) or an unreadable link: p
// cleaned. One Lstat per component walked, one Readlink per link. fi is the Lstat of the
// resolution when all of it exists (not a symlink), else nil.
func resolveExisting(p string) (resolved string, fi os.FileInfo) {
	const maxLinks = 40 // Linux's MAXSYMLINKS
	rest := strings.Split(p, "/")
	cur, links := "/", 0
	var last os.FileInfo // of cur, when cur is not "/"
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur, last = path.Dir(cur), nil // a directory: not a file with links
			continue
		}
		next := path.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return path.Join(append([]string{next}, rest...)...), nil
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur, last = next, fi
			continue
		}
		links++
		target, err := os.Readlink(next)
		if err != nil || links > maxLinks {
			return path.Clean(p), nil
		}
		if strings.HasPrefix(target, "/") {
			cur = "/"
		}
		rest = append(strings.Split(filepath.ToSlash(target), "/"), rest...)
	}
	if cur == "/" {
		return cur, nil
	}
	return cur, last
}

// homeDir is $HOME for ~/ in a file path when the Subject was given none.
func homeDir() string {
	h, _ := os.UserHomeDir()
	return h
}

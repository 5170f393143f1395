package match

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// HookConfig is the value of a `changes` clause that protects hookcore's own config paths
// (Subject.WithHookConfig): the files its discovery loads hooks from, the trust store and
// its state directory (red team round 53).
const HookConfig = "hook_config"

// WithHookConfig sets hookcore's config paths that a `changes hook_config` clause protects
// and returns s. Each is absolute and may have glob components, as startup paths may
// (`/proj/.github/hooks/*.json`). The clause holds for a write, creation, removal, move,
// link or mode change of one of them or of anything under one, and for a copy, move,
// link or extraction that may create or replace a directory on the path to one: the
// startup paths' reading (WithStartup, lineStartup), with a floor (lineWrites): a word
// naming the home, the project root or a directory above them does not make another
// command hold. Call it before s is used. Without it the clause never holds. Source: red
// team round 53 (`cp x ~/.mi*/config.yaml`, `cd ~/.claude && cp x settings.json`).
func (s *Subject) WithHookConfig(paths []string) *Subject {
	s.config = paths
	return s
}

// floor returns the directories at and above which a word of a command does not count for
// a path clause (lineWrites): the home, the project root (the working directory when the
// root is not known), and the working directory when it is in the project and no name on
// its path below the root starts with a dot (a project's subdirectory, where `make -C ..`
// is ordinary; not .claude nor .git, where a previous call's cd may have left the shell).
func (s *Subject) floor() []string {
	home := s.homePath()
	root := s.root
	if root == "" {
		root = s.cwd
	}
	dirs := []string{home, root}
	if s.projectSubdir(s.cwd) {
		dirs = append(dirs, s.cwd)
	}
	var out []string
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Clean(d))
		}
	}
	return append(out, "/") // never nil: the floor's rule
}

// leadingCd returns the directory the rest of the Bash line cmd runs in when it starts
// with `cd DIR &&` (after a `mkdir [-p] DIR... &&`): DIR taken from the working directory,
// when both are plain words and it is a project subdirectory of the floor's kind (floor:
// inside the project root, no name on its path below the root starts with a dot, and so
// for its symlinks resolved). The commands after the cd run only if it succeeded, so there
// (or in a CDPATH directory, which the line's directories hold: startupCwds), as they would
// with the call's working directory there (red team round 54: `cd build && tar -xzf
// ../dist.tgz` was blocked, the same tar from build was not).
func (s *Subject) leadingCd(cmd string) (string, bool) {
	parts := strings.SplitN(cmd, "&&", 3)
	if len(parts) < 2 {
		return "", false
	}
	words := strings.Fields(parts[0])
	if len(words) > 1 && words[0] == "mkdir" && len(parts) == 3 {
		for _, w := range words[1:] {
			if w != "-p" && !plainDir(w) {
				return "", false
			}
		}
		words = strings.Fields(parts[1])
	}
	if len(words) != 2 || words[0] != "cd" || !plainDir(words[1]) || !filepath.IsAbs(s.cwd) {
		return "", false
	}
	d := filepath.Join(s.cwd, words[1])
	if !s.projectSubdir(d) {
		return "", false
	}
	if r, err := s.evalSymlinks(d); err == nil && r != d && !s.projectSubdir(r) {
		return "", false
	}
	return d, true
}

// leadingAbsCd returns the directory the rest of the Bash line cmd runs in when it starts
// with `cd DIR &&`, DIR an absolute path of plain bytes with no . or .. name (CDPATH is not
// searched for it). The commands after the cd run only if it succeeded, so there: lineWrites
// takes it for the working directory when no protected path is at, under or below it,
// symbolic links resolved, as `tar -xf x.tar -C DIR` is judged (a false positive of red
// team round 54's reading, stop 32: `cd /var/tmp && tar xf x.tar` was read as extracting in
// the project too).
func leadingAbsCd(cmd string) (string, bool) {
	parts := strings.SplitN(cmd, "&&", 2)
	if len(parts) < 2 {
		return "", false
	}
	words := strings.Fields(parts[0])
	if len(words) != 2 || words[0] != "cd" || !strings.HasPrefix(words[1], "/") || !plainDir(strings.TrimLeft(words[1], "/")) {
		return "", false
	}
	return filepath.Clean(words[1]), true
}

// plainDir reports whether w is a relative directory name of plain bytes (letters, digits,
// - _ / .) with no component that starts with a dot (no .., no .claude).
func plainDir(w string) bool {
	if w == "" || w[0] == '-' || w[0] == '/' {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_/.", c) >= 0) {
			return false
		}
	}
	for _, c := range strings.Split(w, "/") {
		if strings.HasPrefix(c, ".") {
			return false
		}
	}
	return true
}

// projectSubdir reports whether the clean absolute path d is inside the project root (the
// working directory when the root is not known) with no name below the root that starts
// with a dot: a directory of the floor (floor).
func (s *Subject) projectSubdir(d string) bool {
	root := s.root
	if root == "" {
		root = s.cwd
	}
	rel, ok := strings.CutPrefix(d, strings.TrimSuffix(filepath.Clean(root), "/")+"/")
	return ok && filepath.IsAbs(root) && !strings.HasPrefix(rel, ".") && !strings.Contains(rel, "/.")
}

// changesPaths reports whether the text v of the clause's field (a Bash line for
// args.command, a path for file_path) may change one of paths (withLinkTargets): lineWrites
// with the floor, or pathReaches.
func (s *Subject) changesPaths(file bool, v string, paths []string) bool {
	paths = withLinkTargets(paths)
	if file {
		return s.pathReaches(v, paths)
	}
	return s.lineWrites(v, paths, s.floor())
}

// withLinkTargets returns paths with, after them, the target of each that is a symbolic
// link, every link on the way resolved (filepath.EvalSymlinks): a write under the target is
// a write under the link (red team round 60: ~/.claude/skills -> ~/dotfiles/skills, and
// `printf ... > ~/dotfiles/skills/x/SKILL.md`). A path with glob components is not
// resolved. It costs one lstat(2) per path; paths is not modified.
func withLinkTargets(paths []string) []string {
	out := paths
	for _, p := range paths {
		if strings.ContainsAny(p, "*?[") {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		t, err := filepath.EvalSymlinks(p)
		if err != nil || t == p || slices.Contains(out, t) {
			continue
		}
		if len(out) == len(paths) {
			out = slices.Clip(paths)
		}
		out = append(out, t)
	}
	return out
}

// clausePaths returns a `changes "PATH"` clause's path as absolute path patterns for s: ~/
// is the home; a relative path is taken from the project root, and from the call's working
// directory when the root is not known, or when the working directory is inside the project
// and has the path's first name (a nested repository's .git/hooks is as much a repository's
// hooks); none when neither is known.
func (s *Subject) clausePaths(p string) []string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := s.homePath()
		if home == "" {
			return nil
		}
		return []string{filepath.Join(home, p[1:])}
	}
	if filepath.IsAbs(p) {
		return []string{p}
	}
	var out []string
	if filepath.IsAbs(s.root) {
		out = append(out, filepath.Join(s.root, p))
	}
	if !filepath.IsAbs(s.cwd) || slices.Contains(out, filepath.Join(s.cwd, p)) {
		return out
	}
	first, _, _ := strings.Cut(p, "/")
	if _, err := os.Lstat(filepath.Join(s.cwd, first)); s.root == "" || strings.HasPrefix(s.cwd, strings.TrimSuffix(s.root, "/")+"/") && err == nil {
		out = append(out, filepath.Join(s.cwd, p))
	}
	return out
}

// checkChangesPath checks the value of a `changes "PATH"` clause: an absolute path, ~ or
// ~/..., or a path relative to the project root, with no expansion ($, `) and no .. that
// leaves the root; glob components (*, ?, [...]) are file-name text. It returns the path
// cleaned.
func checkChangesPath(val string) (string, error) {
	switch {
	case val == "":
		return "", fmt.Errorf("changes takes %s, %s or a quoted path, found an empty path", HookProgram, HookConfig)
	case strings.ContainsAny(val, "$`"):
		return "", fmt.Errorf("changes %q: a path has no $ or ` expansion", val)
	case strings.HasPrefix(val, "~") && val != "~" && !strings.HasPrefix(val, "~/"):
		return "", fmt.Errorf("changes %q: only your own home is known (~ or ~/...)", val)
	case strings.ContainsRune(val, '{'):
		return "", fmt.Errorf("changes %q: a path has no {a,b} alternatives (write one clause for each)", val)
	}
	c := filepath.Clean(val)
	if !filepath.IsAbs(c) && !strings.HasPrefix(c, "~") && (c == ".." || strings.HasPrefix(c, "../")) {
		return "", fmt.Errorf("changes %q: a relative path is taken from the project root and cannot leave it", val)
	}
	if c == "." || c == "/" || c == "~" {
		return "", fmt.Errorf("changes %q: a path below the project root, the home or / (a clause on the whole of one would hold for every write)", val)
	}
	return c, nil
}

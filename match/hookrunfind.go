package match

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// findNames returns the -name and -iname patterns of a find expression (args after the
// program) that is a plain conjunction, fold set when one is -iname: find then acts only on
// files whose name matches every one. nil when there is none, or when the expression has
// -o, -or, a comma, !, -not or parentheses (a file may then be acted on by another branch).
func findNames(args []string) (names []string, fold bool) {
	for i, a := range args {
		switch a {
		case "-o", "-or", ",", "!", "-not", "(", ")", `\(`, `\)`:
			return nil, false
		case "-name", "-iname":
			if i+1 >= len(args) {
				return nil, false
			}
			names = append(names, strings.Trim(args[i+1], `"'`))
			fold = fold || a == "-iname"
		}
	}
	return names, fold
}

// findSpares reports whether a find from the root word root, whose -name tests are names
// (findNames), acts on none of the protected paths the root may reach nor on a directory
// on the path to one: no name on such a path matches every pattern (find's -name matches
// a leading dot too), nor does the name of an entry that exists under one (entryMatches:
// `.git/hooks/pre-commit.sample`, read from the file system as it is). A root that reaches a path only through an expansion or a symlink spares nothing.
// `find . -name '*.pyc' -delete` in the project leaves .claude/settings.json alone (red
// team round 53's floor).
func (c *startupCheck) findSpares(root string, names []string, fold bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	for _, cand := range startupCands(root, c.home, c.cwds) {
		pc := components(cand)
		for i, sc := range c.comps {
			r, hole := relateComponents(pc, sc, !c.dotglob)
			if r == reachNone {
				continue
			}
			if hole || entryMatches(c.paths[i], names, fold) {
				return false
			}
			found = true
			for _, comp := range sc {
				if nameMatchesAll(comp, names, fold) {
					return false
				}
			}
		}
	}
	return found
}

// maxFindWalk bounds the entries entryMatches reads under the protected directories one
// find may reach; past it, some entry may match.
const maxFindWalk = 1000

// entryMatches reports whether, under the path pattern p (each of a glob's matches), an
// entry that exists has a name that matches every pattern of names: find acts on it. A
// directory that cannot be read, or holds more than maxFindWalk entries, may hold one.
func entryMatches(p string, names []string, fold bool) bool {
	matches := []string{p}
	if !literalName(p) {
		m, err := filepath.Glob(p)
		if err != nil {
			return true
		}
		matches = m
	}
	n := 0
	for _, m := range matches {
		if _, err := os.Lstat(m); err != nil {
			if fi, derr := os.Stat(filepath.Dir(m)); errors.Is(err, fs.ErrNotExist) || derr != nil || !fi.IsDir() {
				continue // nothing there (a worktree's .git is a file): nothing for find to act on
			}
			return true
		}
		err := filepath.WalkDir(m, func(q string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if n++; n > maxFindWalk {
				return errFindWalk
			}
			if q != m && nameMatchesAll(d.Name(), names, fold) {
				return errFindWalk
			}
			return nil
		})
		if err != nil {
			return true
		}
	}
	return false
}

// errFindWalk stops entryMatches' walk: an entry may match.
var errFindWalk = errors.New("a find may act on an entry")

// nameMatchesAll reports whether the path component comp (a name, or a glob of names) may
// match every find -name pattern of names (with fold, -iname: case folded).
func nameMatchesAll(comp string, names []string, fold bool) bool {
	for _, n := range names {
		c := comp
		if fold {
			c, n = strings.ToLower(c), strings.ToLower(n)
		}
		if literalName(c) {
			if ok, err := path.Match(n, c); !ok && err == nil {
				return false
			}
			continue
		}
		if meet, ok := globsMeet(compileGlob("", false, c, fold, false), compileGlob("", false, n, fold, false), false); ok && !meet {
			return false
		}
	}
	return true
}

// findEmptyDirs reports whether a find expression (args after the program) deletes only
// empty directories: a plain conjunction (no -o, comma, !, -not or parentheses) with
// -empty and -type d whose only action is -delete. No file can be under what it deletes
// (red team round 54: `find . -empty -type d -delete` in the project).
func findEmptyDirs(args []string) bool {
	empty, dirs, del := false, false, false
	for i, a := range args {
		switch a {
		case "-o", "-or", ",", "!", "-not", "(", ")", `\(`, `\)`, "-exec", "-execdir", "-ok", "-okdir",
			"-fprint", "-fprint0", "-fprintf", "-fls":
			return false
		case "-empty":
			empty = true
		case "-delete":
			del = true
		case "-type", "-xtype":
			if i+1 >= len(args) {
				return false
			}
			if a == "-type" && args[i+1] == "d" {
				dirs = true
			}
		}
	}
	return empty && dirs && del
}

package hookcore

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// maxCoverMatches caps the paths one glob of a hook's command may match for its trust cover
// (addMatches), at every level of the pattern: past it the word is not covered. A repository
// controls the files a trusted pattern meets; `l*/l*/…/l*` through eight symlinks to "."
// matched 8^12 paths, and resolving it hung every hook event (stop 23, red team).
const maxCoverMatches = 64

// globBounded is filepath.Glob with its work bounded: the same matches in the same order
// (directories in lexical order, names in lexical order in each), or ok false when the
// pattern, or the directory part of it at any level, matches more than max paths, or a
// directory it reads holds more than maxGlobDirNames names; then no matches. A malformed
// pattern matches nothing (ok true), as filepath.Glob's ErrBadPattern did for the cover.
// Each level reads at most max directories of at most maxGlobDirNames names, so the work
// is at most the pattern's depth times max times maxGlobDirNames names.
func globBounded(pattern string, max int) (matches []string, ok bool) {
	if _, err := filepath.Match(pattern, ""); err != nil {
		return nil, true
	}
	if !hasGlobMeta(pattern) {
		if _, err := os.Lstat(pattern); err != nil {
			return nil, true
		}
		return []string{pattern}, true
	}
	dir, file := filepath.Split(pattern)
	dir = cleanGlobDir(dir)
	if !hasGlobMeta(dir) {
		return globDir(dir, file, nil, max)
	}
	if dir == pattern {
		return nil, true // filepath.Glob: ErrBadPattern, not endless recursion
	}
	dirs, ok := globBounded(dir, max)
	if !ok {
		return nil, false
	}
	for _, d := range dirs {
		if matches, ok = globDir(d, file, matches, max); !ok {
			return nil, false
		}
	}
	return matches, true
}

// globDir appends to matches the names in dir that match pattern (one path element), in
// lexical order; ok false when matches would pass max.
func globDir(dir, pattern string, matches []string, max int) ([]string, bool) {
	found, complete, _ := regularfile.Glob(dir, pattern, maxGlobDirNames)
	if !complete || len(matches)+len(found) > max {
		return nil, false
	}
	return append(matches, found...), true
}

// maxGlobDirNames caps the names globDir reads from one directory: past it the pattern is
// not followed. The match cap alone did not bound the work, since a pattern that matches
// nothing still reads every name (stop 23, red team round 15: a trusted `src/*/*.go` with
// sixty-four symlinks to a directory of a million files took 38 s per hook event).
const maxGlobDirNames = 4096

// hasGlobMeta reports whether path contains any of filepath.Match's special characters.
func hasGlobMeta(path string) bool {
	magic := `*?[`
	if runtime.GOOS != "windows" {
		magic = `*?[\`
	}
	return strings.ContainsAny(path, magic)
}

// cleanGlobDir prepares the directory part of a pattern as filepath.Glob does: "." for
// none, a root (`/`, `C:\`) as it is, a bare volume `C:` as `C:.`, otherwise without its
// trailing separator.
func cleanGlobDir(path string) string {
	vol := len(filepath.VolumeName(path))
	switch {
	case path == "":
		return "."
	case vol+1 == len(path) && os.IsPathSeparator(path[len(path)-1]):
		return path
	case vol == len(path) && len(path) == 2:
		return path + "."
	}
	return path[:len(path)-1]
}

package config

import (
	"io/fs"
	"os"
	"slices"
)

// Set is the effective configuration: the files of all layers, in load order.
type Set struct {
	Files []*File
	// Disabled is set when any file says disable_all_hooks: true.
	Disabled bool
}

// Hooks returns the hooks of all files in order: layers append, they never override
// (DESIGN.md section 4). It returns none when the Set is Disabled, and leaves out hooks with
// enabled: false.
func (s *Set) Hooks() []Hook {
	if s == nil || s.Disabled {
		return nil
	}
	var out []Hook
	for _, f := range s.Files {
		for _, h := range f.Hooks {
			if h.Enabled {
				out = append(out, h)
			}
		}
	}
	return out
}

// Load parses each file with ParseFile and returns them as a Set, with the problems of all
// files: file by file in load order, sorted within a file. A file that cannot be loaded as
// a whole is in the Set, Failed and without hooks; a hook entry with an error is in its
// file's Broken list, not in Hooks. Callers that must not run a partial configuration check
// problems.Err(). The Set is never nil.
//
// A file named more than once — by a relative and an absolute path, through "..", through a
// symlink, as --config and by discovery — is loaded once, under its first path and layer:
// files are compared with os.SameFile on the opened file (issue 8.8), so its hooks never
// run twice.
func Load(paths []LayerPath) (*Set, ErrorList) {
	s := &Set{}
	var probs ErrorList
	var seen []fs.FileInfo
	for _, lp := range paths {
		f, p, st := parseFile(lp.Path, lp.Layer)
		if st != nil {
			if slices.ContainsFunc(seen, func(o fs.FileInfo) bool { return os.SameFile(o, st) }) {
				continue
			}
			seen = append(seen, st)
		}
		probs = append(probs, p...)
		s.Files = append(s.Files, f)
		if f.DisableAll {
			s.Disabled = true
		}
	}
	return s, probs
}

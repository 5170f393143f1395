package config

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
// files: file by file in load order, sorted within a file. A file with errors is in the Set without hooks; callers that must not run
// a partial configuration check problems.Err(). The Set is never nil.
func Load(paths []LayerPath) (*Set, ErrorList) {
	s := &Set{}
	var probs ErrorList
	for _, lp := range paths {
		f, p := ParseFile(lp.Path, lp.Layer)
		probs = append(probs, p...)
		s.Files = append(s.Files, f)
		if f.DisableAll {
			s.Disabled = true
		}
	}
	return s, probs
}

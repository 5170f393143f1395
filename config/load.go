package config

import (
	"io/fs"
	"os"
	"slices"
)

// Set is the effective configuration: the files of all layers, in load order.
type Set struct {
	Files []*File
	// MCP are the files that declare MCP servers for mcp_tool hooks (MCPSources); the
	// caller that discovers the config fills it in. A Project one is part of TrustDigest.
	MCP []MCPSource
	// Disabled is set when any file but a managed one says disable_all_hooks: true.
	Disabled bool
}

// Hooks returns the hooks of all files in order: layers append, they never override
// (DESIGN.md section 4). It leaves out hooks with enabled: false and the files a kill switch
// turns off: when the Set is Disabled, every file but Claude Code's managed ones (unless a
// managed file disables all), and with a managed allowManagedHooksOnly every file but the
// managed ones. (The trust gate is hookcore's: see hookcore.SwitchedOff.)
func (s *Set) Hooks() []Hook {
	if s == nil {
		return nil
	}
	var out []Hook
	managedOff, managedOnly := false, false
	for _, f := range s.Files {
		if f.Layer == Managed {
			managedOff = managedOff || f.DisableAll
			managedOnly = managedOnly || f.ManagedOnly
		}
	}
	for _, f := range s.Files {
		if managedOff || (f.Layer != Managed && (s.Disabled || managedOnly)) {
			continue
		}
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
		if f.DisableAll && f.Layer != Managed {
			s.Disabled = true
		}
	}
	return s, probs
}

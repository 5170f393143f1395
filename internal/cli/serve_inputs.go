//go:build !hookcore_lean

package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/regularfile"
)

// inputs is what one of serve's Runners was built from, to tell at each event whether it
// still decides as `hookcore hook` would, which loads and compiles the config at every
// event. The hook command's trust checks read, when it compiles: the trust store, the
// project and local config files (the grant's digest) and the project's .mcp.json, and
// for each trusted project hook the scripts it runs (its hookcore.HookCover). serve reads
// the same at each event and rebuilds the Runner when any differs.
type inputs struct {
	// stamp is configStamp and the trust store's content hash, taken before the load: a
	// change after it is seen by the next event.
	stamp string
	// files are the content hashes of the project and local config files and the project's
	// .mcp.json as the load read them (nil: the config did not load).
	files []pinnedFile
	// covers are the cover digests of the project and local hooks, computed after the load
	// and before the compile, when the project config was trusted (trusted).
	covers  []string
	trusted bool
	set     *config.Set
	root    string
}

// pinnedFile is one file whose content a Runner was built from.
type pinnedFile struct {
	path string
	max  int64 // the cap the loader read it with
	hash string
}

// stampInputs starts the inputs of a Runner about to be loaded with cf.
func (e *env) stampInputs(cf *configFlags) *inputs {
	return &inputs{stamp: e.inputStamp(cf)}
}

// inputStamp is configStamp plus the trust store's content.
func (e *env) inputStamp(cf *configFlags) string {
	s := e.configStamp(cf)
	if e.home != "" {
		s += "trust " + contentHash(filepath.Join(e.home, ".hookcore", "trust.json"), 64<<20) + "\n"
	}
	return s
}

// pin records, from the loaded config, the files and covers in (loadRunnerThen's then).
func (in *inputs) pin(l *loaded) {
	in.set, in.root, in.trusted = l.set, l.projectDir, l.projectTrusted && l.store != nil
	in.files = []pinnedFile{}
	for _, f := range l.set.Files {
		if f.Layer != config.Project && f.Layer != config.Local {
			continue
		}
		h := f.Hash
		if f.Failed {
			h = contentHash(f.Path, config.MaxFileSize) // a file the loader could not read whole
		}
		in.files = append(in.files, pinnedFile{f.Path, config.MaxFileSize, h})
	}
	for _, m := range l.set.MCP {
		if m.Layer == config.Project {
			in.files = append(in.files, pinnedFile{m.Path, config.MaxMCPFile, m.Hash})
		}
	}
	if in.trusted {
		in.covers = projectCovers(l.set, l.projectDir)
	}
}

// changed reports whether in no longer describes the files as they are now.
func (e *env) changed(cf *configFlags, in *inputs) bool {
	if e.inputStamp(cf) != in.stamp {
		return true
	}
	if in.files == nil {
		return false // the config did not load: only the stamp decides
	}
	for _, f := range in.files {
		if contentHash(f.path, f.max) != f.hash {
			return true
		}
	}
	return in.trusted && !slices.Equal(projectCovers(in.set, in.root), in.covers)
}

// projectCovers returns the HookCover digest of every project and local hook of set, broken
// ones included, in file order: what the compile's trust gate checks against the grant.
func projectCovers(set *config.Set, root string) []string {
	var out []string
	for _, f := range set.Files {
		if f.Layer != config.Project && f.Layer != config.Local {
			continue
		}
		for i := range f.Hooks {
			out = append(out, hookcore.CoverHook(&f.Hooks[i], f, root).Digest)
		}
		for i := range f.Broken {
			out = append(out, hookcore.CoverHook(&f.Broken[i].Hook, f, root).Digest)
		}
	}
	return out
}

// contentHash is the hex SHA-256 of the regular file at path (read through a cap of max
// bytes, never waiting on a named pipe), or why it could not be read.
func contentHash(path string, max int64) string {
	data, _, err := regularfile.Read(path, max)
	if err != nil {
		if os.IsNotExist(err) {
			return "missing"
		}
		return "error: " + err.Error()
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// configStamp is the size and mtime of every config file serve would load (present or not),
// so that a change notices an edit, a new layer file or a removed one. Discovery looks for
// every agent's files, as load does for the trust digest.
func (e *env) configStamp(cf *configFlags) string {
	var paths []string
	if len(cf.files) > 0 {
		for _, p := range cf.files {
			if !filepath.IsAbs(p) {
				p = filepath.Join(e.cwd, p)
			}
			paths = append(paths, p)
		}
	} else {
		d := e.discovery(cf, e.projectRoot())
		d.Agents = nil
		lps, _ := d.Paths()
		for _, lp := range lps {
			paths = append(paths, lp.Path)
		}
	}
	var sb strings.Builder
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&sb, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		} else {
			fmt.Fprintf(&sb, "%s -\n", p)
		}
	}
	return sb.String()
}

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
	"sync"

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
	// env are the content hashes of the project env files the hook command's env checks
	// read besides the config files (claudeEnvProblem, geminiEnvProblem): the Gemini CLI
	// .env, and the Claude Code settings of $CLAUDE_PROJECT_DIR. A trust grant accepts them
	// as they were (stop 29), so a change rebuilds the Runner, and they are judged again.
	env    []pinnedFile
	stamps *stampCache // what discovery found, kept from one Runner of the agent to the next
	set    *config.Set
	root   string
}

// pinnedFile is one file whose content a Runner was built from.
type pinnedFile struct {
	path string
	max  int64 // the cap the loader read it with
	hash string
}

// stampInputs starts the inputs of a Runner about to be loaded with cf; stamps (nil: none)
// keeps what discovery found between events.
func (e *env) stampInputs(cf *configFlags, stamps *stampCache) *inputs {
	return &inputs{stamp: e.inputStamp(cf, stamps), stamps: stamps}
}

// inputStamp is configStamp plus the trust store's content.
func (e *env) inputStamp(cf *configFlags, stamps *stampCache) string {
	trustHash := ""
	if e.home != "" {
		trustHash = contentHash(filepath.Join(e.home, ".hookcore", "trust.json"), 64<<20)
	}
	s := e.configStamp(cf, stamps, trustHash)
	if e.home != "" {
		s += "trust " + trustHash + "\n"
	}
	return s
}

// pinEnv records the project env files of the hook command's env checks (inputs.env) for
// the workspace root, those of the agent cf serves (loadRunnerThen).
func (in *inputs) pinEnv(e *env, cf *configFlags, root string) {
	var paths []string
	if cf.agents != nil && !slices.Contains(cf.agents, config.GeminiCLI) {
		paths = geminiEnvFiles(e.cwd, e.home)
	}
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" && filepath.IsAbs(d) && d != root && cf.agents != nil && !slices.Contains(cf.agents, config.Claude) {
		paths = append(paths, filepath.Join(d, ".claude", "settings.json"), filepath.Join(d, ".claude", "settings.local.json"))
	}
	in.env = []pinnedFile{}
	for _, p := range paths {
		in.env = append(in.env, pinnedFile{p, 16 << 20, contentHash(p, 16<<20)})
	}
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
	if e.inputStamp(cf, in.stamps) != in.stamp {
		return true
	}
	for _, f := range in.env {
		if contentHash(f.path, f.max) != f.hash {
			return true
		}
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
// every agent's files, as load does for the trust digest. trustHash is the trust store's
// content hash (it decides the project root: see stampPaths).
func (e *env) configStamp(cf *configFlags, stamps *stampCache, trustHash string) string {
	if len(cf.files) == 0 {
		files, dirs := e.stampPaths(cf, stamps, trustHash)
		return statLines(files) + dirs
	}
	paths := make([]string, 0, len(cf.files))
	for _, p := range cf.files {
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.cwd, p)
		}
		paths = append(paths, p)
	}
	return statLines(paths)
}

// statLines is one line per path: its size, mtime and inode change time, or "-" when it
// cannot be examined. The change time is what no program sets back: a new file added to a
// directory whose mtime was then restored with touch (red team round 34) still shows.
func statLines(paths []string) string {
	var sb strings.Builder
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			ctime, _ := regularfile.ChangeTime(fi)
			fmt.Fprintf(&sb, "%s %d %d %d\n", p, fi.Size(), fi.ModTime().UnixNano(), ctime)
		} else {
			fmt.Fprintf(&sb, "%s -\n", p)
		}
	}
	return sb.String()
}

// stampCache keeps what discovery found for configStamp between events (one per agent's
// Runner, agentRunner.stamps): running discovery at every event was three quarters of a
// discovered serve's decision (BenchmarkServeDecisionDiscovered: 236 µs p50, 45 µs before
// red team round 33's per-event check).
type stampCache struct {
	mu       sync.Mutex
	key      string   // the trust store's hash and the project root the paths were found with
	files    []string // the paths discovery found
	dirs     []string // the directories of all it looked at (the nearest that exists)
	dirStamp string   // statLines(dirs) when found
}

// stampPaths returns the candidates discovery found and the stat lines of the directories
// of all its candidates, found or not (the nearest that exists), whose mtime changes when a
// file is added to one or removed (a new Copilot CLI hook file matching
// .github/hooks/*.json, a settings file created). Discovery runs again when the trust store
// (which may name another workspace root), the project root or one of those directories
// changed; else the last candidates serve.
func (e *env) stampPaths(cf *configFlags, c *stampCache, trustHash string) (files []string, dirStamp string) {
	key := trustHash + "\x00" + rootOf(e.cwd)
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.key == key && c.files != nil {
			if ds := statLines(c.dirs); ds == c.dirStamp {
				return c.files, ds
			}
		}
	}
	d := e.discovery(cf, e.projectRoot())
	d.Agents = nil
	cands, _ := d.Look()
	var dirs []string
	seen := map[string]bool{}
	// The files that decide which Gemini CLI extensions load, and how (their manifests,
	// install metadata, the enablement file), count as config files (stop 31); the
	// enablement file's directory is where a new extension appears.
	var inputs []config.Candidate
	if e.home != "" {
		inputs = append(inputs, config.Candidate{LayerPath: config.LayerPath{Path: config.GeminiExtensionEnablement(e.home)}})
	}
	for _, cand := range cands {
		for _, p := range cand.Inputs {
			inputs = append(inputs, config.Candidate{LayerPath: config.LayerPath{Path: p}})
		}
	}
	for _, cand := range inputs {
		files = append(files, cand.Path)
	}
	for _, cand := range append(cands, inputs...) {
		if cand.Found {
			files = append(files, cand.Path)
		}
		// A file created where none was changes the mtime of the nearest directory that
		// exists above it (the directory it goes in, or the one a new directory of its
		// path goes in).
		dir := filepath.Dir(cand.Path)
		for {
			if _, err := os.Stat(dir); err == nil || filepath.Dir(dir) == dir {
				break
			}
			dir = filepath.Dir(dir)
		}
		if !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	dirStamp = statLines(dirs)
	if c != nil {
		c.key, c.files, c.dirs, c.dirStamp = key, files, dirs, dirStamp
	}
	return files, dirStamp
}

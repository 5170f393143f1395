// Package trust records which workspaces the user trusts to run their project-level hooks.
//
// A repository can ship hooks in .hookcore/hooks.yaml; running them the moment a user opens
// the repository would run a stranger's code. So project and local layers of a workspace run
// only after the user trusted that workspace, and trust is recorded against a digest of those
// files' content: a changed config must be trusted again (the s08 teaching harness's
// workspace trust gate, DESIGN.md section 7). User-level and explicitly named configs are the
// user's own and need no trust.
//
// The store is one JSON file, by default ~/.hookcore/trust.json, written atomically (a
// temporary file renamed over the old one), so a crash never leaves it half-written.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"sort"
	"time"
)

// Entry is one trusted workspace.
type Entry struct {
	// Digest is the digest of the workspace's project and local config files when trusted.
	Digest string `json:"digest"`
	// Hooks are the digests of the project and local hooks trusted, each over the hook's
	// definition and the scripts inside the project that it runs (hookcore.CoverHook). A hook
	// whose digest is not here is pending. Nil in entries written before hooks were covered:
	// every hook of such a workspace is pending until it is granted again.
	Hooks []string `json:"hooks"`
	// Files are the content hashes of the project and local config files trusted, by path
	// (relative to the workspace when inside it): what `trust show` compares to say which
	// file changed. Nil in entries written before stop 25.
	Files map[string]string `json:"files,omitempty"`
	// Env are the project env files whose variables the grant accepts, each by its path
	// relative to the workspace (config.EnvKey: ".claude/settings.json", ".env") with the
	// digest of what it gives every hook (config.ProjectEnv.Digest), as `trust show` listed
	// them: under an agent, a variable of such a file that config.GuardEnv refuses is
	// accepted while the grant holds and the file's digest is the one recorded. Nil in
	// entries written before stop 29, which accept none.
	Env map[string]string `json:"env,omitempty"`
	// Time is when trust was granted.
	Time time.Time `json:"time"`
}

// Store is the trust store file. The zero value is not usable; use NewStore or DefaultStore.
// A Store holds no state in memory: every call reads the file, so several processes can share
// it (the last writer wins). A pinned Store (Pinned) is the exception: its lookups answer
// from one read.
type Store struct {
	// Path is the JSON file: {"workspaces": {"/abs/path": {"digest": "...", "time": "..."}}}.
	Path string
	// pin holds a pinned store's read; nil for any other.
	pin *pin
}

type fileFormat struct {
	Workspaces map[string]Entry `json:"workspaces"`
}

// NewStore returns a store kept in the file at path.
func NewStore(path string) *Store { return &Store{Path: path} }

// DefaultStore returns the store under home: home/.hookcore/trust.json.
func DefaultStore(home string) *Store {
	return NewStore(filepath.Join(home, ".hookcore", "trust.json"))
}

// Digest returns the digest that trust is recorded against: a SHA-256 over the given parts
// (for config files: "path\x00sha256-of-content" each), order-independent. No parts (a
// workspace without project config) gives the digest of nothing, which is still a digest.
func Digest(parts ...string) string {
	sorted := append([]string(nil), parts...)
	sort.Strings(sorted)
	h := sha256.New()
	for _, p := range sorted {
		h.Write([]byte(p))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Canonical returns the key a workspace is stored under: its absolute, symlink-resolved path.
func Canonical(workspace string) (string, error) {
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// read reads the file: a lookup's read, which a pinned store answers from its first.
// Callers do not modify what it returns.
func (s *Store) read() (fileFormat, error) {
	if s.pin != nil {
		return s.pin.read(s.Path)
	}
	return s.readFile()
}

// readFile reads the file, also for a pinned store: a write's read, whose result the writer
// modifies.
func (s *Store) readFile() (fileFormat, error) {
	var f fileFormat
	err := readJSON(s.Path, "trust store", &f)
	if f.Workspaces == nil {
		f.Workspaces = map[string]Entry{}
	}
	return f, err
}

// write writes f as the file; a pinned store's next lookup reads it again.
func (s *Store) write(f fileFormat) error {
	if s.pin != nil {
		defer s.pin.drop()
	}
	return writeJSON(s.Path, "trust store", f)
}

// Lookup returns the entry of a workspace; ok is false when it was never trusted.
// An unreadable or corrupt store is an error.
//
// The entry is looked up under the workspace's canonical path (see Canonical), then, when
// that differs, under its absolute path as written: a workspace moved away, with a symlink
// to it (or to a stripped copy) left in its place, keeps its entry, whose digest is then
// checked against the config behind the link (red team round 22: `mv proj proj.bak && ln
// -s proj.bak proj` made a trusted project "not trusted", and its guards were off).
func (s *Store) Lookup(workspace string) (e Entry, ok bool, err error) {
	keys, err := s.keysOf(workspace)
	if err != nil {
		return Entry{}, false, err
	}
	f, err := s.read()
	if err != nil {
		return Entry{}, false, err
	}
	for _, k := range keys {
		if e, ok = f.Workspaces[k]; ok {
			return e, true, nil
		}
	}
	return Entry{}, false, nil
}

// keysOf returns the keys a workspace may be recorded under (keysOf); a pinned store
// resolves each workspace once.
func (s *Store) keysOf(workspace string) ([]string, error) {
	if s.pin != nil {
		return s.pin.keysOf(workspace)
	}
	return keysOf(workspace)
}

// keysOf returns the keys a workspace may be recorded under: its canonical path, and its
// absolute path as written when that differs.
func keysOf(workspace string) ([]string, error) {
	key, err := Canonical(workspace)
	if err != nil {
		return nil, err
	}
	keys := []string{key}
	if abs, err := filepath.Abs(workspace); err == nil && abs != key {
		keys = append(keys, abs)
	}
	return keys, nil
}

// Enclosing returns the nearest workspace at or above dir that the store has an entry for,
// as Lookup finds it (canonical path, then the path as written, each walked up); ok is
// false when none has. The store is read once.
func (s *Store) Enclosing(dir string) (workspace string, ok bool, err error) {
	keys, err := s.keysOf(dir)
	if err != nil {
		return "", false, err
	}
	f, err := s.read()
	if err != nil {
		return "", false, err
	}
	for _, d := range keys {
		for {
			if _, ok := f.Workspaces[d]; ok {
				return d, true, nil
			}
			parent := filepath.Dir(d)
			if parent == d {
				break
			}
			d = parent
		}
	}
	return "", false, nil
}

// Trusted reports whether workspace is trusted with exactly this digest. A store that can
// not be read counts as "not trusted" and returns the error too: trust fails closed.
func (s *Store) Trusted(workspace, digest string) (bool, error) {
	e, ok, err := s.Lookup(workspace)
	if err != nil || !ok {
		return false, err
	}
	return e.Digest == digest, nil
}

// Grant records trust of workspace at digest, replacing an earlier entry. It trusts no hook
// by itself (see GrantHooks); kept for the config-files digest alone.
func (s *Store) Grant(workspace, digest string, now time.Time) error {
	return s.GrantHooks(workspace, digest, nil, now)
}

// GrantHooks records trust of workspace at digest with the digests of the hooks it trusts,
// replacing an earlier entry.
func (s *Store) GrantHooks(workspace, digest string, hooks []string, now time.Time) error {
	return s.Put(workspace, Entry{Digest: digest, Hooks: hooks, Time: now})
}

// Put records e as workspace's entry, replacing an earlier one; e.Time is stored in UTC.
func (s *Store) Put(workspace string, e Entry) error {
	key, err := Canonical(workspace)
	if err != nil {
		return err
	}
	f, err := s.readFile()
	if err != nil {
		return err
	}
	e.Time = e.Time.UTC()
	f.Workspaces[key] = e
	return s.write(f)
}

// Changes compares the config files trusted by e with files (path to content hash, as
// Entry.Files) and returns the paths changed, added and removed since, each sorted. known is
// false when e does not record its files (an entry written before Files).
func (e Entry) Changes(files map[string]string) (changed, added, removed []string, known bool) {
	if e.Files == nil {
		return nil, nil, nil, false
	}
	for p, h := range files {
		switch old, ok := e.Files[p]; {
		case !ok:
			added = append(added, p)
		case old != h:
			changed = append(changed, p)
		}
	}
	for p := range e.Files {
		if _, ok := files[p]; !ok {
			removed = append(removed, p)
		}
	}
	sort.Strings(changed)
	sort.Strings(added)
	sort.Strings(removed)
	return changed, added, removed, true
}

// Revoke removes the workspace's trust; revoking an untrusted workspace is not an error.
// It reports whether there was an entry.
func (s *Store) Revoke(workspace string) (bool, error) {
	key, err := Canonical(workspace)
	if err != nil {
		return false, err
	}
	f, err := s.readFile()
	if err != nil {
		return false, err
	}
	_, had := f.Workspaces[key]
	if !had {
		return false, nil
	}
	delete(f.Workspaces, key)
	return true, s.write(f)
}

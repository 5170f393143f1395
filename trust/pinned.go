package trust

import "sync"

// Pinned returns a store of the same file whose lookups — Lookup, Enclosing, Trusted,
// Canonical — answer from one read of it, made at the first, with each workspace's path
// resolved through its symbolic links once: the decisions of one hook event see one state of
// the store, read once (issue 9: an event read trust.json three times, and resolved the
// workspace's path three times, one lstat per path element).
//
// Its writes (Put, Grant, GrantHooks, Revoke) are a Store's: they read the file afresh, and
// a lookup after one reads the file again. It does not see what another process or another
// Store writes after its first read: it is for one decision (a hook event, a command), and a
// long-running process pins a new one for each (hookcore serve, each time it loads the
// config, after it saw the file change). Safe for concurrent use.
func (s *Store) Pinned() *Store { return &Store{Path: s.Path, pin: &pin{}} }

// Canonical returns the key workspace is stored under: the package's Canonical, its
// absolute path with symbolic links resolved, once for each path by a pinned store. The error
// is filepath.Abs's (the working directory unknown, for a relative path).
func (s *Store) Canonical(workspace string) (string, error) {
	keys, err := s.keysOf(workspace)
	if err != nil {
		return "", err
	}
	return keys[0], nil
}

// pin is a pinned store's read of its file and its resolved workspace paths.
type pin struct {
	mu   sync.Mutex
	done bool // f and err are the file's read
	f    fileFormat
	err  error
	keys map[string]pinnedKeys // by workspace path as given
}

type pinnedKeys struct {
	keys []string
	err  error
}

// read returns the first read of the file at path since the pin was made or dropped.
func (p *pin) read(path string) (fileFormat, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.f, p.err = (&Store{Path: path}).readFile()
		p.done = true
	}
	return p.f, p.err
}

// drop forgets the read: the file was written.
func (p *pin) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.f, p.err = false, fileFormat{}, nil
}

// keysOf is the package's keysOf, once per workspace path.
func (p *pin) keysOf(workspace string) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.keys[workspace]
	if !ok {
		k.keys, k.err = keysOf(workspace)
		if p.keys == nil {
			p.keys = map[string]pinnedKeys{}
		}
		p.keys[workspace] = k
	}
	return k.keys, k.err
}

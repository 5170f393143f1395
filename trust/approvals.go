package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"time"
)

// Approvals: besides workspaces, the store remembers individual hooks the user approved
// (codebot: hooks themselves pass an approval gate; issue 4: `--approve deny-new` refuses
// hooks not approved before). A hook is approved by digest (HookDigest over its type, target
// and source), so a hook whose command, URL or prompt changed, or that moved, must be
// approved again. Approvals live next to the trust file, in approvals.json of the same
// directory ({"hooks": {"<digest>": {"id": ..., "type": ..., "target": ..., "source": ...,
// "time": ...}}}), written atomically like the trust file.

// Approval is one approved hook, with what the user saw when approving it.
type Approval struct {
	ID     string    `json:"id"`
	Type   string    `json:"type"`
	Target string    `json:"target"`
	Source string    `json:"source"`
	Time   time.Time `json:"time"`
}

type approvalsFile struct {
	Hooks map[string]Approval `json:"hooks"`
}

// HookDigest returns the digest a hook is approved under: a SHA-256 over its type (command,
// http, prompt, agent, ...), its target (command line, URL, prompt) and its source
// (file:line), hex-encoded.
func HookDigest(typ, target, source string) string {
	h := sha256.New()
	for _, p := range []string{typ, target, source} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ApprovalsPath returns the file approvals are kept in: approvals.json next to s.Path.
func (s *Store) ApprovalsPath() string {
	return filepath.Join(filepath.Dir(s.Path), "approvals.json")
}

func (s *Store) readApprovals() (approvalsFile, error) {
	var f approvalsFile
	err := readJSON(s.ApprovalsPath(), "approvals file", &f)
	if f.Hooks == nil {
		f.Hooks = map[string]Approval{}
	}
	return f, err
}

func (s *Store) writeApprovals(f approvalsFile) error {
	return writeJSON(s.ApprovalsPath(), "approvals file", f)
}

// Approved reports whether the hook with this digest was approved. A store that cannot be
// read counts as "not approved" and returns the error too: approval fails closed.
func (s *Store) Approved(digest string) (bool, error) {
	f, err := s.readApprovals()
	if err != nil {
		return false, err
	}
	_, ok := f.Hooks[digest]
	return ok, nil
}

// Approve records the hook with this digest as approved, replacing an earlier record.
func (s *Store) Approve(digest string, a Approval) error {
	f, err := s.readApprovals()
	if err != nil {
		return err
	}
	a.Time = a.Time.UTC()
	f.Hooks[digest] = a
	return s.writeApprovals(f)
}

// Unapprove forgets an approval and reports whether there was one.
func (s *Store) Unapprove(digest string) (bool, error) {
	f, err := s.readApprovals()
	if err != nil {
		return false, err
	}
	if _, ok := f.Hooks[digest]; !ok {
		return false, nil
	}
	delete(f.Hooks, digest)
	return true, s.writeApprovals(f)
}

// Approvals returns every approval, by digest.
func (s *Store) Approvals() (map[string]Approval, error) {
	f, err := s.readApprovals()
	return f.Hooks, err
}

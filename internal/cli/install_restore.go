//go:build !hookcore_lean

package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/hookcore/hookcore/internal/install"
)

// restoreSet is the record of what uninstall gives back, in $XDG_STATE_HOME/hookcore/restore.json
// (beside created.json, 0700 like the backups, which hold the same bytes): for a settings
// file install changed, keyed by its absolute path, the SHA-256 of the bytes install wrote
// and the bytes uninstall is to write back when the file still holds exactly those. Only
// files whose uninstall alone would not give back what install found are recorded: a file
// that was empty or blank (uninstall wrote "{}": new-user trial, stop 29), `{ }`, a
// `"hooks": {}` or `"Stop": []` install filled, a layout install rewrote whole. When anything
// else changed the file in between, uninstall takes out install's entries as usual.
type restoreSet map[string]restoreEntry

// restoreEntry is one file's record.
type restoreEntry struct {
	Wrote string `json:"wrote"` // the SHA-256 (hex) of the bytes install last wrote
	Found []byte `json:"found"` // the bytes to give back: what install found, its entries taken out
}

func restorePath(home string) string {
	return filepath.Join(filepath.Dir(backupDir(home)), "restore.json")
}

// restoreRecord reads the record; a missing or unreadable one is empty.
func restoreRecord(home string) restoreSet {
	s := restoreSet{}
	if data, err := os.ReadFile(restorePath(home)); err == nil {
		if json.Unmarshal(data, &s) != nil {
			return restoreSet{}
		}
	}
	return s
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// installed updates the record for the file abs after install wrote p.New over p.Old:
// what uninstall should give back is what install found with its own entries taken out
// (install.Strip: a file of the user's holds none; one install wrote before holds only the
// entries it wrote then), or, when the file was what an earlier install wrote, what that
// install found. It is recorded when uninstall alone would give back other bytes. changed
// reports whether the record changed.
func (s restoreSet) installed(o install.Options, abs string, p *install.Plan) (changed bool) {
	found := install.Strip(o, p.Old)
	if r, ok := s[abs]; ok && r.Wrote == sum(p.Old) {
		found = r.Found
	}
	if bytes.Equal(install.Strip(o, p.New), found) {
		_, had := s[abs]
		delete(s, abs)
		return had
	}
	s[abs] = restoreEntry{Wrote: sum(p.New), Found: found}
	return true
}

// given returns the bytes uninstall is to write back into the file abs, whose content is
// now cur: ok is false unless cur is exactly what install last wrote there.
func (s restoreSet) given(abs string, cur []byte) (found []byte, ok bool) {
	r, ok := s[abs]
	if !ok || cur == nil || r.Wrote != sum(cur) {
		return nil, false
	}
	if r.Found == nil {
		r.Found = []byte{} // an empty file: "" in the record
	}
	return r.Found, true
}

// save writes the record atomically, 0600 in a 0700 directory: it holds bytes of the
// user's settings files, as their backups do.
func (s restoreSet) save(home string) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeState(restorePath(home), append(data, '\n'))
}

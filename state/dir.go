package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Dir is a Store that outlives the process: one JSON file per session in the directory
// Path (created 0700 on first use), named by the SHA-256 of the session id. Update takes an
// exclusive advisory lock on the session's file (flock(2), see lock_unix.go) for the whole
// read-modify-write, so concurrent hook processes of one session — Claude Code runs several
// at once — never lose an update; sessions do not contend with each other.
//
// Old sessions are cleaned up: at most once per SweepEvery (default one hour, tracked by the
// mtime of Path/.swept), Update removes session files not written for MaxAge (default 7
// days; a WorkspaceKey's record, WorkspaceMaxAge); Forget removes one session at once (the
// CLI calls it on SessionEnd).
//
// A file that does not decode (say, a crash mid-write) is read as an empty session and
// rewritten; Update reports an error only when the directory or file cannot be used: a
// directory another user owns or a group or other users may write, a session file that is a
// symbolic link (never followed: a link planted there would have the store overwrite its
// target) or not a regular file.
type Dir struct {
	Path       string
	MaxAge     time.Duration // 0: 7 days
	SweepEvery time.Duration // 0: one hour
}

// DefaultDir returns the state directory of the hook command: $HOOKCORE_STATE_DIR when set,
// else HOME/.hookcore/state.
func DefaultDir(getenv func(string) string, home string) string {
	if d := getenv("HOOKCORE_STATE_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".hookcore", "state")
}

func (d *Dir) file(session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(d.Path, filePrefix(session)+hex.EncodeToString(sum[:16])+".json")
}

// filePrefix is the start of the name of session's file: "workspace-" for a WorkspaceKey
// (swept after WorkspaceMaxAge), "session-" for the others.
func filePrefix(session string) string {
	if strings.HasPrefix(session, workspacePrefix) {
		return "workspace-"
	}
	return "session-"
}

// MaxSessionBytes bounds the session file Update reads: a larger one is Torn. A session's
// state is a few KiB, a tripwire's baseline of a large config set some hundred KiB.
const MaxSessionBytes = 8 << 20

// Update implements Store.
func (d *Dir) Update(ctx context.Context, session string, fn func(s *Session)) error {
	if d.Path == "" {
		return errors.New("state: Dir.Path is empty")
	}
	if err := PrepareDir(d.Path); err != nil {
		return err
	}
	d.sweep()
	f, err := os.OpenFile(d.file(session), os.O_RDWR|os.O_CREATE|openNoFollow, 0o600)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("state: %s is not a regular file", f.Name())
	}
	if err := lockFile(ctx, f); err != nil {
		return fmt.Errorf("state: lock %s: %w", f.Name(), err)
	}
	defer unlockFile(f)
	data, err := io.ReadAll(io.LimitReader(f, MaxSessionBytes+1))
	if err != nil {
		return fmt.Errorf("state: read %s: %w", f.Name(), err)
	}
	var s Session
	if len(data) > MaxSessionBytes || len(data) > 0 && json.Unmarshal(data, &s) != nil {
		// A torn write, garbage, or a file grown past the bound (red team round 58: 90 MB
		// took minutes to decode): start over rather than fail every event, and say so.
		s = Session{Torn: true}
		data = nil
	}
	fn(&s)
	out, err := json.Marshal(&s)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	if string(out) == string(data) {
		return nil
	}
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("state: write %s: %w", f.Name(), err)
	}
	if _, err := f.WriteAt(out, 0); err != nil {
		return fmt.Errorf("state: write %s: %w", f.Name(), err)
	}
	return nil
}

// PrepareDir creates the state directory path (0700) when missing and checks that it can
// hold state no other user may plant or read: a directory of this user's that no group or
// other user may write. Errors name the directory and what is wrong.
func PrepareDir(path string) error {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	if why := foreignDir(fi); why != "" {
		return fmt.Errorf("state: the directory %s %s: another user could plant or read what hookcore keeps there", path, why)
	}
	return nil
}

// Holds implements Holder: whether session's file exists (one access(2) on Linux, with
// no allocation: the hook process of a config without a tripwire asks it at every event).
func (d *Dir) Holds(session string) bool {
	if d.Path == "" {
		return false
	}
	var buf [512]byte
	b := append(buf[:0], session...) // not []byte(session): a long id would be copied to the heap
	sum := sha256.Sum256(b)
	b = append(b[:0], d.Path...)
	b = append(b, filepath.Separator)
	b = append(b, filePrefix(session)...)
	b = hex.AppendEncode(b, sum[:16])
	b = append(b, ".json"...)
	return exists(b)
}

// Forget removes the state of session.
func (d *Dir) Forget(session string) {
	_ = os.Remove(d.file(session))
}

// sweep removes the session files older than MaxAge, at most once per SweepEvery.
func (d *Dir) sweep() {
	every, maxAge := d.SweepEvery, d.MaxAge
	if every <= 0 {
		every = time.Hour
	}
	if maxAge <= 0 {
		maxAge = 7 * 24 * time.Hour
	}
	mark := filepath.Join(d.Path, ".swept")
	now := time.Now()
	if fi, err := os.Stat(mark); err == nil && now.Sub(fi.ModTime()) < every {
		return
	}
	f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE|openNoFollow, 0o600)
	if err != nil {
		return
	}
	f.Close()
	_ = os.Chtimes(mark, now, now)
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		return
	}
	for _, e := range entries {
		age := maxAge
		switch {
		case strings.HasPrefix(e.Name(), "session-"):
		case strings.HasPrefix(e.Name(), "workspace-"):
			age = max(maxAge, WorkspaceMaxAge)
		default:
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > age {
			_ = os.Remove(filepath.Join(d.Path, e.Name()))
		}
	}
}

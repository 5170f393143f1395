//go:build unix

package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// maxLockTries bounds lockFile's polls: about 5 s once the delay reaches 10 ms.
var maxLockTries = 500

// lockFile takes an exclusive flock on f, polling with LOCK_NB so that ctx can cancel the
// wait (flock has no timeout of its own). Holders keep the lock for one read-modify-write
// of a small file, so a waiter gets it within milliseconds.
func lockFile(ctx context.Context, f *os.File) error {
	delay := 100 * time.Microsecond
	for try := 0; ; try++ {
		if try == maxLockTries {
			// A holder that keeps the lock longer is not hookcore (red team round 58: a
			// background `flock` held it for 700 s and the hook waited past the agent's
			// timeout, which lets the call through): fail, and the caller decides.
			return errors.New("held by another process for too long")
		}
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		if delay < 10*time.Millisecond {
			delay *= 2
		}
	}
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// openNoFollow makes an open fail on a symbolic link (ELOOP) instead of following it.
const openNoFollow = syscall.O_NOFOLLOW

// foreignDir says what makes the directory fi describes unfit to hold the store: another
// user owns it, or a group or other users may write it; "" when nothing does.
func foreignDir(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Sprintf("is owned by another user (uid %d)", st.Uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("is writable by group or others (mode %o)", fi.Mode().Perm())
	}
	return ""
}

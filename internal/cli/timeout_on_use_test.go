package cli

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTimeoutOnUse: the hook command's bound on waiting for async hooks arms its timer only
// when used (Runner.Close waits only when an async hook started; an armed timer sets up the
// runtime's poller in every hook process, issue 9), ends d after that first use, and is
// done once cancelled, used or not.
func TestTimeoutOnUse(t *testing.T) {
	t.Parallel()
	unused := &timeoutOnUse{d: time.Hour}
	if unused.ctx != nil {
		t.Fatal("armed before use")
	}
	unused.cancel()
	if err := unused.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before use: Err %v", err)
	}
	if _, ok := unused.Deadline(); ok {
		t.Error("cancelled before use: has a deadline (a timer)")
	}

	before := time.Now()
	used := &timeoutOnUse{d: time.Hour}
	dl, ok := used.Deadline()
	if !ok || dl.Before(before.Add(time.Hour)) {
		t.Errorf("deadline %v (%v), want an hour after first use", dl, ok)
	}
	if used.Err() != nil {
		t.Error("done before its deadline")
	}
	used.cancel()
	select {
	case <-used.Done():
	default:
		t.Error("not done after cancel")
	}

	short := &timeoutOnUse{d: time.Millisecond}
	defer short.cancel()
	<-short.Done()
	if !errors.Is(short.Err(), context.DeadlineExceeded) {
		t.Errorf("Err %v, want DeadlineExceeded", short.Err())
	}
}

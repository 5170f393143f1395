//go:build !hookcore_lean

package cli

import (
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"sync"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

const (
	// serveBodyBudget is how many bytes of hook inputs serve decides at once (bodyBudget):
	// four inputs at the cap (maxInput). Each byte of a body costs serve about three while
	// it is decided (the body, the decoded input's copy of the tool input, a command hook's
	// stdin), so the budget holds serve's live heap under about 1 GiB however many
	// connections send (red team round 59: 12 bodies of 60 MB took 3.3 GB).
	serveBodyBudget = 4 * maxInput
	// smallBody is the size up to which a body is not counted against the budget: the
	// connection cap (maxServeConns) bounds those at 16 MiB together, and an agent's usual
	// inputs (a command, a short file) are never refused because large ones fill it.
	smallBody = 64 << 10
	// bigBody is the size from which a body, once decided, makes serve return its free
	// memory to the system when no other body is held (debug.FreeOSMemory).
	bigBody = 4 << 20
	// serveMemoryLimit is serve's soft memory limit (debug.SetMemoryLimit) unless
	// GOMEMLIMIT sets one: past it the collector runs more often instead of letting the
	// heap grow to twice what is live.
	serveMemoryLimit = 1 << 30
)

// bodyBudget bounds the bytes of request bodies serve holds at once: a body is counted
// from before it is read until its answer is written. Its zero value admits nothing; it is
// safe for concurrent use.
type bodyBudget struct {
	max int64 // bytes

	mu   sync.Mutex
	used int64 // bytes held, bodies up to smallBody not counted
	big  bool  // a body of at least bigBody was held since the budget was last empty
}

// take reserves n bytes and reports whether they fit in the budget; a body of up to
// smallBody always fits. A caller that got true calls give(n) when done.
func (b *bodyBudget) take(n int64) bool {
	if n <= smallBody {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max {
		return false
	}
	b.used += n
	b.big = b.big || n >= bigBody
	return true
}

// give returns n bytes taken with take. It reports whether the budget is now empty after
// it held a body of at least bigBody: the time to return memory to the system.
func (b *bodyBudget) give(n int64) (free bool) {
	if n <= smallBody {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	if b.used == 0 && b.big {
		b.big = false
		return true
	}
	return false
}

// inFlight returns the bytes held.
func (b *bodyBudget) inFlight() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// decideBody reads req's body, the hook input of one p event (override as in answer), and
// decides it, within the body budget. An input over maxInput, or one the budget has no
// room for, is drained unread and answered with p's fail-closed answer at once, as the
// hook command answers an input it cannot read (a wait would end in the agent's own
// timeout, and Claude Code lets a call through when an http hook times out). done must be
// called after the reply is written: it returns the budget, and after a large input the
// free memory.
func (s *server) decideBody(w http.ResponseWriter, req *http.Request, p bridge.Protocol, override string, block bool) (ans bridge.Answer, ev hook.Event, done func(http.ResponseWriter)) {
	ev = hook.PreToolUse
	if e, ok := hook.ParseEvent(override); ok {
		ev = e
	}
	done = func(http.ResponseWriter) {}
	n := req.ContentLength
	if n > maxInput {
		drain(w, req)
		return p.Fail(ev, fmt.Sprintf("the hook input could not be read: it is larger than %d MiB", maxInput>>20), block), ev, done
	}
	weight := n
	if n < 0 {
		weight = maxInput // no Content-Length: as much as the cap lets in
	}
	if !s.budget.take(weight) {
		drain(w, req)
		why := fmt.Sprintf("hookcore serve is busy: it is deciding %s of hook inputs, and this one of %s would pass its bound of %s; try again", mib(s.budget.inFlight()), mib(weight), mib(s.budget.max))
		return p.Fail(ev, why, block), ev, done
	}
	done = func(w http.ResponseWriter) {
		if s.budget.give(weight) {
			if f, ok := w.(http.Flusher); ok {
				f.Flush() // the reply first
			}
			debug.FreeOSMemory()
		}
	}
	data, err := readBody(w, req)
	if err != nil {
		return p.Fail(ev, "the hook input could not be read: "+err.Error(), block), ev, done
	}
	ans, ev = s.answer(req.Context(), p, override, data, block)
	return ans, ev, done
}

// readBody reads req's body, at most maxInput bytes, into one buffer of its Content-Length
// when it has one (io.ReadAll's growth left twice the body behind).
func readBody(w http.ResponseWriter, req *http.Request) ([]byte, error) {
	r := http.MaxBytesReader(w, req.Body, maxInput)
	if req.ContentLength < 0 {
		return io.ReadAll(r)
	}
	data := make([]byte, req.ContentLength)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, err
	}
	return data, nil
}

// drain reads and drops req's body, up to maxInput bytes, so that the client, still
// sending, reads the answer instead of a reset connection.
func drain(w http.ResponseWriter, req *http.Request) {
	io.Copy(io.Discard, http.MaxBytesReader(w, req.Body, maxInput)) //nolint:errcheck // the answer is already decided
}

// mib formats n bytes in MiB, one decimal.
func mib(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

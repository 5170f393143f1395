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

// grow changes a reservation of from bytes, taken with take or grow, to to bytes (to ≥
// from), counted as take counts them, and reports whether they fit; when they do not, the
// reservation stays at from. A body without a Content-Length is reserved so, as it arrives
// (readGrowing).
func (b *bodyBudget) grow(from, to int64) bool {
	counted := func(n int64) int64 {
		if n <= smallBody {
			return 0
		}
		return n
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used-counted(from)+counted(to) > b.max {
		return false
	}
	b.used += counted(to) - counted(from)
	b.big = b.big || to >= bigBody
	return true
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
	weight := n // the bytes reserved; a body without a Content-Length, as it arrives
	if n < 0 {
		weight = 0
	}
	busy := func(size int64) string {
		return fmt.Sprintf("hookcore serve is busy: it is deciding %s of hook inputs, and this one of %s would pass its bound of %s; try again", mib(s.budget.inFlight()), mib(size), mib(s.budget.max))
	}
	if !s.budget.take(weight) {
		drain(w, req)
		return p.Fail(ev, busy(weight), block), ev, done
	}
	done = func(w http.ResponseWriter) {
		if s.budget.give(weight) {
			if f, ok := w.(http.Flusher); ok {
				f.Flush() // the reply first
			}
			debug.FreeOSMemory()
		}
	}
	var data []byte
	var err error
	if n < 0 {
		var over int64
		data, over, err = readGrowing(http.MaxBytesReader(w, req.Body, maxInput), func(to int64) bool {
			if !s.budget.grow(weight, to) {
				return false
			}
			weight = to
			return true
		})
		if over > 0 {
			drain(w, req)
			return p.Fail(ev, busy(over), block), ev, done
		}
	} else {
		data = make([]byte, n) // one buffer of its length (io.ReadAll's growth left twice the body behind)
		_, err = io.ReadFull(http.MaxBytesReader(w, req.Body, maxInput), data)
	}
	if err != nil {
		return p.Fail(ev, "the hook input could not be read: "+err.Error(), block), ev, done
	}
	ans, ev = s.answer(req.Context(), p, override, data, block)
	return ans, ev, done
}

// readGrowing reads r to its end into a buffer that doubles from 4 KiB, reserving each size
// with reserve before it allocates it: a body without a Content-Length is counted against
// serve's budget as it arrives, not at the cap (stop 33 reserved 64 MiB for each, so four
// such requests, however small, made serve refuse every large input). When reserve refuses
// a size, readGrowing stops there and returns that size as over (> 0), the data nil.
func readGrowing(r io.Reader, reserve func(to int64) bool) (data []byte, over int64, err error) {
	size := int64(4 << 10)
	if !reserve(size) {
		return nil, size, nil
	}
	data = make([]byte, 0, size)
	for {
		if len(data) == cap(data) {
			size = min(2*size, maxInput+1) // past maxInput the reader fails
			if !reserve(size) {
				return nil, size, nil
			}
			data = append(make([]byte, 0, size), data...)
		}
		m, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+m]
		if err == io.EOF {
			return data, 0, nil
		}
		if err != nil {
			return nil, 0, err
		}
	}
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

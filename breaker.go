package hookcore

import (
	"context"
	"fmt"
	"time"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// Defaults of the circuit breaker and the turn budget (docs/decisions.md, "Budgets and a
// circuit breaker").
const (
	DefaultBreakerThreshold = 5
	DefaultBreakerCooldown  = time.Minute
)

func (r *Runner) breakerThreshold() int {
	switch n := r.opts.BreakerThreshold; {
	case n < 0:
		return 0 // off
	case n == 0:
		return DefaultBreakerThreshold
	default:
		return n
	}
}

func (r *Runner) breakerCooldown() time.Duration {
	if r.opts.BreakerCooldown > 0 {
		return r.opts.BreakerCooldown
	}
	return DefaultBreakerCooldown
}

// gateOfBudget says why a hook may not run because of its breaker or the turn budget, ""
// when it may. A hook whose breaker is open is skipped; one past the turn budget too. The
// caller blocks instead when the hook is a fail-closed guard (on_error: block).
// tracked reports whether the hook has a breaker entry (it failed lately), which its next
// success must clear.
func (r *Runner) gateOfBudget(ctx context.Context, event hook.Event, c *compiled, session string) (why string, tracked bool) {
	threshold, budget := r.breakerThreshold(), r.opts.TurnBudget
	if threshold == 0 && budget <= 0 {
		return "", false
	}
	now := r.now().UnixMilli()
	err := r.state.Update(ctx, session, func(s *state.Session) {
		b, ok := s.Breakers[c.keyFor(event)]
		tracked = ok
		if ok && threshold > 0 && b.OpenUntil > now {
			why = fmt.Sprintf("circuit open: the hook failed %d times in a row; it is tried again in %s",
				threshold, (time.Duration(b.OpenUntil-now) * time.Millisecond).Round(time.Second))
			return
		}
		if budget > 0 && s.TurnMS >= float64(budget.Milliseconds()) {
			why = fmt.Sprintf("turn budget spent: hooks ran %.0f ms this turn (budget %s)", s.TurnMS, budget)
		}
	})
	if err != nil {
		r.log.Warn("session state: breaker and budget not checked; the hook runs", "hook", c.id, "err", err)
		return "", false
	}
	return why, tracked
}

// recordBudget adds a finished hook's time to the turn and updates its breaker: an error or
// a timeout counts a failure, and threshold failures in a row open the breaker for the
// cool-down; after it, one more failure opens it again at once (half-open), a success closes
// it.
func (r *Runner) recordBudget(ctx context.Context, event hook.Event, c *compiled, session string, failed bool, ms float64, tracked bool) {
	threshold, budget := r.breakerThreshold(), r.opts.TurnBudget
	if threshold == 0 && budget <= 0 {
		return
	}
	key := c.keyFor(event)
	if !failed && budget <= 0 && !tracked {
		return // nothing to record: no budget, and the hook has no failures to clear
	}
	now := r.now()
	var tripped int
	err := r.state.Update(ctx, session, func(s *state.Session) {
		if budget > 0 {
			s.TurnMS += ms
		}
		if threshold == 0 {
			return
		}
		b, ok := s.Breakers[key]
		switch {
		case !failed && !ok:
			return
		case !failed:
			delete(s.Breakers, key)
			return
		}
		b.Fails++
		if b.Fails >= threshold {
			b.OpenUntil = now.Add(r.breakerCooldown()).UnixMilli()
			tripped = b.Fails
			b.Fails = threshold - 1 // half-open after the cool-down: one more failure reopens it
		}
		if s.Breakers == nil {
			s.Breakers = map[string]state.Breaker{}
		}
		s.Breakers[key] = b
	})
	if err != nil {
		r.log.Warn("session state: breaker and budget not recorded", "hook", c.id, "err", err)
		return
	}
	switch {
	case tripped == 0:
	case event.Kind() == hook.Gate && c.failShut:
		r.log.Warn("circuit breaker tripped: the guard's calls are blocked for the cool-down (on_error: block)", "hook", c.id, "source", c.source,
			"failures", tripped, "cooldown", r.breakerCooldown())
	case event.Kind() == hook.Gate:
		// Said as it is (red team round 34: the log said "skipped" of a guard that runs on).
		r.log.Warn("circuit breaker tripped: the hook still runs on gate events (a guard is never skipped for its failures)", "hook", c.id, "source", c.source,
			"failures", tripped)
	default:
		r.log.Warn("circuit breaker tripped: the hook is skipped for the cool-down", "hook", c.id, "source", c.source,
			"failures", tripped, "cooldown", r.breakerCooldown())
	}
}

// resetTurn starts a new turn's budget (UserPromptSubmit).
func (r *Runner) resetTurn(ctx context.Context, session string) {
	if r.opts.TurnBudget <= 0 {
		return
	}
	if err := r.state.Update(ctx, session, func(s *state.Session) { s.TurnMS = 0 }); err != nil {
		r.log.Warn("session state: turn budget not reset", "session", session, "err", err)
	}
}

func (r *Runner) now() time.Time {
	if r.opts.Now != nil {
		return r.opts.Now()
	}
	return time.Now()
}

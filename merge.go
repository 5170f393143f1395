package hookcore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// contextSep joins the additional context of several hooks (DESIGN.md section 7).
const contextSep = "\n\n"

// canBlock reports whether a block on event has an effect: gate events veto the action,
// feedback events make the agent keep working; observe events cannot block.
func canBlock(event hook.Event) bool { return event.Kind() != hook.Observe }

// blocks reports whether this hook's run blocks the event (see merge, rules 1 to 3, 8
// and 9).
func (r *Runner) blocks(event hook.Event, c *compiled, dec hook.Decision, err error) bool {
	if !canBlock(event) || !c.blocking {
		return false
	}
	switch {
	case isSkipped(err):
		return false
	case badInput(event, err):
		return true
	case err != nil && c.failShut:
		return true
	case validationFailed(event, err):
		return true
	case c.reject && (err == nil || !isLaunchOrTimeout(err)):
		return true
	}
	return dec.Block || dec.Permission == hook.Deny
}

// validationFailed reports whether a PostStopValidation hook's error is a failed validation:
// a non-zero exit (a failing `go test` exits 1) or a timeout, as codebot counts it (DESIGN.md
// section 7). A hook that could not start or printed a broken envelope is a hook fault, not a
// verdict on the agent's work.
func validationFailed(event hook.Event, err error) bool {
	return event == hook.PostStopValidation && err != nil &&
		!errors.Is(err, hook.ErrNotStarted) && !errors.Is(err, hook.ErrBadOutput)
}

// badInput reports whether err says that a hook could not be given the input of a gate
// event (merge, rule 9).
func badInput(event hook.Event, err error) bool {
	return event.Kind() == hook.Gate && errors.Is(err, hook.ErrBadInput)
}

// badInputReason is the block reason of rule 9: for an input too large, with the size when
// the executor gave one; else for an input that cannot be encoded.
func badInputReason(c *compiled, err error) string {
	if !errors.Is(err, hook.ErrInputTooLarge) {
		return fmt.Sprintf("hook %q could not be given this input (it cannot be encoded as JSON: not valid JSON, or nested too deeply); blocked so that the guard is not bypassed", c.id)
	}
	size := "it"
	var e *hook.InputTooLargeError
	if errors.As(err, &e) {
		size = fmt.Sprintf("%d bytes", e.Bytes)
	}
	return fmt.Sprintf("hook %q could not receive this input (%s is more than a command can be given); blocked so that the guard is not bypassed", c.id, size)
}

// maxReason caps a block or permission reason, in characters (runes), like the additional
// context: a hook that writes megabytes to stderr must not send them all to the model.
const maxReason = 10000

// skippedWhy reports whether err marks a hook that did not run, and why. The errSkipped
// variable is declared after the nil check so that a hook that ran allocates nothing here.
func skippedWhy(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	var s errSkipped
	if errors.As(err, &s) {
		return s.why, true
	}
	return "", false
}

func isSkipped(err error) bool { _, ok := skippedWhy(err); return ok }

func isLaunchOrTimeout(err error) bool {
	return errors.Is(err, hook.ErrNotStarted) || errors.Is(err, hook.ErrTimeout)
}

// merge folds one hook's run into the event's result and sets the hook's outcome. Hooks are
// merged in config order. The rules:
//
//  1. A hook that did not run (untrusted layer, once already fired, not approved where it
//     cannot block) is "skipped"; nothing of it is used.
//  2. A hook that failed (err != nil) is "timeout" or "error" and counts in Result.Errors;
//     under on_error: block, on an event that can block, it blocks instead ("block"), with a
//     reason that says the guard failed. A failed hook's valid envelope is still used (a
//     non-zero exit with JSON on stdout, DESIGN.md section 6).
//  3. A block (Block, or Permission Deny) blocks on gate and feedback events when the hook is
//     blocking; a MiniCode `reject: true` hook that ran blocks with its output as the reason.
//     The first block's reason is the Result's reason. A `blocking: false` hook's block, and
//     any block on an observe event, is only recorded in the hook's Reason.
//  4. Permissions: the strongest wins (deny > ask > allow); its reason becomes the Result's
//     reason when nothing blocked.
//  5. Additional context is appended in order, joined by a blank line.
//  6. An updated input replaces the tool input whole; a hook that returns none keeps the
//     earlier rewrite.
//  7. continue: false sets Continue false, with the first stop reason; system messages are
//     joined by newlines.
//  8. On PostStopValidation, a hook that exited non-zero or timed out failed the validation:
//     it blocks (the agent keeps working), with its output (stderr then stdout) as the
//     reason, and it is not counted as an error (codebot).
//  9. On a gate event, a blocking hook that could not be given the input (an error wrapping
//     hook.ErrBadInput: hook.ErrInputTooLarge, its arguments and environment would be more
//     than exec accepts; or an input that cannot be encoded as JSON, not valid JSON or
//     nested deeper than encoding/json writes) blocks, with a reason that says so, and
//     counts in Result.Errors. The input, which the model controls, caused the failure, not
//     the config: failing open would let anyone who pads or mangles a tool input switch a
//     guard off. On other events it is an error (rule 2).
//  10. Every reason (the Result's and each record's) is capped at 10 000 characters (runes),
//     the rest cut with a marker, like the additional context.
//
// The outcome is the strongest thing the hook did: block > update > context > ok, or
// error/timeout when it failed without blocking. merge reports whether the chain must stop.
func (r *Runner) merge(event hook.Event, c *compiled, dec hook.Decision, err error, rec *hook.Record, res *hook.Result) bool {
	if why, ok := skippedWhy(err); ok {
		rec.Outcome = hook.OutcomeSkipped
		rec.Error = why
		return false
	}
	blocked := r.blocks(event, c, dec, err)
	rec.Outcome = hook.OutcomeOK
	if err != nil && !validationFailed(event, err) {
		rec.Error = err.Error()
		rec.Outcome = hook.OutcomeError
		if errors.Is(err, hook.ErrTimeout) {
			rec.Outcome = hook.OutcomeTimeout
		}
		res.Errors++
	}

	reason := dec.Reason
	switch {
	case blocked && validationFailed(event, err) && !dec.Block:
		reason = strings.TrimSpace(dec.Output)
		if reason == "" {
			reason = err.Error()
		}
		rec.Error = err.Error()
	case blocked && badInput(event, err) && !dec.Block && dec.Permission != hook.Deny:
		reason = badInputReason(c, err)
	case err != nil && c.failShut && blocked && !dec.Block && dec.Permission != hook.Deny:
		reason = fmt.Sprintf("guard hook %q failed, so the action is blocked (on_error: block): %v", c.id, err)
	case c.reject && !dec.Block && dec.Permission != hook.Deny:
		reason = rejectReason(c, dec, err)
	}
	if reason == "" && (dec.Block || dec.Permission == hook.Deny || c.reject) {
		reason = fmt.Sprintf("blocked by hook %q", c.id)
	}
	reason = capRunes(reason, maxReason, reasonTruncMarker)
	if dec.Block || dec.Permission == hook.Deny || blocked {
		rec.Reason = reason
	}

	if blocked {
		rec.Outcome = hook.OutcomeBlock
		if !res.Blocked {
			res.Blocked = true
			res.Reason = reason
		}
	} else if (dec.Block || dec.Permission == hook.Deny) && err == nil {
		r.log.Info("advisory block ignored", "event", event, "hook", c.id, "reason", reason,
			"why", map[bool]string{true: "blocking: false", false: "event cannot block"}[canBlock(event)])
	}

	if dec.Permission != hook.NoPermission && (blocked || dec.Permission != hook.Deny) {
		if dec.Permission.Stronger(res.Permission) {
			res.Permission = dec.Permission
			if !res.Blocked && dec.Reason != "" {
				res.Reason = capRunes(dec.Reason, maxReason, reasonTruncMarker)
				rec.Reason = res.Reason
			}
		}
	}
	if dec.AdditionalContext != "" {
		if res.AdditionalContext != "" {
			res.AdditionalContext = res.AdditionalContext + contextSep + dec.AdditionalContext
		} else {
			res.AdditionalContext = dec.AdditionalContext
		}
		if rec.Outcome == hook.OutcomeOK {
			rec.Outcome = hook.OutcomeContext
		}
	}
	if dec.UpdatedInput != nil {
		res.UpdatedInput = dec.UpdatedInput
		if rec.Outcome == hook.OutcomeOK || rec.Outcome == hook.OutcomeContext {
			rec.Outcome = hook.OutcomeUpdate
		}
	}
	if dec.StopAgent {
		if res.Continue {
			res.StopReason = dec.StopReason
		}
		res.Continue = false
	}
	if dec.SystemMessage != "" {
		if res.SystemMessage != "" {
			res.SystemMessage += "\n"
		}
		res.SystemMessage += dec.SystemMessage
	}
	return blocked
}

// rejectReason is a MiniCode reject hook's reason: its output, stderr then stdout ("the agent
// receives the hook's output text as the error", seed 004), else a sentence naming the hook.
// A hook whose stdout was a broken JSON envelope gives only the sentence.
func rejectReason(c *compiled, dec hook.Decision, err error) string {
	if errors.Is(err, hook.ErrBadOutput) {
		// Nothing of a reply that does not parse reaches the model.
		return fmt.Sprintf("rejected by hook %q (its output was not a valid envelope)", c.id)
	}
	if s := strings.TrimSpace(dec.Output); s != "" {
		return s
	}
	return fmt.Sprintf("rejected by hook %q", c.id)
}

// finish applies the whole-result rules after every hook was merged: the context cap, the
// Stop-block bound, the permission deny ⇒ blocked link, logging and the audit log.
func (r *Runner) finish(event hook.Event, in *hook.Input, res *hook.Result) {
	max := r.opts.MaxContext
	if max <= 0 {
		max = 10000
	}
	res.AdditionalContext = capRunes(res.AdditionalContext, max, truncMarker)
	if event.IsStopLike() {
		r.boundStops(in.SessionID, res)
	}
	for _, rec := range res.Hooks {
		r.logRecord(context.Background(), event, rec)
	}
	if len(res.Hooks) > 0 {
		r.audit(in, res)
	}
}

// Markers that end text cut at its cap: the additional context, a reason.
const (
	truncMarker       = "\n… [additional context truncated]"
	reasonTruncMarker = "\n… [reason truncated]"
)

// capRunes returns s when it has at most max runes, else its first max runes and marker.
func capRunes(s string, max int, marker string) string {
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + marker
		}
		n++
	}
	return s
}

// boundStops caps consecutive Stop-type blocks in a session: past the limit, the hooks
// still ran, but their block is overridden with a notice so the agent can stop (Claude Code).
// The streak lives in the Runner's state store; when the store fails, the block stands and
// the streak counts as this one block.
func (r *Runner) boundStops(session string, res *hook.Result) {
	limit := r.opts.StopBlockLimit
	if limit <= 0 {
		limit = 8
	}
	streak := 1
	err := r.state.Update(context.Background(), session, func(s *state.Session) {
		if !res.Blocked {
			s.Stops = 0
			return
		}
		s.Stops++
		streak = s.Stops
		if s.Stops > limit {
			s.Stops = 0
		}
	})
	if err != nil {
		r.log.Warn("session state: Stop-block streak not recorded", "session", session, "err", err)
	}
	if res.Blocked && streak > limit {
		notice := fmt.Sprintf("%s hooks blocked %d times in a row; letting the agent stop (last reason: %s)", res.Event, limit, res.Reason)
		res.Blocked = false
		res.Reason = ""
		if res.SystemMessage != "" {
			res.SystemMessage += "\n"
		}
		res.SystemMessage += notice
	}
}

// resetStops ends the Stop-block streak of session (a new turn began).
func (r *Runner) resetStops(ctx context.Context, session string) {
	if err := r.state.Update(ctx, session, func(s *state.Session) { s.Stops = 0 }); err != nil {
		r.log.Warn("session state: Stop-block streak not reset", "session", session, "err", err)
	}
}

package hookcore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/state"
)

// contextSep joins the additional context of several hooks (DESIGN.md section 7).
const contextSep = "\n\n"

// canBlock reports whether a block on event has an effect: gate events veto the action,
// feedback events make the agent keep working; observe events cannot block.
func canBlock(event hook.Event) bool { return event.Kind() != hook.Observe }

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

// reasonKeep is how much of a long block or permission reason is kept at each end, in
// characters (runes): a hook that writes megabytes to stderr must not send them all to the
// model. Claude Code 2.1.332 keeps the first and the last 25 000 characters of a hook's
// block message (scenario testdata/claude/long-reason).
const reasonKeep = 25000

// verdict is one hook's run classified: what the merge rules see of it before it is folded
// into the event's Result. classify makes it; fold applies it.
type verdict struct {
	// skipped: the hook did not run (rule 1); nothing else of the verdict is set.
	skipped bool
	// fault is OutcomeError or OutcomeTimeout when the hook failed and counts in
	// Result.Errors (rule 2), else OutcomeOK. A failed validation is not a fault (rule 8).
	fault hook.Outcome
	// blocks: the hook blocks the event (rules 2 on_error, 3, 8, 9).
	blocks bool
	// said: the hook's decision said block (Block, or Permission Deny), whether or not
	// it can block here.
	said bool
	// reason is the hook's block reason, capped (rule 10); set when blocks or said.
	reason string
	// detail is the record's Error: the failure, or why the hook did not run.
	detail string
}

// classify turns one hook's run into a verdict. rec.Outcome is OutcomeSkipped, with the
// reason in rec.Error, when the gates kept the hook from running; err is the hook's failure,
// nil when it ran cleanly.
func classify(event hook.Event, c *compiled, dec *hook.Decision, rec *hook.Record, err error) verdict {
	if rec.Outcome == hook.OutcomeSkipped {
		return verdict{skipped: true, detail: rec.Error}
	}
	v := verdict{fault: faultOf(err), said: dec.Block || dec.Permission == hook.Deny}
	if err != nil {
		v.detail = err.Error()
	}
	var reason string
	v.blocks, reason = whyBlocks(event, c, dec, err, v.said)
	if validationFailed(event, err) { // rule 8: a failed validation is not a fault
		v.fault = hook.OutcomeOK
		if !v.blocks {
			v.detail = "" // a blocking: false validation only reports
		}
	}
	if v.blocks || v.said {
		v.reason = capReason(cmpOr(reason, fmt.Sprintf("blocked by hook %q", c.id)))
	}
	return v
}

// faultOf is rule 2: OutcomeTimeout or OutcomeError for a failed hook, else OutcomeOK.
func faultOf(err error) hook.Outcome {
	switch {
	case err == nil:
		return hook.OutcomeOK
	case errors.Is(err, hook.ErrTimeout):
		return hook.OutcomeTimeout
	}
	return hook.OutcomeError
}

// whyBlocks reports whether a hook that ran blocks event, and with what reason ("" for the
// default sentence). said is whether its decision said block. The first case that holds
// decides; the order gives each failure its own reason.
func whyBlocks(event hook.Event, c *compiled, dec *hook.Decision, err error, said bool) (bool, string) {
	own := func(other string) string { // the hook's own reason wins when it said block
		if said {
			return dec.Reason
		}
		return other
	}
	switch {
	case !canBlock(event) || !c.blocking:
		return false, dec.Reason // rule 3: a block that cannot take effect is only recorded
	case badInput(event, err): // rule 9
		return true, own(badInputReason(c, err))
	case validationFailed(event, err): // rule 8
		if dec.Block {
			return true, dec.Reason
		}
		return true, cmpOr(strings.TrimSpace(dec.Output), err.Error())
	case err != nil && c.failShut: // rule 2, on_error: block
		return true, own(fmt.Sprintf("guard hook %q failed, so the action is blocked (on_error: block): %v", c.id, err))
	case err != nil && c.failEnv != "" && event.Kind() != hook.Observe: // rule 2, Options.GuardsFailClosed
		return true, own(fmt.Sprintf("guard hook %q failed, so the action is blocked: %v (%s, which can make a guard fail)", c.id, err, c.failEnv))
	case c.reject: // rule 3, MiniCode reject: whatever its command did (seed 004)
		return true, own(rejectReason(c, dec, err))
	}
	return said, dec.Reason // rule 3
}

// cmpOr returns a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// merge folds one hook's run into the event's result and sets the hook's record (outcome,
// error, reason). Hooks are merged in config order. The rules:
//
//  1. A hook that did not run (untrusted layer, once already fired, not approved where it
//     cannot block, an agent hook with no agent runner) is "skipped"; nothing of it is used.
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
//  10. Every reason (the Result's and each record's) longer than 50 000 characters (runes)
//     keeps its first and last 25 000, with Claude Code's marker "... [N characters
//     truncated] ..." between them (Claude Code 2.1.332, testdata/claude/long-reason).
//  11. On PostToolUse, an updated tool output (updatedToolOutput, updatedMCPToolOutput)
//     replaces the one of an earlier hook; Result.ToolOutput applies it. On MessageDisplay,
//     a display content (displayContent) replaces the one of an earlier hook; a hook that
//     gives none, or fails, keeps it (Claude Code 2.1.332 showed the text of the hook that
//     finished last, testdata/claude/display; hookcore's last is in config order).
//
// Then, over the whole Result (finish):
//
//  12. A blocked gate event's permission is deny: when one hook allows (or asks, or
//     defers) and another blocks, the call is refused, and Claude Code reports the
//     permission decision as a reject (2.1.332, testdata/claude/allow-and-block).
//  13. On Stop and SubagentStop, additional context keeps the agent working like a block
//     (Claude Code 2.1.332 sent it back as a system reminder and went on,
//     testdata/claude/stop-context); both count against the bound on consecutive
//     Stop blocks (Options.StopBlockLimit), past which both are dropped.
//
// Rules 1, 8, 9 and 10, and which hooks block, are classify's; fold applies the rest, one
// function per rule. The outcome is the strongest thing the hook did: block > update >
// context > ok, or error/timeout when it failed without blocking. merge reports whether the
// hook blocks, which ends a chain.
func (r *Runner) merge(event hook.Event, c *compiled, dec hook.Decision, rec *hook.Record, err error, res *hook.Result) bool {
	v := classify(event, c, &dec, rec, err)
	if v.said && !v.blocks && err == nil {
		why := "event cannot block"
		if canBlock(event) {
			why = "blocking: false"
		}
		r.log.Info("advisory block ignored", "event", event, "hook", c.id, "reason", v.reason, "why", why)
	}
	fold(res, rec, &dec, v)
	return v.blocks
}

// fold merges one classified run into res and rec, one rule after the other.
func fold(res *hook.Result, rec *hook.Record, dec *hook.Decision, v verdict) {
	rec.Error = v.detail
	if v.skipped { // rule 1
		rec.Outcome = hook.OutcomeSkipped
		return
	}
	foldFault(res, rec, v)
	foldBlock(res, rec, v)
	foldPermission(res, rec, dec, v)
	foldContext(res, rec, dec)
	foldUpdate(res, rec, dec)
	foldToolOutput(res, rec, dec)
	foldDisplay(res, rec, dec)
	foldStop(res, dec)
}

// foldToolOutput is rule 11: an updated tool output replaces the one before it, and a hook
// that gives none keeps it.
func foldToolOutput(res *hook.Result, rec *hook.Record, dec *hook.Decision) {
	if dec.UpdatedToolOutput == nil && dec.UpdatedMCPToolOutput == nil {
		return
	}
	if dec.UpdatedToolOutput != nil {
		res.UpdatedToolOutput = dec.UpdatedToolOutput
	}
	if dec.UpdatedMCPToolOutput != nil {
		res.UpdatedMCPToolOutput = dec.UpdatedMCPToolOutput
	}
	if rec.Outcome == hook.OutcomeOK || rec.Outcome == hook.OutcomeContext {
		rec.Outcome = hook.OutcomeUpdate
	}
}

// foldDisplay is rule 11 on MessageDisplay: a display content replaces the one before it,
// and a hook that gives none keeps it.
func foldDisplay(res *hook.Result, rec *hook.Record, dec *hook.Decision) {
	if dec.DisplayContent == "" {
		return
	}
	res.DisplayContent = dec.DisplayContent
	if rec.Outcome == hook.OutcomeOK || rec.Outcome == hook.OutcomeContext {
		rec.Outcome = hook.OutcomeUpdate
	}
}

// foldFault is rule 2: a failure is the hook's outcome and counts in Result.Errors.
func foldFault(res *hook.Result, rec *hook.Record, v verdict) {
	rec.Outcome = v.fault
	if v.fault != hook.OutcomeOK {
		res.Errors++
	}
}

// foldBlock is rule 3: the first block's reason is the Result's; a block that cannot take
// effect is only recorded.
func foldBlock(res *hook.Result, rec *hook.Record, v verdict) {
	rec.Reason = v.reason
	if !v.blocks {
		return
	}
	rec.Outcome = hook.OutcomeBlock
	if !res.Blocked {
		res.Blocked, res.Reason = true, v.reason
	}
}

// foldPermission is rule 4: the strongest permission wins, and gives the Result its reason
// when nothing blocked. A deny that cannot block (blocking: false) is not counted.
func foldPermission(res *hook.Result, rec *hook.Record, dec *hook.Decision, v verdict) {
	p := dec.Permission
	if p == hook.NoPermission || (p == hook.Deny && !v.blocks) || !p.Stronger(res.Permission) {
		return
	}
	res.Permission = p
	if !res.Blocked && dec.Reason != "" {
		res.Reason = capReason(dec.Reason)
		rec.Reason = res.Reason
	}
}

// foldContext is rule 5: additional context is appended in config order.
func foldContext(res *hook.Result, rec *hook.Record, dec *hook.Decision) {
	if dec.AdditionalContext == "" {
		return
	}
	if res.AdditionalContext != "" {
		res.AdditionalContext = res.AdditionalContext + contextSep + dec.AdditionalContext // one allocation, not two
	} else {
		res.AdditionalContext = dec.AdditionalContext
	}
	if rec.Outcome == hook.OutcomeOK {
		rec.Outcome = hook.OutcomeContext
	}
}

// foldUpdate is rule 6: an updated input replaces the tool input whole.
func foldUpdate(res *hook.Result, rec *hook.Record, dec *hook.Decision) {
	if dec.UpdatedInput == nil {
		return
	}
	res.UpdatedInput = dec.UpdatedInput
	if rec.Outcome == hook.OutcomeOK || rec.Outcome == hook.OutcomeContext {
		rec.Outcome = hook.OutcomeUpdate
	}
}

// foldStop is rule 7: continue: false with the first stop reason; system messages joined
// by newlines.
func foldStop(res *hook.Result, dec *hook.Decision) {
	if dec.StopAgent {
		if res.Continue {
			res.StopReason = dec.StopReason
		}
		res.Continue = false
	}
	if dec.SystemMessage != "" {
		appendSystemMessage(res, dec.SystemMessage)
	}
}

// rejectReason is a MiniCode reject hook's reason: its output, stderr then stdout ("the agent
// receives the hook's output text as the error", seed 004), else a sentence naming the hook.
// A hook whose stdout was a broken JSON envelope gives only the sentence.
//
// A reject hook rejects whenever it runs: seed 004's runPreToolHooks returns
// ToolRejectedError for a hook with reject whatever its action's result, the command only
// giving the reason. A command that could not start or timed out let the call through (red
// team round 20: `reject: true` with a missing program or a `sleep` past its timeout allowed
// rm -rf), so it rejects with this sentence instead of its output.
func rejectReason(c *compiled, dec *hook.Decision, err error) string {
	switch {
	case errors.Is(err, hook.ErrTimeout):
		return fmt.Sprintf("rejected by hook %q (its command, which gives the reason, timed out)", c.id)
	case errors.Is(err, hook.ErrNotStarted):
		return fmt.Sprintf("rejected by hook %q (its command, which gives the reason, could not start)", c.id)
	}
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
	res.AdditionalContext = text.Truncate(res.AdditionalContext, max, truncMarker)
	if res.Blocked && event.Kind() == hook.Gate && res.Permission != hook.NoPermission {
		res.Permission = hook.Deny // rule 12
	}
	if event.IsStopLike() {
		agent := ""
		if event == hook.SubagentStop {
			agent = in.AgentID
		}
		r.boundStops(in.SessionID, agent, res)
	}
	for _, rec := range res.Hooks {
		r.logRecord(context.Background(), event, rec)
	}
	if len(res.Hooks) > 0 {
		r.audit(in, res)
	}
}

// truncMarker ends additional context cut at its cap.
const truncMarker = "\n… [additional context truncated]"

// capReason returns s when it has at most 2×reasonKeep runes, else its first and last
// reasonKeep runes with Claude Code's marker between them, "\n\n... [N characters
// truncated] ...\n\n", N the number of runes left out (Claude Code 2.1.332 counts UTF-16
// code units; the two differ only outside the Basic Multilingual Plane).
func capReason(s string) string {
	if len(s) <= 2*reasonKeep {
		return s
	}
	n := utf8.RuneCountInString(s)
	if n <= 2*reasonKeep {
		return s
	}
	head, tail := 0, len(s)
	for i := 0; i < reasonKeep; i++ {
		_, w := utf8.DecodeRuneInString(s[head:])
		head += w
	}
	for i := 0; i < reasonKeep; i++ {
		_, w := utf8.DecodeLastRuneInString(s[:tail])
		tail -= w
	}
	return fmt.Sprintf("%s\n\n... [%d characters truncated] ...\n\n%s", s[:head], n-2*reasonKeep, s[tail:])
}

// boundStops caps consecutive Stop-type blocks in a session (a Stop context counts as one,
// rule 13): past the limit, the hooks still ran, but their block is overridden with a
// notice so the agent can stop (Claude Code). The streak lives in the Runner's state store;
// when the store fails, the block stands and the streak counts as this one block.
func (r *Runner) boundStops(session, agent string, res *hook.Result) {
	limit := r.opts.StopBlockLimit
	switch {
	case limit < 0:
		return // no cap: the agent's own, if any, ends a loop
	case limit == 0:
		limit = 8
	}
	streak := 1
	keeps := res.KeepsWorking()
	err := r.state.Update(context.Background(), session, func(s *state.Session) {
		n := s.Stops // the main agent's streak; a sub-agent's is its own (state.Session.AgentStops)
		if agent != "" {
			n = s.AgentStops[agent]
		}
		switch {
		case !keeps:
			n = 0
		default:
			n++
			streak = n
			if n > limit {
				n = 0
			}
		}
		switch {
		case agent == "":
			s.Stops, s.StopReason = n, ""
			if n > 0 {
				s.StopReason = strings.TrimSpace(cmpOr(res.Reason, res.AdditionalContext))
			}
		case n == 0:
			delete(s.AgentStops, agent)
		default:
			if s.AgentStops == nil {
				s.AgentStops = map[string]int{}
			}
			s.AgentStops[agent] = n
		}
	})
	if err != nil {
		r.log.Warn("session state: Stop-block streak not recorded", "session", session, "err", err)
	}
	if keeps && streak > limit {
		last := res.Reason
		if last == "" {
			last = res.AdditionalContext
		}
		notice := fmt.Sprintf("%s hooks blocked %d times in a row; letting the agent stop (last reason: %s)", res.Event, limit, last)
		res.Blocked = false
		res.Reason = ""
		res.AdditionalContext = ""
		appendSystemMessage(res, notice)
	}
}

// resetStops ends the Stop-block streaks of session, since a prompt began a new turn, and
// reports true; unless prompt is the last Stop block's reason (state.Session.StopReason):
// Gemini CLI continues a turn a Stop hook blocked with a BeforeAgent (UserPromptSubmit)
// whose prompt is that reason, which is no new turn (red team round 43: the streak never
// reached the cap, and a blocking Stop guard looped for ever).
func (r *Runner) resetStops(ctx context.Context, session, prompt string) (newTurn bool) {
	newTurn = true
	err := r.state.Update(ctx, session, func(s *state.Session) {
		if s.StopReason != "" && strings.TrimSpace(prompt) == s.StopReason {
			newTurn = false
			return
		}
		s.Stops, s.AgentStops, s.StopReason = 0, nil, ""
	})
	if err != nil {
		r.log.Warn("session state: Stop-block streak not reset", "session", session, "err", err)
	}
	return newTurn
}

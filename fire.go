package hookcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/state"
)

// Fire runs every hook of event that matches in and returns their merged Result.
//
// event may be spelt any way hook.ParseEvent accepts; an unknown event matches nothing. in is
// not modified: the hooks get a copy whose hook_event_name is the canonical event. Fire never
// fails: a hook that errors or times out is recorded in Result.Hooks and counted in
// Result.Errors, and the action goes on unless that hook says on_error: block. Cancelling ctx
// stops the hooks still running (async hooks excepted: they get a context detached from ctx).
//
// On a gate event where a hook's matcher matches the tool, a tool input that
// hook.CheckToolInput finds ambiguous (duplicate keys or keys that differ only in case, at any
// depth) is blocked before any `if` filter or hook reads it, with no hook run (issue 10.4).
// Where no matcher matches, no hook guards the call and the input is not read.
//
// On PreToolUse and PermissionRequest, a call of a tool that runs a shell command, opens a
// URL or names a file (Claude Code's Monitor, an MCP tool with a `command`, `url` or `path`
// argument) is also, to the hooks, a Bash call with that command, a WebFetch call of that URL
// or a Write (and Edit) or Read call of that file, and their decision is the call's
// (viewsAsCalls; a hook that matched the call does not run on its views). On
// PreSkillShellCommand the PreToolUse hooks run too, as on a Bash call (skillShellAsBash).
//
// When a hook's condition has `tool changed hook_config` (the tripwire, tripwire.go), the
// session is armed: at each of its events from then on, whatever the config loaded at it
// says, the hook config's files are compared with the previous event's snapshot, and the
// hooks of the event get what changed ("hookcore_config_changed" in their input). When no
// hook stops the agent at that event (the config has no rule any more, none on this
// event, or one the change rewrote), Fire stops it by itself (continue false, a stop
// reason, and a block on gate events and after a tool call).
//
// When no hook matches, Fire costs one map lookup per event and one state.Holder.Holds of
// the store (a session never armed), and allocates nothing.
func (r *Runner) Fire(ctx context.Context, event hook.Event, in *hook.Input) hook.Result {
	hs := r.hooks.Load()
	sp := hs.lookup(event)
	var hit *tripwireHit
	if sp.event.Valid() {
		in, hit = r.tripwire(ctx, hs, sp.event, in)
	}
	var res hook.Result
	switch sp.event {
	case hook.PreToolUse, hook.PermissionRequest:
		var ran []*compiled
		if res = r.fireOnce(ctx, hs, sp, in, &ran); !res.Blocked {
			r.viewsAsCalls(ctx, hs, in, &res, ran)
		}
	default:
		if res = r.fireOnce(ctx, hs, sp, in, nil); res.Event == hook.PreSkillShellCommand && !res.Blocked {
			r.skillShellAsBash(ctx, hs, in, &res)
		}
	}
	switch {
	case hit != nil && hit.record && sp.event == hook.SessionStart:
		// A change between sessions, found as a session starts: most often the user's own
		// edit; said to the user, who has not let the agent work yet (red team round 65).
		appendSystemMessage(&res, recordNote(hit))
	case hit != nil && res.Continue:
		tripwireStop(&res, hit) // no hook stopped: the config may have lost its rule
	}
	if hs.notice != "" && res.Event == hook.SessionStart {
		// The workspace's project hooks do not run (hookSet.notice): SessionStart says so in
		// its SystemMessage, which Claude Code and Gemini CLI show to the user and not to the
		// model (Claude Code 2.1.332, observed with peer-claude: a SessionStart hook's
		// systemMessage is recorded as a hook_system_message, and no request to the model
		// holds it).
		appendSystemMessage(&res, "hookcore: "+hs.notice)
	}
	return res
}

// skillShellAsBash runs the PreToolUse hooks on the shell command of a PreSkillShellCommand
// (in, whose own hooks gave res, which it did not block) as on a Bash tool call, and merges
// their result into res. A skill's or slash command's "!`cmd`" line runs no Bash tool
// call, so Claude Code asks no PreToolUse hook (observed with Claude Code 2.1.332, red team
// round 39: a repository's skill ran `rm -rf` past every Bash guard); a guard of Bash must
// see every shell command the agent runs. Those hooks get the input as PreToolUse. A
// rewrite of the command blocks it: Claude Code does not run a rewritten skill command
// ("the hook changed the command, which isn't supported here"), and hookcore says why.
// Claude Code does not do this for its own PreToolUse hooks; hookcore does it for every
// hook it runs, Claude Code settings files' included (under `fire` and the other agents).
func (r *Runner) skillShellAsBash(ctx context.Context, hs *hookSet, in *hook.Input, res *hook.Result) {
	as := in.Clone()
	as.HookEventName = string(hook.PreToolUse)
	pre := r.fire(ctx, hs, hook.PreToolUse, as)
	mergeAlongside(res, &pre)
	switch {
	case pre.Blocked:
		res.Blocked, res.Reason = true, pre.Reason
	case pre.UpdatedInput != nil:
		res.Blocked = true
		res.Reason = "hookcore: a PreToolUse hook rewrote the shell command of a skill, which Claude Code does not run rewritten"
	}
	if pre.Permission.Stronger(res.Permission) {
		res.Permission = pre.Permission
		if res.Reason == "" {
			res.Reason = pre.Reason
		}
	}
}

// rootOf is where the path rules of `if` are anchored for in: the Runner's project root,
// or with Options.SessionRoots the project root of in's cwd.
func (r *Runner) rootOf(in *hook.Input) string {
	if r.opts.SessionRoots && in.Cwd != "" && filepath.IsAbs(in.Cwd) {
		return filepath.ToSlash(config.ProjectRoot(in.Cwd))
	}
	return r.root
}

// hookConfigRoot is the project root whose config files `changes hook_config` protects for
// in, beside ProjectDir's: the project root of in's cwd when the input has an absolute one,
// else rootOf(in). Not only with SessionRoots: the process that runs the hooks may have been
// started outside the event's project (a hook command run from another directory, `hookcore
// serve` for every project), and the agent's writes are the event's project's (stop 32).
// rootOf is root, computed already.
func (r *Runner) hookConfigRoot(in *hook.Input, rootOf string) string {
	if r.opts.SessionRoots || len(r.hookConfig) == 0 || in.Cwd == "" || !filepath.IsAbs(in.Cwd) {
		return rootOf
	}
	return filepath.ToSlash(config.ProjectRoot(in.Cwd))
}

// hookConfigAt returns Options.HookConfig for an event whose project root is root
// (hookConfigRoot): another project than ProjectDir has its own config files, so each path
// under ProjectDir is taken under root too, and ProjectDir's are kept.
func (r *Runner) hookConfigAt(root string) []string {
	return r.underRoots(r.hookConfig, root)
}

// underRoots returns paths with each path under the Runner's root also taken under root
// and under the agent's project directory (Options.AgentProjectDir) when that is another
// directory: Claude Code reads .mcp.json and .claude/ from its project directory, which a
// git work tree above it does not make the root (red team round 66, a monorepo).
func (r *Runner) underRoots(paths []string, root string) []string {
	out := underRoot(paths, r.root, root)
	if a := r.agentDir; a != "" && a != root && a != r.root && len(paths) > 0 {
		out = append(slices.Clip(out), underRoot(paths, r.root, a)[len(paths):]...)
	}
	return out
}

// underRoot returns paths with each path under base also taken under root.
func underRoot(paths []string, base, root string) []string {
	if len(paths) == 0 || root == base || base == "" || root == "" {
		return paths
	}
	out := slices.Clip(paths)
	for _, p := range paths {
		if base == "/" {
			// A process started in / (serve as a system service): the project paths are
			// /.claude/settings.json and its kind; the home's are not the project's.
			if rel, ok := strings.CutPrefix(p, "/."); ok {
				out = append(out, root+"/."+rel)
			}
		} else if rel, ok := strings.CutPrefix(p, base+"/"); ok {
			out = append(out, root+"/"+rel)
		}
	}
	return out
}

// fire is Fire with the hook set hs.
func (r *Runner) fire(ctx context.Context, hs *hookSet, event hook.Event, in *hook.Input) hook.Result {
	return r.fireOnce(ctx, hs, hs.lookup(event), in, nil)
}

// fireOnce is fire with the event resolved (sp), except that with ran not nil the hooks *ran
// holds do not run and those that match are appended to it: a hook that matched a tool call
// does not run on its views (viewsAsCalls).
func (r *Runner) fireOnce(ctx context.Context, hs *hookSet, sp spelling, in *hook.Input, ran *[]*compiled) hook.Result {
	event, eh := sp.event, sp.hooks
	if hs.stale != "" && event.Kind() == hook.Gate && event.MatchField() == "tool_name" {
		return r.rejectStale(event, in, hs.stale)
	}
	if event == hook.UserPromptSubmit && r.resetStops(ctx, in.SessionID, in.Prompt) {
		r.resetTurn(ctx, in.SessionID)
	}
	if eh == nil {
		return hook.Result{Event: event, Continue: true}
	}
	matched, ambiguous := r.matching(ctx, eh, in, -1)
	if ambiguous != nil {
		return r.rejectAmbiguous(event, in, ambiguous)
	}
	var prior []*compiled // the hooks that ran on the call before this view (viewsAsCalls)
	if ran != nil && len(matched) > 0 {
		prior = *ran
		if len(*ran) == 0 {
			*ran = matched // the call's own hooks: no copy
		} else {
			matched = slices.DeleteFunc(matched, func(c *compiled) bool { return slices.Contains(*ran, c) })
			*ran = append(slices.Clip(*ran), matched...)
		}
	}
	if len(matched) == 0 {
		return hook.Result{Event: event, Continue: true}
	}
	res, chained := r.run(ctx, event, chain{eh, prior}, matched, in)
	if chained != nil && ran != nil {
		*ran = append(slices.Clip(prior), chained...) // the hooks matched after a rewrite
	}
	return res
}

// chain is what a gate event's chain needs to match its hooks again after a rewrite
// (runChain): the event's hooks, and the hooks that ran on the call before this view
// (prior, fireOnce's ran), which do not run again.
type chain struct {
	eh    *eventHooks
	prior []*compiled
}

// lookup returns what event, in any spelling, resolves to in hs: the canonical event and its
// hooks; an unknown event as it is, with none.
func (hs *hookSet) lookup(event hook.Event) spelling {
	sp, ok := hs.spellings[event]
	if !ok {
		sp = spelling{event: event}
		if ev, known := hook.ParseEvent(string(event)); known {
			sp = spelling{ev, hs.events[ev]}
		}
	}
	return sp
}

// appendSystemMessage adds msg to res's SystemMessage, on a line of its own.
func appendSystemMessage(res *hook.Result, msg string) {
	if res.SystemMessage != "" {
		res.SystemMessage += "\n"
	}
	res.SystemMessage += msg
}

// rejectAmbiguous is the Result of a gate event whose tool input is ambiguous
// (hook.ErrAmbiguousInput: duplicate keys, keys that differ only in case, two values): it
// blocks before any filter or hook reads the input, since a hook and the tool would
// not read the same call (issue 10.4). No hook runs, so Hooks is empty; the block is logged
// and audited.
func (r *Runner) rejectAmbiguous(event hook.Event, in *hook.Input, err error) hook.Result {
	res := hook.Result{Event: event, Continue: true, Blocked: true, Reason: "tool input rejected: " + err.Error()}
	r.log.Warn("tool input rejected", "event", string(event), "err", err.Error())
	r.audit(in, &res)
	return res
}

// rejectStale is the Result of a tool's gate event in a workspace whose trust grant no longer
// matches its project config (trustGate.stale): blocked, before any hook runs, with why and
// what to do. Logged and audited as rejectAmbiguous.
func (r *Runner) rejectStale(event hook.Event, in *hook.Input, why string) hook.Result {
	res := hook.Result{Event: event, Continue: true, Blocked: true, Reason: "hookcore: " + why}
	r.log.Info("tool call blocked: stale workspace trust", "event", string(event))
	r.audit(in, &res)
	return res
}

// run runs the matched hooks of event and merges their result. It is apart from Fire so
// that the Result, whose address the runners share, is only moved to the heap when a hook
// matched: the no-match path of Fire allocates nothing.
func (r *Runner) run(ctx context.Context, event hook.Event, ch chain, matched []*compiled, in *hook.Input) (hook.Result, []*compiled) {
	res := hook.Result{Event: event, Continue: true}
	ctx, fs := r.tel.startFire(ctx, event, in, matched)
	if in.HookEventName != string(event) {
		in = in.Clone()
		in.HookEventName = string(event)
	}
	var chained []*compiled
	if ch.eh.kind == hook.Gate {
		chained = r.runChain(ctx, event, ch, matched, in, &res)
	} else {
		r.runAll(ctx, event, matched, in, &res)
	}
	r.finish(event, in, &res)
	r.tel.endFire(ctx, fs, &res)
	return res, chained
}

// matching returns the hooks of eh after the one at position after (compiled.order; -1 for
// all) whose matcher and `if` accept in, in config order. On a gate event, before the first
// `if` of a hook whose matcher matched is evaluated (or the first such hook is taken without
// one), the tool input is checked once: an ambiguous one (hook.ErrAmbiguousInput) returns
// that error and no hooks.
func (r *Runner) matching(ctx context.Context, eh *eventHooks, in *hook.Input, after int) ([]*compiled, error) {
	var byName []*compiled
	candidates, candSkip := eh.all, eh.allSkip
	value := in.MatchFieldValue(eh.field)
	var buf [64]byte
	if eh.field != "" {
		byName = eh.byName[string(match.FoldKey(buf[:0], value))]
		candidates, candSkip = eh.any, eh.anySkip
	}
	// Once the first `if` is evaluated (hits bound), the Bash command-word index may drop
	// the remaining hooks whose Bash(word …) rule names a word the command does not start
	// with: their `if` is false (match.Hits.BashWords), and on a gate event with decodable
	// input false means skipped, so the result is the one-by-one loop's.
	skipTried := false
	var hits *match.Hits // the `if` filters bound to this event's subject, once one is tested
	var out []*compiled
	undecodable := 0           // 0 unknown, 1 no, 2 yes: the tool input is not valid JSON
	var skills map[string]bool // the session's invoked skills, read once a skill hook matches
	checked := eh.kind != hook.Gate || len(in.ToolInput) == 0
	i, j := 0, 0
	for i < len(candidates) || j < len(byName) {
		if hits != nil && !skipTried {
			skipTried = true
			var nameSkip *wordSkip
			if len(byName) > j && eh.nameSkip != nil {
				nameSkip = eh.nameSkip[string(match.FoldKey(buf[:0], value))]
			}
			if candSkip != nil || nameSkip != nil {
				if words, ok := hits.BashWords(); ok && (eh.kind != hook.Gate || !isUndecodable(in.ToolInput, &undecodable)) {
					if candSkip != nil {
						candidates, i = candSkip.rest(candidates, i, words), 0
					}
					if nameSkip != nil {
						byName, j = nameSkip.rest(byName, j, words), 0
					}
					continue
				}
			}
		}
		var c *compiled
		if j >= len(byName) || (i < len(candidates) && candidates[i].order < byName[j].order) {
			c = candidates[i]
			i++
			if c.order <= after || eh.field != "" && !c.matcher.Match(value) {
				continue
			}
		} else {
			c = byName[j]
			j++
			if c.order <= after || c.verify && !c.matcher.Match(value) {
				continue
			}
		}
		if !r.inScope(ctx, c, in, &skills) {
			continue
		}
		if !checked {
			checked = true
			if err := hook.CheckToolInput(in.ToolInput); errors.Is(err, hook.ErrAmbiguousInput) {
				return nil, err
			}
		}
		if c.cond != nil {
			if hits == nil {
				root := r.rootOf(in)
				hits = eh.conds.Bind(withCommandCwd(match.NewSubjectAt(root, string(c.event), in.ToolName, in.ToolInput), in).WithProgram(r.hookProgram).WithStartup(r.hookStartup).WithHookConfig(r.hookConfigAt(r.hookConfigRoot(in, root))).WithConfigChanged(configChanged(in)))
			}
			if !hits.Match(c.pos) {
				// On a gate event, an `if` over arguments that cannot be decoded (invalid
				// JSON, nested too deep) does not get to say "no": the hook runs, cannot be
				// given the input, and blocks (merge rule 9) — a guard fails closed, never
				// open, on an input the model controls.
				if eh.kind != hook.Gate || !isUndecodable(in.ToolInput, &undecodable) {
					continue
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// withCommandCwd sets the working directory of s from in and returns s: the Bash command's
// own directory when the agent's input tells it (Input.CommandDir, taken from Cwd), unknown
// when the agent's input may not tell it (Input.CommandDirUnknown, or a relative
// CommandDir with no absolute Cwd: Cwd is then one place it may run in), else Cwd (red team
// round 60).
func withCommandCwd(s *match.Subject, in *hook.Input) *match.Subject {
	switch d := in.CommandDir; {
	case in.CommandDirUnknown:
		return s.WithCwd(in.Cwd).WithCwdUnknown()
	case d == "":
		return s.WithCwd(in.Cwd)
	case filepath.IsAbs(d):
		return s.WithCwd(filepath.Clean(d))
	case filepath.IsAbs(in.Cwd):
		return s.WithCwd(filepath.Join(in.Cwd, d))
	}
	return s.WithCwd(in.Cwd).WithCwdUnknown()
}

// isUndecodable reports, once per event (memo: 0 unknown, 1 no, 2 yes), whether a
// non-empty tool input is not valid JSON.
func isUndecodable(toolInput []byte, memo *int) bool {
	if *memo == 0 {
		*memo = 1
		// A tool input is a JSON object (Claude Code's, every agent's): invalid JSON, or
		// another value ("rm -rf x" as a string, an array), is one the `if` cannot read the
		// fields of, so it cannot say "no" to it (red-team finding: a string tool_input
		// passed a Bash(rm *) guard).
		if t := bytes.TrimSpace(toolInput); len(t) > 0 && (t[0] != '{' || !json.Valid(t)) {
			*memo = 2
		}
	}
	return *memo == 2
}

// runChain runs gate hooks one after the other: each sees the input as rewritten by the
// hooks before it, and the first block ends the chain (MiniCode and codebot; DESIGN.md
// section 7). hooks were matched on in; after a hook rewrites the input, the hooks after it
// are matched again on the rewritten input (matcher, scope and `if`), so that a hook runs
// when its `if` holds on the input it is given (red team round 65: a guard after a rewriter
// was judged on the input before the rewrite, and never ran). A rewritten input that is
// ambiguous blocks, as an ambiguous input does (runOne refuses such a rewrite first). It
// returns nil, or after a rewrite the hooks of the chain: those run and those matched after.
func (r *Runner) runChain(ctx context.Context, event hook.Event, ch chain, hooks []*compiled, in *hook.Input, res *hook.Result) []*compiled {
	seen := map[string]bool{}
	cur := in
	rematched := false
	for k := 0; k < len(hooks); k++ {
		c := hooks[k]
		if dupe(seen, c, cur) {
			continue
		}
		hctx := ctx
		if rematched {
			hctx = r.tel.rejoin(ctx, c)
		}
		if c.async { // a Claude Code async hook on a gate event: it cannot decide
			res.Hooks = append(res.Hooks, r.startAsync(hctx, event, c, cur))
			continue
		}
		dec, rec, err := r.runOne(hctx, event, c, cur)
		stop := r.merge(event, c, dec, &rec, err, res)
		r.tel.endHook(hctx, c, &rec)
		res.Hooks = append(res.Hooks, rec)
		if res.UpdatedInput != nil && string(res.UpdatedInput) != string(cur.ToolInput) {
			cur = cur.Clone()
			cur.ToolInput = res.UpdatedInput
			if !stop {
				rest, err := r.matching(ctx, ch.eh, cur, c.order)
				if err != nil {
					res.Blocked, res.Reason = true, "tool input rejected: a hook's rewrite: "+err.Error()
					r.log.Warn("rewritten tool input rejected", "event", string(event), "hook", c.id, "err", err.Error())
					return hooks[:k+1]
				}
				if len(ch.prior) > 0 {
					rest = slices.DeleteFunc(rest, func(c *compiled) bool { return slices.Contains(ch.prior, c) })
				}
				hooks = append(hooks[:k+1:k+1], rest...) // a new array: hooks may be fireOnce's ran
				rematched = true
			}
		}
		if stop {
			break
		}
	}
	if !rematched {
		return nil
	}
	return hooks
}

// runAll runs the hooks of a feedback or observe event: async hooks in the background,
// parallel hooks concurrently, the others one after the other until the first block; the
// decisions are merged in config order.
func (r *Runner) runAll(ctx context.Context, event hook.Event, hooks []*compiled, in *hook.Input, res *hook.Result) {
	type slot struct {
		dec  hook.Decision
		rec  hook.Record
		err  error
		done bool
	}
	slots := make([]slot, len(hooks))
	dup := make([]bool, len(hooks))
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for i, c := range hooks {
		if dup[i] = dupe(seen, c, in); dup[i] {
			continue
		}
		switch {
		case c.async:
			slots[i] = slot{rec: r.startAsync(ctx, event, c, in), done: true}
		case c.parallel:
			wg.Add(1)
			go func() {
				defer wg.Done()
				dec, rec, err := r.runOne(ctx, event, c, in)
				slots[i] = slot{dec, rec, err, true}
			}()
		}
	}
	for i, c := range hooks {
		if dup[i] || c.async || c.parallel {
			continue
		}
		dec, rec, err := r.runOne(ctx, event, c, in)
		slots[i] = slot{dec, rec, err, true}
		if classify(event, c, &dec, &rec, err).blocks {
			break // the first block ends the sequential part of the run
		}
	}
	wg.Wait()
	for i, c := range hooks {
		s := &slots[i]
		if !s.done {
			continue
		}
		if !c.async { // an async hook's record (async, or skipped after Close) is final
			r.merge(event, c, s.dec, &s.rec, s.err, res)
			r.tel.endHook(ctx, c, &s.rec)
		}
		res.Hooks = append(res.Hooks, s.rec)
	}
}

// dupe reports whether an identical command hook already ran for this event (Claude Code
// runs identical hooks once): one with the same identity (identityOf) and the same command
// after placeholder expansion; it marks c's key as seen.
func dupe(seen map[string]bool, c *compiled, in *hook.Input) bool {
	k := dedupKey(c, in)
	if k == "" {
		return false
	}
	if seen[k] {
		return true
	}
	seen[k] = true
	return false
}

// dedupKey is c's identity and its executor's key for in, "" when c cannot be a duplicate
// (no other hook of the event has its identity, or its executor has no key).
func dedupKey(c *compiled, in *hook.Input) string {
	k, ok := c.exec.(keyer)
	if !ok || !c.twin {
		return ""
	}
	return c.identity + "\x00" + k.Key(in)
}

// runOne runs one hook through the gates (trust, approval, once) and its executor, and
// returns its decision, its record (outcome not yet set unless skipped) and its failure.
func (r *Runner) runOne(ctx context.Context, event hook.Event, c *compiled, in *hook.Input) (hook.Decision, hook.Record, error) {
	rec := hook.Record{ID: c.id, Type: c.typ, Source: c.source, StatusMessage: c.status}
	why, tracked := r.gateOfBudget(ctx, event, c, in.SessionID)
	switch {
	case why == "":
	case c.failShut && event.Kind() == hook.Gate:
		rec.Outcome, rec.Error = hook.OutcomeBlock, why
		return hook.Decision{Block: true, Reason: fmt.Sprintf("guard hook %q is not run (%s), so the action is blocked (on_error: block)", c.id, why)}, rec, nil
	case event.Kind() == hook.Gate:
		// A hook that may be a guard is never skipped for its past failures or the turn's
		// time: the model's own inputs can make a hook fail (red team round 2: five calls
		// that crashed a Python guard opened its breaker, and rm -rf passed for a minute).
		r.log.Debug("breaker or budget ignored on a gate event: the hook runs", "hook", c.id, "why", why)
	default:
		skipped(&rec, why)
		return hook.Decision{}, rec, nil
	}
	if dec, skip, ok := r.admit(ctx, event, c, in); !ok {
		skipped(&rec, skip)
		return dec, rec, nil
	}
	dec, rec, err := r.execute(ctx, c, in)
	if dec.UpdatedInput != nil && event.Kind() == hook.Gate {
		err = refuseBadRewrite(c, &dec, err)
	}
	r.recordBudget(ctx, event, c, in.SessionID, err != nil, rec.DurationMS, tracked)
	return dec, rec, err
}

// refuseBadRewrite checks the updated input of a gate hook's decision as an incoming tool
// input is checked (hook.CheckToolInput): one the agent and the hooks would read differently
// (a key written twice, {"command": "ls", "command": "rm -rf /"}, of which the agent keeps
// the last; keys equal under case folding; too deep) is dropped, and the decision blocks
// with a reason that says so, and is an error wrapping hook.ErrBadOutput (red team round
// 65). It returns the error of the run.
func refuseBadRewrite(c *compiled, dec *hook.Decision, err error) error {
	bad := hook.CheckToolInput(dec.UpdatedInput)
	if bad == nil {
		return err
	}
	dec.UpdatedInput = nil
	dec.Block = true
	if dec.Permission != hook.NoPermission {
		dec.Permission = hook.Deny
	}
	dec.Reason = fmt.Sprintf("hookcore: hook %q rewrote the tool input into one that is refused (%v): the agent and the hooks would not read the same call, so the action is blocked", c.id, bad)
	if err == nil {
		err = fmt.Errorf("hook %q: %w: updated input: %v", c.id, hook.ErrBadOutput, bad)
	}
	return err
}

// skipped marks rec as a hook that did not run, with why, when why is not empty.
func skipped(rec *hook.Record, why string) {
	if why != "" {
		rec.Outcome, rec.Error = hook.OutcomeSkipped, why
	}
}

// admit runs the gates before a hook: trust, approval, once. When the hook may not run, ok
// is false and either skip says why (merge rule 1) or, when skip is empty, dec is what that
// means: a block on a gate event that the hook could veto.
func (r *Runner) admit(ctx context.Context, event hook.Event, c *compiled, in *hook.Input) (dec hook.Decision, skip string, ok bool) {
	if c.skip != "" {
		if c.staleCover && event.Kind() == hook.Gate && c.blocking {
			// Its definition is the trusted one, and it matched: a changed script must not
			// turn the guard off (appending to it did, silently; red team round 20).
			return hook.Decision{Block: true, Reason: fmt.Sprintf("hookcore: project hook %q is not run: %s; so the action is blocked", c.id, c.skip)}, "", false
		}
		return hook.Decision{}, c.skip, false
	}
	if len(c.relative) > 0 {
		if why := r.relativeMismatch(c, in.Cwd); why != "" {
			if event.Kind() == hook.Gate && c.blocking {
				// Its definition is the trusted one and it matched; what it would run from
				// here is not what the grant bound (red team round 22: the guard copied into
				// sub/, beside another helper module, then `cd sub`): blocked, not skipped.
				return hook.Decision{Block: true, Reason: fmt.Sprintf("hookcore: project hook %q is not run: %s; so the action is blocked", c.id, why)}, "", false
			}
			return hook.Decision{}, why, false
		}
	}
	if r.opts.Approver != nil {
		approved, err := r.opts.Approver.Approve(ctx, HookInfo{ID: c.id, Type: c.typ, Event: event, Target: c.target, Source: c.source})
		if !approved || err != nil {
			why := "hook not approved"
			if err != nil {
				why += ": " + err.Error()
			}
			if event.Kind() == hook.Gate && c.blocking {
				return hook.Decision{Block: true, Reason: fmt.Sprintf("%s (%s)", why, c.id)}, "", false
			}
			return hook.Decision{}, why, false
		}
	}
	if c.once && !r.claimOnce(ctx, event, c, in.SessionID) {
		return hook.Decision{}, "once: already ran in this session", false
	}
	if c.inert != "" {
		return hook.Decision{}, c.inert, false
	}
	return hook.Decision{}, "", true
}

// execute runs an admitted hook's executor and records its time and exit code.
func (r *Runner) execute(ctx context.Context, c *compiled, in *hook.Input) (hook.Decision, hook.Record, error) {
	rec := hook.Record{ID: c.id, Type: c.typ, Source: c.source, StatusMessage: c.status}
	start := time.Now()
	ctx = r.tel.startHook(ctx, c)
	dec, err := c.exec.Execute(ctx, in)
	end := time.Now()
	r.tel.stopHook(ctx, c, start, end)
	rec.DurationMS = float64(end.Sub(start).Microseconds()) / 1000
	if dec.Permission == hook.Allow && !c.allowHolds(in) {
		r.log.Info("hook allow ignored: its if does not permit the whole input", "hook", c.id, "if", c.cond.String())
		dec.Permission = hook.NoPermission
		if !dec.Block {
			dec.Reason = ""
		}
	}
	if c.typ == "command" && dec.ExitCode >= 0 && !errors.Is(err, hook.ErrNotStarted) && !errors.Is(err, hook.ErrTimeout) {
		code := dec.ExitCode
		rec.ExitCode = &code
	}
	rec.Truncated = dec.Truncated
	return dec, rec, err
}

// claimOnce reports whether a once hook may run in this session, and marks it as run in the
// Runner's state store (not in the compiled hook, so that Reload does not forget it). When
// the store fails, the hook runs: running a guard twice is safer than never.
func (r *Runner) claimOnce(ctx context.Context, event hook.Event, c *compiled, session string) bool {
	first, err := state.Claim(ctx, r.state, session, state.OnceKey(string(event), c.scopedID()))
	if err != nil {
		r.log.Warn("session state: once hook runs again", "hook", c.id, "session", session, "err", err)
		return true
	}
	return first
}

// startAsync starts an async hook with a context detached from the turn (a cancelled turn
// does not kill an audit hook), ended only by CancelAsync, and tracks it until Close.
func (r *Runner) startAsync(ctx context.Context, event hook.Event, c *compiled, in *hook.Input) hook.Record {
	rec := hook.Record{ID: c.id, Type: c.typ, Source: c.source, StatusMessage: c.status, Outcome: hook.OutcomeAsync}
	// The gates run now, so the record says whether the hook really started.
	if dec, skip, ok := r.admit(ctx, event, c, in); !ok {
		skipped(&rec, skip)
		var res hook.Result
		r.merge(event, c, dec, &rec, nil, &res)
		r.tel.endHook(ctx, c, &rec)
		return rec
	}
	// The check and the Add happen under asyncMu, which Close takes to set closed: a hook
	// either starts before Close begins waiting, and is waited for, or does not start.
	r.asyncMu.Lock()
	if r.closed.Load() {
		r.asyncMu.Unlock()
		rec.Outcome = hook.OutcomeSkipped
		rec.Error = "runner closed"
		return rec
	}
	r.async.Add(1)
	r.asyncStarted++
	r.asyncMu.Unlock()
	in = in.Clone()
	// The hook's context outlives the turn's (WithoutCancel) but not CancelAsync.
	detached, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(r.asyncCtx, cancel)
	go func() {
		defer r.async.Done()
		defer cancel()
		defer stop()
		dec, rec, err := r.execute(detached, c, in)
		var res hook.Result
		r.merge(event, c, dec, &rec, err, &res)
		r.tel.endHook(detached, c, &rec)
		if err == nil && r.opts.OnRewake != nil {
			if c.rewake && dec.Block {
				r.opts.OnRewake(in, c.id, rewakeText(event, in, c.target, dec.Reason))
			}
			if dec.AdditionalContext != "" {
				r.opts.OnRewake(in, c.id, dec.AdditionalContext)
			}
		}
		r.logRecord(detached, event, rec, slog.Bool("async", true))
	}()
	return rec
}

// rewakeText is what Claude Code 2.1.332 gave the model for an asyncRewake hook's exit 2
// (testdata/claude/async-rewake): `PostToolUse:Bash hook blocking error from command:
// "CMD": [CMD]: STDERR`, the hook named by its event and tool. Claude's STDERR keeps its
// final line break; reason has none.
func rewakeText(event hook.Event, in *hook.Input, command, reason string) string {
	name := string(event)
	if in.ToolName != "" {
		name += ":" + in.ToolName
	}
	return fmt.Sprintf("%s hook blocking error from command: \"%s\": [%s]: %s", name, command, command, reason)
}

func (r *Runner) logRecord(ctx context.Context, event hook.Event, rec hook.Record, extra ...slog.Attr) {
	level := slog.LevelDebug
	switch rec.Outcome {
	case hook.OutcomeBlock:
		level = slog.LevelInfo
	case hook.OutcomeError, hook.OutcomeTimeout:
		level = slog.LevelWarn
	}
	if !r.log.Enabled(ctx, level) {
		return // spare building the attributes when the record would be dropped
	}
	attrs := append([]slog.Attr{
		slog.String("event", string(event)), slog.String("hook", rec.ID), slog.String("type", rec.Type),
		slog.String("source", rec.Source), slog.String("outcome", rec.Outcome.String()),
		slog.Float64("duration_ms", rec.DurationMS),
	}, extra...)
	if rec.Error != "" {
		attrs = append(attrs, slog.String("err", rec.Error))
	}
	if rec.Reason != "" {
		attrs = append(attrs, slog.String("reason", rec.Reason))
	}
	r.log.LogAttrs(ctx, level, "hook", attrs...)
}

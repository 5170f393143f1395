package hookcore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/executor/command"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/match"
	"github.com/hookcore/hookcore/state"
	"github.com/hookcore/hookcore/trust"
)

// compiled is one hook ready to run: its matcher, filter and executor built once (STYLE.md:
// config is plain data; compile at construction).
type compiled struct {
	closer   io.Closer // the executor, when it holds resources (see hookSet.closers)
	order    int       // position in the Runner's hook list: config order, then callbacks
	id       string
	typ      string
	source   string
	target   string // for the approver: command line, URL, model, callback name
	event    hook.Event
	matcher  *match.Matcher
	verify   bool // indexed by the names its matcher can match (a literal regex): Match decides
	cond     *match.If
	pos      int // position in its event's hooks (eventHooks.all, eventHooks.conds)
	exec     hook.Executor
	blocking bool // may veto (codebot `blocking`, default true)
	reject   bool // MiniCode `reject: true`
	once     bool
	async    bool
	parallel bool
	failShut bool // on_error: block
	// failEnv: for a hook of the user's (not the project's), Options.GuardsFailClosed: it
	// blocks its gate event when it fails, and the reason says this.
	failEnv string
	status  string // Claude Code statusMessage
	rewake  bool   // Claude Code asyncRewake
	skip    string // non-empty: never run, recorded as skipped with this reason
	// staleCover: skip is set because a script the hook runs changed since the workspace
	// was trusted, its definition unchanged: on a tool's gate event it blocks (admit).
	staleCover bool
	// relative are a trusted project hook's scripts named by relative paths: before it runs
	// in another working directory than the project root, they must be the granted files.
	relative []RelativeFile
	identity string // what running the hook does, for deduplication (see identityOf)
	// twin: another hook of the same event has this identity, so the two can be duplicates
	// (dupe); a hook without a twin is never one, and its dedup key is not built.
	twin bool
	// spanBlind: the executor is the Runner's own and reads no span from its context, so
	// the telemetry of an event of such hooks may be deferred (telemetry_deferred.go).
	spanBlind bool
	inert     string // non-empty: passes the gates (approval, once), then is skipped with this reason
	// skill and agent scope a frontmatter hook (config.File.Skill, Agent): a skill's runs only
	// once that skill was invoked by the event's agent (Runner.InvokeSkill), an agent's only
	// for the events of a sub-agent of that type.
	skill, agent string
	// file is the config file that declares the hook ("" for a Go callback): an id is unique
	// within one file only, and the once state is per hook (scopedID).
	file string
	// cursor is the Cursor event a hook of a Cursor hooks.json is registered for
	// ("beforeShellExecution"); such a hook runs only for that event when the input says
	// which Cursor event it is (inScope).
	cursor string
	// breakerKey is state.OnceKey(event, id), the key of the hook's breaker in the session
	// state, built once here rather than on every run.
	breakerKey string
}

// keyFor returns the hook's breaker key for event (breakerKey when it is the hook's event).
func (c *compiled) keyFor(event hook.Event) string {
	if event == c.event && c.breakerKey != "" {
		return c.breakerKey
	}
	return state.OnceKey(string(event), c.id)
}

// keyer is implemented by executors whose identical runs are deduplicated within one event
// (Claude Code dedups identical command hooks): Key returns the command after placeholder
// expansion plus its working directory.
type keyer interface {
	Key(in *hook.Input) string
}

// identityOf returns what running c does once it matched a call, as a string: its type, the
// fields of the merge that read its decision (blocking, reject, once, async, asyncRewake, on_error, the
// trust skip, an inert hook's reason) and its executor's whole configuration (command or argv, timeout, exit codes,
// protocol, environment, working directory, output limits), all but the executor's hook id.
// Two matched hooks with one identity run once per event (Claude Code dedups identical
// command hooks); hooks that differ in anything that can change the decision — a guard twin
// with `reject`, `on_error: block`, other exit codes or a shorter timeout — both run
// (issue 10.5). The matcher and `if` are left out on purpose: dedup compares hooks that both
// matched the call already. TestIdentityCoversEveryField enumerates the fields of compiled
// and command.Command by reflection, so a new field cannot be forgotten.
func identityOf(c *compiled) string {
	var ex any = c.exec
	if cmd, ok := c.exec.(*command.Command); ok {
		cp := *cmd
		cp.HookID = ""
		// Claude (a settings-file hook ignores a top-level "decision": "ask") is left out:
		// a YAML hook and a settings hook with one command stay one hook, as before; the
		// first twin's reading of such a reply applies.
		cp.Claude = false
		ex = cp
	}
	return fmt.Sprintf("%s\x00%t %t %t %t %t %t %t %q %q %q %q %q\x00%#v", c.typ, c.blocking, c.reject, c.once, c.async, c.rewake, c.failShut, c.staleCover, c.skip, c.inert, c.skill, c.agent, c.failEnv, ex)
}

// eventHooks indexes the hooks of one event so that a call that no hook matches costs one map
// lookup and no allocation (DESIGN.md section 5).
type eventHooks struct {
	// field and kind are the event's MatchField and Kind, looked up once here because the
	// registry lookup costs a name normalisation per call.
	field  string
	kind   hook.Kind
	all    []*compiled
	any    []*compiled            // matcher is any or a regular expression: tested one by one
	byName map[string][]*compiled // matchers reducible to names (Matcher.Literals), by match.FoldKey
	conds  *match.Index           // the hooks' `if` filters, by position in all

	// allSkip, anySkip and nameSkip (by the byName key) say which hooks of all, any and each
	// byName list the Bash command-word index lets matching skip; nil when none can be.
	allSkip, anySkip *wordSkip
	nameSkip         map[string]*wordSkip
}

// wordSkip splits one of an event's candidate lists for the Bash command-word index: the
// hooks whose `if` is a Bash(word …) rule (match.Index.BashWord), by word, and the others.
// Once an event's Bash command is analysed (match.Hits.BashWords), a hook filed under a word
// that starts none of the command's texts cannot match, and matching visits only the others
// and the hooks filed under the command's words: one map lookup per simple command instead
// of one test per hook. Hooks scoped to a skill stay in plain: their scope check reads the
// session state, which skipping would not do.
type wordSkip struct {
	plain  []int32            // positions in the list of the hooks always visited, ascending
	byWord map[string][]int32 // positions of the skippable hooks, by command word, ascending
}

// newWordSkip returns the wordSkip of list, nil when no hook of it is skippable.
func newWordSkip(list []*compiled, conds *match.Index) *wordSkip {
	s := &wordSkip{byWord: map[string][]int32{}}
	for p, c := range list {
		if w := conds.BashWord(c.pos); w != "" && c.cond != nil && c.skill == "" {
			s.byWord[w] = append(s.byWord[w], int32(p))
		} else {
			s.plain = append(s.plain, int32(p))
		}
	}
	if len(s.byWord) == 0 {
		return nil
	}
	return s
}

// rest returns the hooks of list from position from on that matching must still visit when
// the Bash command's texts start with words: the plain ones and those filed under one of
// words, in list order.
func (s *wordSkip) rest(list []*compiled, from int, words []string) []*compiled {
	var buf [32]int32
	pos := appendFrom(buf[:0], s.plain, from)
	for k, w := range words {
		if !slices.Contains(words[:k], w) {
			pos = appendFrom(pos, s.byWord[w], from)
		}
	}
	if len(pos) == 0 {
		return nil
	}
	slices.Sort(pos)
	out := make([]*compiled, len(pos))
	for k, p := range pos {
		out[k] = list[p]
	}
	return out
}

// appendFrom appends the positions of ps (ascending) that are at least from.
func appendFrom(dst, ps []int32, from int) []int32 {
	k, _ := slices.BinarySearch(ps, int32(from))
	return append(dst, ps[k:]...)
}

// hookSet is the compiled, immutable hook set of a Runner; Reload swaps it whole.
type hookSet struct {
	events map[hook.Event]*eventHooks
	// spellings maps every usual spelling of every known event (see eventSpellings) to the
	// canonical event and its hooks, nil when it has none, so that Fire resolves the name
	// and finds the hooks, or finds that there are none, in one map lookup. Only a spelling
	// outside this table (say "PRE-TOOL-USE") costs a hook.ParseEvent.
	spellings map[hook.Event]spelling
	count     int
	// closers are the executors that hold resources (a rego bundle poller, a decision-log
	// sender): closed when the set is replaced by Reload and by Runner.Close.
	closers []io.Closer
	// stale says why the tool calls of a workspace whose trust grant no longer matches its
	// project config are blocked (trustGate), "" when they are not.
	stale string
	// notice is what SessionStart tells the user when the workspace's project hooks do not
	// run (trustGate.notice), "" when they run or there are none.
	notice string
	// tripwire is set when a hook's condition has `tool changed hook_config`: the session
	// is armed, and each event compares the hook config's files with its baseline
	// (tripwire.go).
	tripwire bool
}

// close closes the set's executors that hold resources.
func (hs *hookSet) close() {
	for _, c := range hs.closers {
		_ = c.Close()
	}
}

// spelling is what one spelling of an event resolves to.
type spelling struct {
	event hook.Event
	hooks *eventHooks // nil: the event has no hooks
}

// index fills hs.spellings once the hooks are added: every spelling of an event that has
// hooks, and the canonical name of every other event. Fire resolves any other spelling with
// hook.ParseEvent. Indexing every spelling of every event cost a hook process a tenth of a
// millisecond and 27 KB at each start (issue 9, the lean hook binary).
func (hs *hookSet) index() {
	events := hook.Events()
	hs.spellings = make(map[hook.Event]spelling, len(events)+4*len(hs.events))
	for _, ev := range events {
		eh := hs.events[ev]
		if eh == nil {
			hs.spellings[ev] = spelling{ev, nil}
			continue
		}
		for _, name := range eventSpellings(ev) {
			if got, ok := hook.ParseEvent(name); ok && got == ev {
				hs.spellings[hook.Event(name)] = spelling{ev, eh}
			}
		}
	}
}

// eventSpellings returns the spellings of ev that callers use: the canonical name
// ("PreToolUse"), its lower case and snake case ("pretooluse", "pre_tool_use") and the
// MiniCode aliases ("turn_start"). index keeps only those that hook.ParseEvent resolves to ev.
func eventSpellings(ev hook.Event) []string {
	name := string(ev)
	var snake strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			if i > 0 {
				snake.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		snake.WriteByte(c)
	}
	return append([]string{name, strings.ToLower(name), snake.String()}, ev.Aliases()...)
}

func (r *Runner) compile(set *config.Set) (*hookSet, error) {
	hs := &hookSet{events: make(map[hook.Event]*eventHooks)}
	gate := r.trustGate(set)
	hs.stale, hs.notice = gate.stale, gate.notice
	var errs []error
	order := 0
	add := func(c *compiled) {
		c.order = order
		c.breakerKey = state.OnceKey(string(c.event), c.id)
		order++
		eh := hs.events[c.event]
		if eh == nil {
			eh = &eventHooks{field: c.event.MatchField(), kind: c.event.Kind(), byName: make(map[string][]*compiled)}
			hs.events[c.event] = eh
		}
		c.pos = len(eh.all)
		eh.all = append(eh.all, c)
		if keys := c.matcher.Literals(); keys != nil {
			c.verify = c.matcher.Names() == nil
			seen := map[string]bool{}
			for _, k := range keys {
				if !seen[k] {
					seen[k] = true
					eh.byName[k] = append(eh.byName[k], c)
				}
			}
		} else {
			eh.any = append(eh.any, c)
		}
		hs.count++
		if c.cond.ConfigChanged() {
			hs.tripwire = true
		}
		if c.closer != nil {
			hs.closers = append(hs.closers, c.closer)
		}
	}
	if set != nil {
		b := &build{set: set, seBudget: sessionEndBudget(set, r.opts.Env), untrusted: gate.untrusted, hs: hs}
		agents := config.AgentSwitch(set.Files, gate.whole)
		for _, f := range set.Files {
			if SwitchedOff(set, f, gate.whole) {
				continue
			}
			for i := range f.Hooks {
				h := &f.Hooks[i]
				if !h.Enabled || agents.Off(f, h) {
					continue
				}
				c, err := r.compileHook(h, f, b)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %s: %w", h.Pos, h.ID, err))
					continue
				}
				if f.Layer == config.Project || f.Layer == config.Local {
					c.skip, c.relative = gate.skip(h, f)
					c.staleCover = c.skip != "" && gate.covers
				}
				add(c)
			}
			for i := range f.Broken {
				if c := misconfigured(&f.Broken[i]); c != nil {
					c.skill, c.agent = f.Skill, f.Agent
					if f.Layer == config.Project || f.Layer == config.Local {
						c.skip, _ = gate.skip(&f.Broken[i].Hook, f)
					}
					add(c)
				}
			}
		}
	}
	for i, cb := range r.opts.Callbacks {
		c, err := compileCallback(i, cb)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		add(c)
	}
	if len(errs) > 0 {
		hs.close()
		return nil, errors.Join(errs...)
	}
	for _, eh := range hs.events {
		markTwins(eh.all)
		conds := make([]*match.If, len(eh.all))
		for i, c := range eh.all {
			conds[i] = c.cond
		}
		eh.conds = match.NewIndex(conds)
		eh.allSkip = newWordSkip(eh.all, eh.conds)
		eh.anySkip = newWordSkip(eh.any, eh.conds)
		for k, list := range eh.byName {
			if s := newWordSkip(list, eh.conds); s != nil {
				if eh.nameSkip == nil {
					eh.nameSkip = map[string]*wordSkip{}
				}
				eh.nameSkip[k] = s
			}
		}
	}
	hs.index()
	return hs, nil
}

// markTwins sets twin on each of an event's hooks that shares its identity with another.
//
// A hook's identity (identityOf, a formatted string of about 2 KB for a command hook) is
// built only when another hook of the event has the same type: only then can it have a
// twin.
func markTwins(all []*compiled) {
	byType := make(map[string]int, 4)
	for _, c := range all {
		byType[c.typ]++
	}
	n := make(map[string]int, len(all))
	for _, c := range all {
		if byType[c.typ] > 1 {
			c.identity = identityOf(c)
			n[c.identity]++
		}
	}
	for _, c := range all {
		c.twin = c.identity != "" && n[c.identity] > 1
	}
}

// relativeMismatch says why a trusted project hook may not run in the event's working
// directory: a script it names by a relative path is not, there, the file the grant bound.
func (r *Runner) relativeMismatch(c *compiled, cwd string) string {
	cover := HookCover{Relative: c.relative}
	if rel := cover.RelativeMismatch(cwd, r.projectDir); rel != "" {
		return fmt.Sprintf("pending: it runs %s relative to the working directory %s, and the file there is not the one the workspace trust bound (in the project root); name it from $CLAUDE_PROJECT_DIR, or run from the root", rel, cwd)
	}
	return ""
}

// trustGate is the trust gate of one compile (DESIGN.md section 7, per hook since issue
// 11.1): whole is true when the project and local config files are trusted as a whole
// (their digest is the granted one: a project's disable_all_hooks counts only then); skip
// says why one project or local hook must not run, "" when it may.
type trustGate struct {
	whole bool
	// covers: the project config is the one trusted (whole) by a grant that bound each
	// hook's scripts, so a hook it skips was trusted with other scripts (staleCover).
	covers bool
	// stale says why tool calls are blocked: the workspace was trusted, and its project
	// config changed since (hookSet.stale).
	stale string
	// untrusted says why the project's .mcp.json servers must not start (MCPUntrusted).
	untrusted string
	// notice tells the user, at SessionStart, that the project's hooks do not run: the
	// workspace was never trusted, or stale says why.
	notice string
	skip   func(h *config.Hook, f *config.File) (string, []RelativeFile)
}

func (r *Runner) trustGate(set *config.Set) trustGate {
	if r.opts.Trust == nil || set == nil {
		return trustGate{whole: true, skip: func(*config.Hook, *config.File) (string, []RelativeFile) { return "", nil }}
	}
	entry, ok, err := r.opts.Trust.Lookup(r.projectDir)
	untrusted := MCPUntrusted(set, r.projectDir, entry, ok, err)
	digest := TrustDigestOf(entry, set)
	whole := err == nil && ok && entry.Digest == digest
	stale := ""
	if err == nil && ok && !whole {
		// The model can write the project's files (one allowed edit of .hookcore/hooks.yaml),
		// and a changed config is not trusted: its hooks stopped running, silently, and the
		// next rm -rf went through (stop 24, red team round 20 and the new-user trial). Which
		// hooks the trusted config had is not known from the new one, whose matchers the edit
		// may have changed too, so every tool call is blocked until the user looks. Deleting
		// the project's config is a change too.
		stale = "the project's hook config changed since this workspace was trusted, so its hooks do not run and tool calls are blocked: review the change (`hookcore trust show`), then run `hookcore trust grant`"
	}
	if !hasProjectLayer(set) {
		return trustGate{whole: true, stale: stale, notice: stale, untrusted: untrusted, skip: func(*config.Hook, *config.File) (string, []RelativeFile) { return "", nil }}
	}
	if err != nil {
		// An unreadable store trusts nothing; the project's hooks, which it may have trusted,
		// would not run, and the agent can write the store (red team round 21: `echo x >
		// ~/.hookcore/trust.json` turned a trusted project's guard off).
		stale = "the trust store could not be read (" + err.Error() + "), so the project's hooks do not run and tool calls are blocked: fix or remove it, then run `hookcore trust grant`"
	}
	notice := stale
	if n := projectHookCount(set); err == nil && !ok && n > 0 && !DisablesAll(set, false) {
		// Never trusted: the project's hooks are ignored, which under an agent nobody sees
		// (the second new-user trial, stop 24: a user's own project guard did nothing, with
		// nothing on stderr). The count only: hook ids and file names are the repository's.
		notice = fmt.Sprintf("the project's hooks (%d) do not run: this workspace is not trusted. Review them (`hookcore trust show`), then run `hookcore trust grant` in %s", n, strconv.Quote(r.projectDir))
	}
	memo := hashMemo{}
	return trustGate{
		whole:     whole,
		covers:    whole && entry.Hooks != nil,
		stale:     stale,
		notice:    notice,
		untrusted: untrusted,
		skip: func(h *config.Hook, f *config.File) (string, []RelativeFile) {
			if why := configPending(entry, ok, err, digest); why != "" {
				// The hook's cover (its scripts, found by resolving the command's words,
				// globs included, against the repository's files) is computed only for a
				// config the user trusted: an untrusted repository chose both the words
				// and the files, and a glob through symlinks to "." grew without bound,
				// hanging every hook event (stop 23, red team).
				return why, nil
			}
			c := coverHook(h, f, r.projectDir, memo)
			return PendingReason(entry, ok, err, digest, c), c.Relative
		},
	}
}

// coverHook is coverHookMemo, a variable so that a test can count the covers a compile
// computes.
var coverHook = coverHookMemo

// PendingReason says why a project or local hook with cover c does not run under the
// workspace's trust entry (ok false: none; err: the store could not be read), "" when the
// entry trusts it. digest is TrustDigest of the current set. Both must hold: the project and
// local config files are the ones trusted (DESIGN.md section 7: a changed config must be
// trusted again), and the hook's own cover — its definition and the scripts it runs — is
// one the grant bound (issue 11.1: a changed script makes its hooks pending). Trust fails
// closed: an unreadable store trusts nothing.
func PendingReason(entry trust.Entry, ok bool, err error, digest string, c HookCover) string {
	if why := configPending(entry, ok, err, digest); why != "" {
		return why
	}
	switch {
	case entry.Hooks == nil:
		return "trusted by an older hookcore that did not cover the hooks' scripts: run `hookcore trust grant` again"
	case !slices.Contains(entry.Hooks, c.Digest):
		return "a script it runs changed since the workspace was trusted: run `hookcore trust show`, then `hookcore trust grant`"
	}
	return ""
}

// configPending is the part of PendingReason that does not depend on the hook's cover: why
// no project or local hook runs under the entry (no entry, an unreadable store, a changed
// config), "" when the config files are the trusted ones.
func configPending(entry trust.Entry, ok bool, err error, digest string) string {
	switch {
	case err != nil:
		return "workspace trust could not be checked: " + err.Error()
	case !ok:
		return "workspace not trusted: project hooks do not run until you run `hookcore trust grant` (or pass --trust)"
	case entry.Digest != digest:
		return "workspace not trusted with its current config: the project config changed since it was trusted; run `hookcore trust grant` again"
	}
	return ""
}

// GrantTrust records trust of the project and local hooks of set in the workspace root, each
// by its HookCover digest (its definition and the scripts it runs), plus the digest of the
// config files as a whole. The project env files an earlier grant accepted
// (trust.Entry.Env) stay accepted as they were: GrantTrustEnv accepts the env as it is now.
func GrantTrust(store *trust.Store, set *config.Set, root string, now time.Time) error {
	prev, _, err := store.Lookup(root)
	if err != nil {
		return err
	}
	return grantTrust(store, set, root, prev.Env, now)
}

func grantTrust(store *trust.Store, set *config.Set, root string, env map[string]string, now time.Time) error {
	return store.Put(root, trust.Entry{Digest: canonicalTrustDigest(set), Hooks: CoverSet(set, root), Files: TrustFiles(set, root), Env: env, Time: now})
}

// TrustFiles returns the content hash of each config file TrustDigest binds, by its path
// relative to root (absolute when outside it): trust.Entry.Files, from which `trust show`
// says which file changed since a grant.
func TrustFiles(set *config.Set, root string) map[string]string {
	files := map[string]string{}
	under := func(p string) string { // relative to root when inside it
		if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
			return rel
		}
		return p
	}
	for _, f := range set.Files {
		if h, ok := f.TrustHash(); ok && digestFile(f) {
			files[under(f.Path)] = h
		}
	}
	for _, src := range set.MCP {
		if src.Layer == config.Project {
			files[under(src.Path)] = src.Hash // not in the digest (MCPCover binds it), but named when it changed
		}
	}
	return files
}

// MCPCover is what a trust grant binds for the project's .mcp.json src: its path inside
// root and its content hash. A changed .mcp.json has another cover, and its servers do not
// start until the workspace is trusted again; the project's hooks keep their trust.
func MCPCover(src config.MCPSource, root string) string {
	p := src.Path
	if rel, err := filepath.Rel(root, p); err == nil {
		p = rel
	}
	return trust.Digest("hookcore-mcp-v1\x00" + p + "\x00" + src.Hash)
}

// MCPUntrusted says why the servers of set's project .mcp.json must not start under the
// workspace's trust entry (ok false: none; err: the store could not be read), "" when the
// grant bound that file as it is now, or set has none. A project .mcp.json server is a
// command from the repository: the same trust gate as its hooks (DESIGN.md section 7),
// failing closed.
func MCPUntrusted(set *config.Set, root string, entry trust.Entry, ok bool, err error) string {
	for _, src := range set.MCP {
		if src.Layer != config.Project {
			continue
		}
		switch {
		case err != nil:
			return "workspace trust could not be checked: " + err.Error()
		case !ok:
			return "workspace not trusted: the servers of its .mcp.json do not start until you run `hookcore trust grant` (or pass --trust)"
		case !slices.Contains(entry.Hooks, MCPCover(src, root)):
			return "the project's .mcp.json changed since the workspace was trusted (or was never granted): run `hookcore trust grant` again"
		}
	}
	return ""
}

// CoverSet returns the HookCover digest of every project and local hook of set, and the
// MCPCover of its project .mcp.json, sorted.
func CoverSet(set *config.Set, root string) []string {
	digests := []string{}
	memo := hashMemo{}
	for _, src := range set.MCP {
		if src.Layer == config.Project {
			digests = append(digests, MCPCover(src, root))
		}
	}
	for _, f := range set.Files {
		if f.Layer != config.Project && f.Layer != config.Local {
			continue
		}
		for i := range f.Hooks {
			digests = append(digests, coverHookMemo(&f.Hooks[i], f, root, memo).Digest)
		}
	}
	slices.Sort(digests)
	return slices.Compact(digests)
}

// build is what one compile shares between its hooks.
type build struct {
	set       *config.Set
	seBudget  time.Duration // the SessionEnd budget of Claude Code hooks (claude_handlers.go)
	untrusted string        // trustGate.untrusted
	hs        *hookSet      // the set being built: shared resources join its closers
	shared    map[string]io.Closer
	// envFile and env are the last file whose command hooks were compiled and its hookEnv,
	// which its other command hooks share (the executor copies it to add its own): a copy
	// of the process's environment per hook was most of compiling one (stop 34).
	envFile *config.File
	env     []string
}

// hookEnv is r.hookEnv(f), computed once for the hooks of f compiled one after another.
func (b *build) hookEnv(r *Runner, f *config.File) []string {
	if b.envFile != f || b.env == nil {
		b.envFile, b.env = f, slices.Clip(r.hookEnv(f))
	}
	return b.env
}

// share returns the resource of key in this build, opening it the first time (see
// ExecutorEnv.Shared); it is closed with the hook set.
func (b *build) share(key string, open func() (io.Closer, error)) (io.Closer, error) {
	if c, ok := b.shared[key]; ok {
		return c, nil
	}
	c, err := open()
	if err != nil {
		return nil, err
	}
	if b.shared == nil {
		b.shared = map[string]io.Closer{}
	}
	b.shared[key] = c
	b.hs.closers = append(b.hs.closers, c)
	return c, nil
}

// guardsFailClosed is Options.GuardsFailClosed for the hooks of f that it covers, those of a
// layer but the project's and the local one; "" for the others.
func guardsFailClosed(why string, f *config.File) string {
	if f.Layer == config.Project || f.Layer == config.Local {
		return ""
	}
	return why
}

// compileHook builds one hook of f.
func (r *Runner) compileHook(h *config.Hook, f *config.File, b *build) (*compiled, error) {
	m, err := h.CompileMatcher()
	if err != nil {
		return nil, err
	}
	cond, err := match.CompileIf(h.If)
	if err != nil {
		return nil, err
	}
	c := &compiled{
		file:     f.Path,
		skill:    f.Skill,
		agent:    f.Agent,
		cursor:   cursorEvent(h),
		id:       h.ID,
		typ:      h.Action.Type,
		source:   h.Source(),
		event:    h.Event,
		matcher:  m,
		cond:     cond,
		blocking: h.Blocking,
		reject:   h.Reject,
		once:     h.Once,
		async:    h.Async,
		parallel: h.Parallel || f.Parallel || r.opts.Parallel,
		failShut: h.OnError == "block",
		failEnv:  guardsFailClosed(r.opts.GuardsFailClosed, f),
		status:   h.StatusMessage,
		rewake:   h.AsyncRewake,
	}
	timeout := h.EffectiveTimeout()
	if h.Dialect == config.Nested {
		timeout = claudeTimeout(h, timeout, b.seBudget)
	}
	switch h.Action.Type {
	case "command":
		codes, err := exitActions(h.ExitCodes)
		if err != nil {
			return nil, err
		}
		c.exec = &command.Command{
			HookID:     h.ID,
			Command:    h.Action.Command,
			Args:       h.Action.Args,
			Timeout:    timeout,
			ExitCodes:  codes,
			Codebot:    h.Dialect == config.Flat,
			Claude:     h.Dialect == config.Nested,
			S08:        h.S08,
			Agent:      commandAgent(h, f),
			AgentEvent: h.NativeEvent,
			ProjectDir: r.projectDir,
			PluginRoot: f.PluginRoot,
			PluginData: f.PluginData,
			Shell:      h.Action.Shell,
			EnvFileDir: r.opts.SessionEnvDir,
			Env:        b.hookEnv(r, f),
		}
		if slices.Contains(command.EnvFileEvents, string(h.Event)) {
			c.exec.(*command.Command).EnvFileName = envFileName(h, f)
		}
		c.target = h.Action.Command
		if c.target == "" {
			c.target = strings.Join(h.Action.Args, " ")
		}
	case "inject":
		c.exec = &executor.Inject{Message: h.Action.Message}
		c.target = "inject"
		c.spanBlind = true
	case "func":
		fn, ok := r.opts.Funcs[h.Action.Name]
		if !ok {
			return nil, fmt.Errorf("func hook names %q, which the program did not register", h.Action.Name)
		}
		c.exec = &executor.Func{Fn: fn}
		c.target = h.Action.Name
	case config.TypeHTTP:
		ph := executor.Placeholders{ProjectDir: r.projectDir, PluginRoot: f.PluginRoot, PluginData: f.PluginData}
		u, err := ph.Expand(h.Action.URL)
		if err != nil {
			c.exec, c.target = failing(fmt.Errorf("hook %q: %w: %w", h.ID, hook.ErrNotStarted, err)), h.Action.URL
			break
		}
		hc := *h
		hc.Action.URL = u
		ex, target, err := r.externalExecutor(&hc, f, timeout, b)
		if err != nil {
			return nil, err
		}
		c.exec, c.target = ex, target
	default:
		ex, target, err := r.externalExecutor(h, f, timeout, b)
		if err != nil {
			return nil, err
		}
		c.exec, c.target = ex, target
		if s, ok := ex.(skipping); ok {
			c.inert = string(s)
		}
	}
	c.closer, _ = c.exec.(io.Closer)
	if timeout > 0 && h.Action.Type != "command" {
		c.exec = withTimeout(c.exec, timeout)
	}
	return c, nil
}

// misconfigured returns the stand-in of a broken hook entry that must not fail open: a gate
// hook with on_error: block, whose every run is an error (so it blocks, fail-closed) saying
// that the guard is misconfigured and why (issue 8.2). Its matcher and if are the entry's
// when they compile, else it matches every call. Other broken entries return nil: they are
// skipped.
func misconfigured(b *config.Broken) *compiled {
	h := &b.Hook
	if !b.FailsShut() {
		return nil
	}
	m, err := h.CompileMatcher()
	if err != nil {
		m, _ = match.CompileMatcher("")
	}
	cond, err := match.CompileIf(h.If)
	if err != nil {
		cond = nil
	}
	msg := "it has errors"
	if len(b.Errors) > 0 {
		msg = b.Errors[0].Pos.String() + ": " + b.Errors[0].Msg
	}
	fault := fmt.Errorf("guard is misconfigured: %s", msg)
	return &compiled{
		id: h.ID, typ: h.Action.Type, source: h.Source(), target: "misconfigured", event: h.Event,
		matcher: m, cond: cond, blocking: true, failShut: true,
		exec: hook.ExecutorFunc(func(context.Context, *hook.Input) (hook.Decision, error) {
			return hook.Decision{}, fault
		}),
	}
}

func compileCallback(i int, cb Callback) (*compiled, error) {
	id := cb.ID
	if id == "" {
		id = fmt.Sprintf("func#%d", i+1)
	}
	ev, ok := hook.ParseEvent(string(cb.Event))
	if !ok {
		return nil, fmt.Errorf("callback %s: unknown event %q", id, cb.Event)
	}
	if cb.Func == nil {
		return nil, fmt.Errorf("callback %s: Func is nil", id)
	}
	m, err := match.CompileMatcher(cb.Matcher)
	if err != nil {
		return nil, fmt.Errorf("callback %s: %w", id, err)
	}
	cond, err := match.CompileIf(cb.If)
	if err != nil {
		return nil, fmt.Errorf("callback %s: %w", id, err)
	}
	return &compiled{
		id: id, typ: "func", source: "callback", target: id, event: ev,
		matcher: m, cond: cond, exec: &executor.Func{Fn: cb.Func},
		blocking: !cb.NonBlocking,
		failShut: cb.OnError == "block",
	}, nil
}

func exitActions(m map[int]string) (map[int]command.ExitAction, error) {
	if len(m) == 0 {
		return nil, nil
	}
	out := make(map[int]command.ExitAction, len(m))
	for code, name := range m {
		a, ok := command.ParseExitAction(name)
		if !ok {
			return nil, fmt.Errorf("exit_codes: unknown action %q for exit code %d", name, code)
		}
		out[code] = a
	}
	return out, nil
}

// withTimeout bounds an executor that has no timeout of its own.
func withTimeout(ex hook.Executor, d time.Duration) hook.Executor {
	return hook.ExecutorFunc(func(ctx context.Context, in *hook.Input) (hook.Decision, error) {
		ctx, cancel := context.WithTimeout(ctx, d)
		defer cancel()
		dec, err := ex.Execute(ctx, in)
		if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, hook.ErrTimeout) {
			err = fmt.Errorf("%w after %s: %v", hook.ErrTimeout, d, err)
		}
		return dec, err
	})
}

// DisablesAll reports whether set turns every hook off (disable_all_hooks: true in a file
// that may speak for the user). The project and local files of an untrusted workspace may
// not: a repository must not switch off the user's own guards. projectTrusted says whether
// those layers are trusted (true when no trust gate applies). Claude Code's managed hooks
// are turned off only by a managed file (see SwitchedOff); DisablesAll reports the others.
func DisablesAll(set *config.Set, projectTrusted bool) bool {
	for _, f := range set.Files {
		if f.DisableAll && config.KillScope(f) == "" && (projectTrusted || (f.Layer != config.Project && f.Layer != config.Local)) {
			return true
		}
	}
	return false
}

// SwitchedOff reports whether the hooks of f, a file of set, are turned off by a kill
// switch, as Claude Code resolves them (research note §2.1): disableAllHooks in a managed
// file turns off every file; in any other file that may speak (DisablesAll) and speaks for
// every hook (config.KillScope "") it turns off every file but the managed ones; in another agent's
// file, only that agent's files; allowManagedHooksOnly in a managed file turns off every
// file but the managed ones (and is ignored elsewhere). The switches of Gemini CLI's and
// Codex's own settings are config.AgentSwitch's.
func SwitchedOff(set *config.Set, f *config.File, projectTrusted bool) bool {
	for _, g := range set.Files {
		if g.Layer == config.Managed && (g.DisableAll || (g.ManagedOnly && f.Layer != config.Managed)) {
			return true
		}
	}
	if f.Layer == config.Managed {
		return false
	}
	if DisablesAll(set, projectTrusted) {
		return true
	}
	scope := config.KillScope(f)
	for _, g := range set.Files {
		if g.DisableAll && scope != "" && config.KillScope(g) == scope && (projectTrusted || (g.Layer != config.Project && g.Layer != config.Local)) {
			return true
		}
	}
	return false
}

// projectHookCount is the number of hook entries, broken ones included, in the project and
// local layer files of set.
func projectHookCount(set *config.Set) int {
	n := 0
	for _, f := range set.Files {
		if f.Layer == config.Project || f.Layer == config.Local {
			n += len(f.Hooks) + len(f.Broken)
		}
	}
	return n
}

func hasProjectLayer(set *config.Set) bool {
	for _, f := range set.Files {
		if f.Layer == config.Project || f.Layer == config.Local {
			return true
		}
	}
	return false
}

// TrustDigest returns the digest that workspace trust is recorded against for set: the paths
// and content hashes of its project and local layer files (see package trust), but not of
// skill and sub-agent files (config.File.Skill, Agent): only `hookcore run` and `trust`
// load those, so that the digest is the same for every command; their hooks are trusted one
// by one by their HookCover digest (PendingReason), which binds their definition and scripts.
func TrustDigest(set *config.Set) string { return digestOf(set, false, false) }

// legacyTrustDigest is TrustDigest as grants before stop 25 recorded it: every file's whole
// content (config.File.Hash), settings files included.
func legacyTrustDigest(set *config.Set) string { return digestOf(set, true, false) }

// canonicalTrustDigest is TrustDigest over the files' paths with symbolic links resolved
// (as written when a path cannot be resolved): what GrantTrust records.
func canonicalTrustDigest(set *config.Set) string { return digestOf(set, false, true) }

// digestOf is the digest over set's digestFile files: each path (resolved through symbolic
// links when resolve) with the file's TrustHash, or its whole content's hash when whole.
func digestOf(set *config.Set, whole, resolve bool) string {
	var parts []string
	for _, f := range set.Files {
		h, ok := f.TrustHash()
		if whole {
			h, ok = f.Hash, true
		}
		if !ok || !digestFile(f) {
			continue
		}
		p := f.Path
		if resolve {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				p = real
			}
		}
		parts = append(parts, p+"\x00"+h)
	}
	return trust.Digest(parts...)
}

// TrustDigestOf returns the digest of set to compare with entry.Digest: TrustDigest, or, for
// an entry granted before stop 25 (it records no Files) at the digest of the whole files,
// that digest, which binds more. Such a workspace stays trusted after the upgrade until its
// config changes; its next grant records the new digest.
func TrustDigestOf(entry trust.Entry, set *config.Set) string {
	if entry.Files == nil {
		if legacy := legacyTrustDigest(set); entry.Digest == legacy {
			return legacy
		}
	}
	d := TrustDigest(set)
	if entry.Digest != d {
		// The workspace reached through a symbolic link (or granted so): GrantTrust records
		// the digest over the files' real paths (stop 25 trial: opening the project by a
		// linked path made its grant stale, and every tool call was blocked). Computed only
		// when the paths as written do not match, so a hook event pays nothing for it.
		if c := canonicalTrustDigest(set); c == entry.Digest {
			return c
		}
	}
	return d
}

// TrustedSet reports whether store trusts workspace with set's project config as it is now
// (TrustDigestOf). An unreadable store is an error, and trusts nothing.
func TrustedSet(store *trust.Store, workspace string, set *config.Set) (bool, error) {
	entry, ok, err := store.Lookup(workspace)
	if err != nil || !ok {
		return false, err
	}
	return entry.Digest == TrustDigestOf(entry, set), nil
}

// digestFile reports whether f is one of the files TrustDigest binds: a project or local
// config file, not a skill's or sub-agent's.
func digestFile(f *config.File) bool {
	return (f.Layer == config.Project || f.Layer == config.Local) && f.Skill == "" && f.Agent == ""
}

// hookEnv is the base environment of f's command hooks: Options.Env (or the process's),
// plus HOOKCORE_CONFIG_DIR, the directory of the config file that declares the hook, so a
// config can name the scripts beside it wherever it is loaded from.
func (r *Runner) hookEnv(f *config.File) []string {
	base := r.opts.Env
	if base == nil {
		base = os.Environ()
	}
	dir := filepath.Dir(f.Path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	env := append(slices.Clip(base), "HOOKCORE_CONFIG_DIR="+dir)
	if f.Layer != config.Project && f.Layer != config.Local {
		env = gitGuarded(env)
	}
	return env
}

// gitSafe are the git settings a hook of the user's runs with (GIT_CONFIG_COUNT, which
// overrides every config file): those with which a repository's .git/config, which the
// model can write, makes git run a program — core.fsmonitor on every `git status`, the pager,
// the hooks, an external diff, ssh, the ext transport (red team round 32: a guard that ran
// `git status` ran the repository's script, which emptied ~/.hookcore/hooks.yaml, and rm -rf
// passed next; end to end with the real Claude Code). A filter or textconv driver named in
// the work tree's .gitattributes is not covered (git 2.40's GIT_ATTR_SOURCE could, at the
// cost of every attribute): the README says so.
var gitSafe = [][2]string{
	{"core.fsmonitor", "false"}, {"core.hooksPath", "/dev/null"}, {"core.pager", "cat"},
	{"diff.external", ""}, {"core.sshCommand", "ssh"}, {"protocol.ext.allow", "never"},
}

// gitGuarded appends gitSafe to env as GIT_CONFIG_KEY_n/VALUE_n after the ones env has
// already (GIT_CONFIG_COUNT), so that settings the user passes this way stay.
func gitGuarded(env []string) []string {
	n := 0
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			if c, err := strconv.Atoi(v); err == nil && c > 0 && c < 1000 {
				n = c
			}
		}
	}
	for i, kv := range gitSafe {
		env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n+i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", n+i, kv[1]))
	}
	return append(env, fmt.Sprintf("GIT_CONFIG_COUNT=%d", n+len(gitSafe)))
}

// commandAgent is command.Command.Agent for a command hook of file f: "cursor" for a hook
// of a Cursor hooks.json, "copilot" for one of a Copilot CLI .github/hooks/*.json and
// "gemini" for one of a Gemini CLI settings.json, whose input and reply follow that
// agent's protocol; "codex" for one of a Codex hooks.json or config.toml (Claude Code's
// input and envelope, which Codex adopted, with Codex's string tool_response); "" for every
// other dialect.
func commandAgent(h *config.Hook, f *config.File) string {
	if f.Dialect == config.Codex {
		return "codex"
	}
	switch h.Dialect {
	case config.Cursor:
		return "cursor"
	case config.Copilot:
		return "copilot"
	case config.Gemini:
		return "gemini"
	}
	return ""
}

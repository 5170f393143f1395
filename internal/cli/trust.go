//go:build !hookcore_lean

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/internal/install"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/trust"
)

func trustCmd(e *env) *cobra.Command {
	var (
		workspace string
		dir       string
		asJSON    bool
		system    systemFlags
	)
	cmd := &cobra.Command{
		Use:   "trust [show|grant|revoke]",
		Short: "Show, grant or revoke trust of a workspace's project hooks",
		Long: `Project (.hookcore/hooks.yaml) and local (.hookcore/hooks.local.yaml) hooks of a workspace run
only after you trust the workspace. Trust is recorded in ~/.hookcore/trust.json against a
digest of those files, so after any change to them they must be trusted again.
show also lists the variables the project's Claude Code settings and Gemini CLI .env give
every hook, marking those hookcore refuses (a guard's tools may read them); grant accepts
them as they are, except the ones that decide what hookcore itself reads or runs (HOME,
PATH, HOOKCORE_*, LD_*, ...) and values that name a path inside the workspace.
  show    (default) whether the workspace is trusted with its current config
  grant   trust the workspace's current config and accept its project env
  revoke  forget the workspace`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: []string{"show", "grant", "revoke"},
		RunE: func(cmd *cobra.Command, args []string) error {
			action := "show"
			if len(args) == 1 {
				action = args[0]
			}
			if e.home == "" {
				return &exitError{code: ExitFailure, msg: "no home directory: the trust store lives under $HOME"}
			}
			ws := workspace
			if ws == "" {
				ws = e.projectRoot()
			} else if !filepath.IsAbs(ws) {
				ws = filepath.Join(e.cwd, ws)
			}
			store := trust.DefaultStore(e.home)
			set, problems, err := e.workspaceConfig(ws, dir, system)
			if err != nil {
				return err
			}
			for _, p := range problems {
				fmt.Fprintln(e.stderr, relativize(p.Error(), e.cwd))
			}
			switch action {
			case "show":
				entry, ok, err := store.Lookup(ws)
				if err != nil {
					return err
				}
				digest := hookcore.TrustDigestOf(entry, set)
				envs, envProblems := e.projectEnvs(ws)
				e.printEnvProblems(envProblems)
				if asJSON {
					return e.writeTrustJSON(set, ws, entry, ok, digest, envs)
				}
				switch {
				case !ok:
					fmt.Fprintf(e.stdout, "%s: not trusted\n", ws)
				case entry.Digest == digest:
					fmt.Fprintf(e.stdout, "%s: trusted (since %s)\n", ws, entry.Time.Format(time.RFC3339))
				default:
					fmt.Fprintf(e.stdout, "%s: trusted on %s, but its project config changed since: run `hookcore trust grant` again\n", ws, entry.Time.Format(time.RFC3339))
					e.printFileChanges(set, ws, entry)
				}
				e.printHookTrust(set, ws, entry, ok, envs)
			case "grant":
				// A file that cannot be loaded as a whole is not trusted; a broken entry is
				// skipped wherever it is (issue 8.2), so it does not stop the grant of the
				// file's valid hooks: a Claude Code settings file with one entry on an event
				// hookcore does not know keeps its guards.
				if len(hookcore.FatalProblems(set, problems, nil, ws)) > 0 {
					return &exitError{code: ExitFailure, msg: "the project config cannot be loaded; fix it before trusting it"}
				}
				if n := brokenEntries(set); n > 0 {
					fmt.Fprintf(e.stderr, "hookcore: broken hook entries skipped (see above): %d; the other hooks are trusted\n", n)
				}
				before, had, err := store.Lookup(ws)
				if err != nil {
					return err
				}
				// The project env is read once: what is listed is what the grant binds.
				envs, envProblems := e.projectEnvs(ws)
				e.printEnvProblems(envProblems)
				if !asJSON {
					// Before: what the grant changes, hook by hook (issue 10.10).
					fmt.Fprintf(e.stdout, "%s: before: %s\n", ws, trustState(before, had, hookcore.TrustDigestOf(before, set)))
					e.printHookTrust(set, ws, before, had, envs)
				}
				if err := hookcore.GrantTrustEnv(store, set, ws, envs, time.Now()); err != nil {
					return err
				}
				entry, ok, err := store.Lookup(ws)
				if err != nil {
					return err
				}
				if asJSON {
					return e.writeTrustJSON(set, ws, entry, ok, hookcore.TrustDigestOf(entry, set), envs)
				}
				fmt.Fprintf(e.stdout, "%s: trusted\n", ws)
				e.printHookTrust(set, ws, entry, ok, envs)
			case "revoke":
				had, err := store.Revoke(ws)
				if err != nil {
					return err
				}
				if had {
					fmt.Fprintf(e.stdout, "%s: trust revoked\n", ws)
				} else {
					fmt.Fprintf(e.stdout, "%s: was not trusted\n", ws)
				}
			default:
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("unknown trust action %q (want show, grant or revoke)", action)}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&workspace, "workspace", "w", "", "the workspace (default: the trusted workspace the working directory is in, else its project root)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "show and grant: print the workspace's trust and every project hook's state as JSON")
	cmd.Flags().StringVar(&dir, "config-dir", ".hookcore", "name of the per-user and per-project config directory")
	managedDirFlag(cmd, &system)
	return cmd
}

// hookTrust is one project or local hook's trust state, as trust show lists it.
type hookTrust struct {
	ID       string `json:"id"`
	Source   string `json:"source"`
	State    string `json:"state"` // "trusted" or "pending"
	Event    string `json:"event"`
	Type     string `json:"type"`
	Runs     string `json:"runs"` // the command (or argv), URL, prompt, message or func name`
	Matcher  string `json:"matcher,omitempty"`
	If       string `json:"if,omitempty"`
	Disabled bool   `json:"disabled,omitempty"` // enabled: false: it never runs
	// Options are how it runs, where not the default: "timeout 5s", "async", "once",
	// "shell powershell", and the keys its agent reads and hookcore does not.
	Options    []string `json:"options,omitempty"`
	Reason     string   `json:"reason,omitempty"`
	Files      []hashed `json:"files"`
	NotCovered []string `json:"not_covered,omitempty"`
	digest     string   // its cover's digest (hookcore.HookCover.Digest)
	self       bool     // an agent's entry that runs hookcore (callsHookcore), State "agent"
}

type hashed struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// hookTrusts lists each project and local hook with its trust state, the files inside the
// project that it runs (their hashes are what the grant binds), what trust cannot cover, and
// why a hook is pending (issue 11.1).
func (e *env) hookTrusts(set *config.Set, ws string, entry trust.Entry, ok bool) []hookTrust {
	out := []hookTrust{}
	digest := hookcore.TrustDigestOf(entry, set)
	for _, f := range set.Files {
		if f.Layer != config.Project && f.Layer != config.Local {
			continue
		}
		for i := range f.Hooks {
			c := hookcore.CoverHook(&f.Hooks[i], f, ws)
			h := &f.Hooks[i]
			ht := hookTrust{ID: c.ID, Source: relativize(c.Source, e.cwd), State: "trusted",
				Event: string(h.Event), Type: h.Action.Type, Runs: fullTarget(h.Action),
				Matcher: h.Matcher, If: h.If, Disabled: !h.Enabled, Options: hookOptions(h),
				Files: []hashed{}, NotCovered: c.NotCovered, digest: c.Digest}
			if callsHookcore(h.Action) {
				// An agent's entry that runs hookcore (what install writes, or not quite):
				// the agent runs it, hookcore never does (dropSelf), so it is neither trusted
				// nor pending; it is listed, compactly, with what it runs and when, and marked
				// when it changed since the grant (stop 25 red team: a narrowed matcher or a
				// shell that cannot start, on install's entries, hid the guard from the agent).
				ht.State, ht.Disabled, ht.self = "agent", false, true
				if ok && entry.Hooks != nil && !slices.Contains(entry.Hooks, c.Digest) {
					ht.Reason = "new or changed since the grant"
				}
				out = append(out, ht)
				continue
			}
			if why := hookcore.PendingReason(entry, ok, nil, digest, c); why != "" {
				ht.State, ht.Reason = "pending", why
				if ok && entry.Digest != digest && entry.Hooks != nil {
					// The config files changed since the grant: say which hooks did, so
					// that the review is of those (a grant binds each hook's cover).
					ht.Reason = "as granted; pending until the workspace is trusted again (its config files changed)"
					if !slices.Contains(entry.Hooks, c.Digest) {
						ht.Reason = "new or changed since the grant (its definition or a script it runs)"
					}
				}
			}
			for _, cf := range c.Files {
				ht.Files = append(ht.Files, hashed{Path: relativize(cf.Path, ws), SHA256: cf.SHA256})
			}
			out = append(out, ht)
		}
	}
	return out
}

// printHookTrust prints each project and local hook with its trust state under entry (ok:
// there is one), then the project env files envs (printEnvTrust), then the warnings about
// what the project's settings switch off.
func (e *env) printHookTrust(set *config.Set, ws string, entry trust.Entry, ok bool, envs []config.ProjectEnv) {
	// The warnings come after the hooks, where the grant's output ends: with a hundred
	// project hooks they scrolled away above (red team round 28).
	defer e.printSwitchWarnings(set, ws)
	defer e.printEnvTrust(e.envTrusts(ws, envs, entry, ok, ok && entry.Digest == hookcore.TrustDigestOf(entry, set)))
	hts := e.hookTrusts(set, ws, entry, ok)
	if slices.ContainsFunc(hts, func(ht hookTrust) bool { return ht.self }) {
		fmt.Fprintln(e.stdout, "  (agent: an entry of an agent's settings that runs hookcore; the agent runs it, hookcore does not)")
	}
	for _, ht := range hts {
		if ht.self {
			// An agent's entry that runs hookcore: one line with what it runs, then when and
			// how, as for a hook (the second new-user trial, stop 24: install's fifteen
			// entries were listed as fifteen pending hooks).
			fmt.Fprintf(e.stdout, "  agent    %s %s: %s\n", text.Printable(ht.Source), ht.Event, reviewLine(ht.Runs))
		} else {
			fmt.Fprintf(e.stdout, "  %-8s %s %s\n", ht.State, text.Printable(ht.Source), text.Printable(ht.ID))
			// What the hook runs, made printable: the text comes from the repository (issue 10.10).
			fmt.Fprintf(e.stdout, "           %s %s: %s\n", ht.Event, ht.Type, reviewLine(ht.Runs))
		}
		// When and how it runs: a guard whose matcher or if was narrowed guards less, and the
		// review must show it (stop 25 trial).
		var when []string
		if ht.Matcher != "" {
			when = append(when, "matcher: "+oneLine(ht.Matcher, 120))
		}
		if ht.If != "" {
			when = append(when, "if: "+oneLine(ht.If, 200))
		}
		if ht.Disabled {
			when = append(when, "disabled (enabled: false)")
		}
		for _, o := range ht.Options {
			when = append(when, oneLine(o, 120))
		}
		if len(when) > 0 {
			fmt.Fprintf(e.stdout, "           %s\n", strings.Join(when, "  "))
		}
		if ht.Reason != "" && ok {
			fmt.Fprintf(e.stdout, "           %s\n", ht.Reason)
		}
		for _, f := range ht.Files {
			sum := f.SHA256
			if len(sum) == 64 {
				sum = "sha256 " + sum[:12]
			}
			fmt.Fprintf(e.stdout, "           runs %s (%s)\n", text.Printable(f.Path), sum)
		}
		for _, nc := range ht.NotCovered {
			fmt.Fprintf(e.stdout, "           not covered: %s\n", text.Printable(nc))
		}
	}
}

// printSwitchWarnings warns about what a project's config switches off once trusted: every
// hook (disable_all_hooks), each of the user's hooks that the project's Gemini CLI or Codex
// settings turn off now, and the switches that would turn off hooks the user adds later:
// an agent switched off whole, each Gemini hook name it lists, a Codex
// [hooks.state] key of a file outside the project (red team round 28: such switches were
// granted without a word, and the user's hooks added later never ran).
func (e *env) printSwitchWarnings(set *config.Set, ws string) {
	warn := func(format string, a ...any) {
		fmt.Fprintf(e.stdout, "  warning: "+format+"\n", a...)
	}
	for _, f := range set.Files {
		if (f.Layer == config.Project || f.Layer == config.Local) && f.DisableAll && config.IsClaudeSettings(f.Path) {
			// Red team round 46: Claude Code applies a project's disableAllHooks on its own
			// folder trust, before hookcore is asked; the grant only adds hookcore's hooks.
			warn("%s sets disableAllHooks: Claude Code turns off every hook but the managed ones on its own folder trust, your hookcore entries included, whatever hookcore's grant says", text.Printable(relativize(f.Path, e.cwd)))
		} else if (f.Layer == config.Project || f.Layer == config.Local) && f.DisableAll {
			// Red team: a granted project config with disable_all_hooks turned off the
			// user's own guards, and the grant said only "trusted".
			warn("%s sets disable_all_hooks: once trusted, it turns off every hook, your own guards included", text.Printable(relativize(f.Path, e.cwd)))
		}
	}
	for _, off := range switchedOffByProject(set) {
		// Red team round 27: a project's Gemini CLI hooksConfig or Codex config.toml turned
		// off the user's own Gemini and Codex hooks once granted, and the grant said only
		// "trusted".
		warn("once trusted, the project's settings turn off your hook %s (%s): %s",
			text.Printable(off.ID), text.Printable(relativize(off.Source, e.cwd)), text.Printable(relativize(off.By, e.cwd)))
	}
	trusted, untrusted := config.AgentSwitch(set.Files, true), config.AgentSwitch(set.Files, false)
	for _, d := range []config.Dialect{config.Gemini, config.Codex} {
		if by := trusted.AllOff(d); by != "" && untrusted.AllOff(d) == "" {
			warn("once trusted, %s turns off every %s hook, yours included, and any you add", text.Printable(relativize(by, e.cwd)), d.Agent())
		}
	}
	for _, f := range set.Files {
		if f.Layer != config.Project && f.Layer != config.Local {
			continue
		}
		for _, k := range f.HooksDisabled {
			switch {
			case f.Dialect == config.Gemini:
				// Every name, one the project's own hooks have too: a decoy hook of the
				// name hid the switch, which then took the user's hook of that name added
				// later (red team round 29).
				warn("once trusted, %s turns off any Gemini CLI hook named %s, yours included", text.Printable(relativize(f.Path, e.cwd)), text.Printable(strconv.Quote(k)))
			case f.Dialect == config.Codex && !inProject(codexKeyFile(k), ws):
				warn("once trusted, %s turns off the Codex hook %s, outside the project", text.Printable(relativize(f.Path, e.cwd)), text.Printable(strconv.Quote(k)))
			}
		}
	}
}

// codexKeyFile is the file of a Codex [hooks.state] key, "FILE:EVENT_LABEL:GROUP:HANDLER".
func codexKeyFile(key string) string {
	for range 3 {
		i := strings.LastIndexByte(key, ':')
		if i < 0 {
			return key
		}
		key = key[:i]
	}
	return key
}

// switchedOff is a hook of the user's (a layer but the project's and local) that the
// project's files switch off once the workspace is trusted, through its agent's own switches
// (config.AgentSwitch): By says which file and how.
type switchedOff struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	By     string `json:"by"`
}

// switchedOffByProject lists the hooks of set outside the project and local layers that
// the agents' switches turn off in a trusted workspace and not in an untrusted one: those
// the project's settings turn off.
func switchedOffByProject(set *config.Set) []switchedOff {
	trusted, untrusted := config.AgentSwitch(set.Files, true), config.AgentSwitch(set.Files, false)
	var out []switchedOff
	for _, f := range set.Files {
		if f.Layer == config.Project || f.Layer == config.Local {
			continue
		}
		for i := range f.Hooks {
			h := &f.Hooks[i]
			if why := trusted.Why(f, h); h.Enabled && why != "" && !untrusted.Off(f, h) {
				out = append(out, switchedOff{ID: h.ID, Source: h.Source(), By: why})
			}
		}
	}
	return out
}

// fileChanges are the config files changed, added and removed since a grant
// (trust.Entry.Changes), as trust show --json prints them.
type fileChanges struct {
	Changed []string `json:"changed"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// RemovedHooks counts the hooks the grant trusted that the config no longer has (or has
	// changed: a changed hook is also listed as new or changed).
	RemovedHooks int `json:"removed_hooks"`
}

// removedHooks counts the hook digests of entry that no hook of hts has.
// The grant's digests hold the project's .mcp.json too (hookcore.MCPCover), which is no hook:
// the current one counts as present, and when the grant had one (its Files name
// .mcp.json) that changed or went, one digest the grant had is that one, not a hook's (stop 25 trial: "removed 1
// of the granted hooks" in every project with an .mcp.json).
func removedHooks(entry trust.Entry, hts []hookTrust, set *config.Set, ws string) int {
	now := map[string]bool{}
	for _, ht := range hts {
		now[ht.digest] = true
	}
	_, hadMCP := entry.Files[".mcp.json"]
	oldMCPGone := hadMCP // the grant's .mcp.json digest is not among the current ones
	for _, src := range set.MCP {
		if src.Layer == config.Project {
			c := hookcore.MCPCover(src, ws)
			now[c] = true
			if slices.Contains(entry.Hooks, c) {
				oldMCPGone = false
			}
		}
	}
	n := 0
	for _, d := range entry.Hooks {
		if !now[d] {
			n++
		}
	}
	if oldMCPGone && n > 0 {
		n--
	}
	return n
}

// printFileChanges prints which project config files changed since entry was granted, or
// that the entry does not record them.
func (e *env) printFileChanges(set *config.Set, ws string, entry trust.Entry) {
	changed, added, removed, known := entry.Changes(hookcore.TrustFiles(set, ws))
	if !known {
		fmt.Fprintln(e.stdout, "  (granted by an older hookcore, which did not record the files: which one changed is not known)")
		return
	}
	for _, c := range []struct {
		what  string
		paths []string
	}{{"changed", changed}, {"added", added}, {"removed", removed}} {
		for _, p := range c.paths {
			fmt.Fprintf(e.stdout, "  %-8s %s\n", c.what, text.Printable(p))
		}
	}
	if n := removedHooks(entry, e.hookTrusts(set, ws, entry, true), set, ws); n > 0 && entry.Hooks != nil {
		fmt.Fprintf(e.stdout, "  removed  %d of the granted hooks (deleted, or changed: a changed one is listed below as new or changed)\n", n)
	}
}

func (e *env) writeTrustJSON(set *config.Set, ws string, entry trust.Entry, ok bool, digest string, envs []config.ProjectEnv) error {
	out := struct {
		Workspace string       `json:"workspace"`
		Trusted   bool         `json:"trusted"` // granted, with the current config files
		Since     *time.Time   `json:"since,omitempty"`
		Changes   *fileChanges `json:"changes,omitempty"` // granted, and its config files changed since (when the grant recorded them)
		Hooks     []hookTrust  `json:"hooks"`             // the agents' entries that run hookcore have state "agent"
		// SwitchesOff are the user's hooks that the project's Gemini CLI or Codex settings
		// turn off once the workspace is trusted.
		SwitchesOff []switchedOff `json:"switches_off,omitempty"`
		// Env are the project env files the workspace holds: the variables an agent gives
		// every hook from each, and whether the grant accepts those hookcore refuses.
		Env []envTrust `json:"env"`
	}{Workspace: ws, Trusted: ok && entry.Digest == digest, SwitchesOff: switchedOffByProject(set),
		Env: e.envTrusts(ws, envs, entry, ok, ok && entry.Digest == digest)}
	all := e.hookTrusts(set, ws, entry, ok)
	out.Hooks = all
	if ok {
		out.Since = &entry.Time
	}
	if ok && entry.Digest != digest {
		if changed, added, removed, known := entry.Changes(hookcore.TrustFiles(set, ws)); known {
			out.Changes = &fileChanges{Changed: nonNil(changed), Added: nonNil(added), Removed: nonNil(removed), RemovedHooks: removedHooks(entry, all, set, ws)}
		}
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// trustState is the workspace's trust in one phrase.
func trustState(entry trust.Entry, ok bool, digest string) string {
	switch {
	case !ok:
		return "not trusted"
	case entry.Digest == digest:
		return "trusted (since " + entry.Time.Format(time.RFC3339) + ")"
	}
	return "trusted on " + entry.Time.Format(time.RFC3339) + ", but its project config changed since"
}

// fullTarget is what an action runs, untruncated: the shell command (or the exec form's argv
// joined by spaces), the URL, the prompt, the message or the func name.
func fullTarget(a config.Action) string {
	switch a.Type {
	case config.TypeCommand:
		if a.Command != "" {
			return a.Command
		}
		// An argv (exec form), each word shell-quoted when it needs it, so that a word
		// with a blank reads as one: "'/opt/my tools/hookcore-hook' hook claude".
		words := make([]string, len(a.Args))
		for i, w := range a.Args {
			words[i] = install.ShellQuote(w)
		}
		return strings.Join(words, " ")
	case config.TypeHTTP:
		return a.URL
	case config.TypeInject:
		return a.Message
	case config.TypeFunc:
		return a.Name
	case config.TypeMCPTool:
		return a.Server + " " + a.Tool
	}
	return a.Prompt
}

// brokenEntries counts the broken hook entries of set's files (config.File.Broken).
func brokenEntries(set *config.Set) int {
	n := 0
	for _, f := range set.Files {
		n += len(f.Broken)
	}
	return n
}

// nonNil returns s, or an empty slice for nil (JSON [] rather than null).
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// selfEntries counts the hooks of f that run hookcore itself (callsHookcore): an agent's
// entries, such as those `hookcore install` writes, which the agent runs and hookcore does not
// (dropSelf); check counts them apart from the hooks.
func selfEntries(f *config.File) int {
	n := 0
	for i := range f.Hooks {
		if callsHookcore(f.Hooks[i].Action) {
			n++
		}
	}
	return n
}

// hookOptions says how h runs where it differs from the default, for trust show.
func hookOptions(h *config.Hook) []string {
	var out []string
	if h.Action.Timeout > 0 {
		out = append(out, "timeout "+h.Action.Timeout.String())
	}
	if h.Async {
		out = append(out, "async")
	}
	if h.Once {
		out = append(out, "once")
	}
	if sh := h.Action.Shell; sh != "" && !(sh == "bash" && h.Dialect == config.Copilot) {
		out = append(out, "shell "+sh)
	}
	if len(h.AgentOnly) > 0 {
		out = append(out, "also, read by the agent only: "+strings.Join(h.AgentOnly, ", "))
	}
	return out
}

// blankRun is a run of 8 or more blanks.
var blankRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[ \t]{8,}`) })

// reviewLine is what trust show prints of a command under review: on one line, printable,
// with each run of 8 or more blanks shown as its count (stop 25 red team: 300 blanks pushed a
// `; touch /tmp/pwn` past the truncation), and a long command cut with the count of what
// is left out.
func reviewLine(s string) string {
	s = blankRun().ReplaceAllStringFunc(s, func(b string) string { return fmt.Sprintf(" [%d blanks] ", len(b)) })
	s = text.Printable(strings.TrimSpace(s))
	const max = 400
	if n := utf8.RuneCountInString(s); n > max {
		return text.Truncate(s, max, "") + fmt.Sprintf("… (%d more characters)", n-max)
	}
	return s
}

//go:build !hookcore_lean

package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// failOpen warns, once per file and kind, about the agents' entries of f that run hookcore
// so that the agent lets a tool call through when hookcore has not decided it (red team
// round 59: a repository's own such entry survived install, credited to the user, and check
// said 0 warnings):
//
//   - --on-error allow (any spelling the hook command reads: --on-error=allow, quoted): the
//     hook command answers "allow" on the gate events it cannot decide, which a repository
//     can bring about (a config file that does not load, an input it cannot read);
//   - a timeout shorter than the agent's own default for its hook command on a gate event
//     (agentTimeout): the agent kills hookcore at that timeout and, as for any hook it times
//     out, lets the call through, before hookcore's budget (agentBudget, 10 s under that
//     default) answers a block for the guards that have not decided. The agent's default is
//     the threshold because hookcore's budget is reckoned from it: a longer timeout only
//     waits longer for an answer that comes at the budget.
//
// Each warning is placed at the first such entry, with their count.
func failOpen(f *config.File) config.ErrorList {
	agent := f.Dialect.String()
	var allow, short []*config.Hook
	for i := range f.Hooks {
		h := &f.Hooks[i]
		if !callsHookcore(h.Action) {
			continue
		}
		if onErrorAllow(h.Action) {
			allow = append(allow, h)
		}
		if d := agentTimeout(agent, h.Event); d > 0 && h.Event.Kind() == hook.Gate && h.Action.Timeout > 0 && h.Action.Timeout < d {
			short = append(short, h)
		}
	}
	var out config.ErrorList
	if len(allow) > 0 {
		out = append(out, &config.Problem{Pos: allow[0].Pos, Warning: true, Msg: fmt.Sprintf(
			"%s hookcore with --on-error allow: when hookcore cannot decide a gate event (a config file that does not load, an input it cannot read, a crash), %s runs the tool call instead of blocking it, and a repository can bring that about; take --on-error allow out (the default, block, fails closed)",
			entriesRun(len(allow)), f.Dialect.Agent())})
	}
	if len(short) > 0 {
		h := short[0]
		d := agentTimeout(agent, h.Event)
		out = append(out, &config.Problem{Pos: h.Pos, Warning: true, Msg: fmt.Sprintf(
			"%s hookcore with a timeout shorter than %s's own for its hook command (here %s on %s, where its default is %s): %s kills hookcore at that timeout and lets the tool call through, before hookcore's budget (%s) blocks what its guards have not decided; take the timeout out, or make it at least %s",
			entriesRun(len(short)), f.Dialect.Agent(), seconds(h.Action.Timeout), text.Printable(eventName(h)), seconds(d), f.Dialect.Agent(), seconds(d-budgetMargin), seconds(d))})
	}
	return out
}

// seconds is d as "600 s", "0.5 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// entriesRun is "1 entry runs" or "N entries run".
func entriesRun(n int) string {
	if n == 1 {
		return "1 entry runs"
	}
	return fmt.Sprintf("%d entries run", n)
}

// eventName is h's event as its file names it.
func eventName(h *config.Hook) string {
	if h.NativeEvent != "" {
		return h.NativeEvent
	}
	return string(h.Event)
}

// onErrorAllow reports whether a, a command that runs hookcore (hookcoreProgram), runs the
// hook command with --on-error allow: its words after "hook" read as the hook command reads
// them (parseHookArgs), or, where that parser would hand the line over to the full hookcore,
// any --on-error allow or --on-error=allow among them. `hookcore-hook AGENT` is `hookcore
// hook AGENT`. A command line's words are split at
// blanks with their quotes and backslashes taken out, as the shell would for these words.
func onErrorAllow(a config.Action) bool {
	var words []string
	if a.Command != "" {
		for _, w := range strings.Fields(a.Command) {
			words = append(words, strings.Map(func(r rune) rune {
				if r == '"' || r == '\'' || r == '\\' {
					return -1
				}
				return r
			}, w))
		}
	} else {
		words = a.Args
	}
	p := slices.IndexFunc(words, func(w string) bool {
		base := filepath.Base(w)
		return base == "hookcore" || base == "hookcore-hook"
	})
	if p < 0 {
		return false
	}
	args := words[p+1:]
	if i := slices.Index(args, "hook"); filepath.Base(words[p]) != "hookcore-hook" || len(args) > 0 && args[0] == "hook" {
		// hookcore's global flags may come before "hook"; `hookcore-hook claude` is
		// `hookcore hook claude` (cmd/hookcore-hook).
		if i < 0 {
			return false // not the hook command
		}
		args = args[i+1:]
	}
	var (
		e  env
		cf configFlags
		hf hookFlags
	)
	if _, ok := parseHookArgs(args, hookFlagSpecs(&e, &cf, &hf)); ok {
		return hf.onError == "allow"
	}
	for j, w := range args {
		if w == "--on-error=allow" || w == "--on-error" && j+1 < len(args) && args[j+1] == "allow" {
			return true
		}
	}
	return false
}

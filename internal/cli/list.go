//go:build !hookcore_lean

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/text"
)

// listedHook is one row of `hookcore list --json`.
type listedHook struct {
	ID       string `json:"id"`
	Source   string `json:"source"` // file:line
	Layer    string `json:"layer"`
	Dialect  string `json:"dialect"`
	Matcher  string `json:"matcher,omitempty"`
	If       string `json:"if,omitempty"`
	Type     string `json:"type"`
	Target   string `json:"target,omitempty"`
	Blocking bool   `json:"blocking"`
	Async    bool   `json:"async,omitempty"`
	Once     bool   `json:"once,omitempty"`
	Runs     bool   `json:"runs"` // false: its layer is not trusted
	Note     string `json:"note,omitempty"`
}

type listedEvent struct {
	Event hook.Event   `json:"event"`
	Kind  string       `json:"kind"`
	Hooks []listedHook `json:"hooks"`
}

func listCmd(e *env) *cobra.Command {
	var (
		cf     configFlags
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Show the effective hooks per event after layering",
		Long: `list shows the hooks that would run, per event in registry order and per event in config
order (user, project, local, managed and --settings layers appended), with their source
file:line, matcher, if and executor, and then every file discovery looked at and whether it
was found. --json prints the same for scripts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// A file that does not load is shown with its error, beside the hooks that do
			// load (new-user trial, stop 31: one broken file left list's stdout empty).
			kcf := cf
			kcf.keepFailed = true
			l, err := e.load(&kcf)
			if err != nil {
				return err
			}
			// Exit 1 once everything is printed when a file that runs does not load (fire
			// stops on it, and hook blocks gate events) or a named hookcore file has broken
			// entries (fire --config stops on it); as check, which exits 1 on both.
			status := func(err error) error {
				if err == nil && (l.failed != "" || l.strict != "") {
					return exitWith(ExitFailure)
				}
				return err
			}
			trusted, untrustedNote := true, "workspace not trusted"
			if l.store != nil {
				ok, err := hookcore.TrustedSet(l.store, l.projectDir, l.set)
				trusted = ok && err == nil
				if _, granted, err := l.store.Lookup(l.projectDir); !trusted && granted && err == nil {
					// Granted, then changed (new-user trial, stop 27: "not trusted" sent the
					// user looking for a grant they had made).
					untrustedNote = "the project config changed since the trust grant: see hookcore trust show"
				}
			}
			disabled := hookcore.DisablesAll(l.set, trusted)
			agents := config.AgentSwitch(l.set.Files, trusted)
			byEvent := map[hook.Event][]listedHook{}
			for _, f := range l.set.Files {
				off := hookcore.SwitchedOff(l.set, f, trusted)
				for _, h := range f.Hooks {
					if !h.Enabled || off {
						continue
					}
					lh := listedHook{
						ID: h.ID, Source: relativize(h.Source(), e.cwd), Layer: h.Layer.String(), Dialect: h.Dialect.String(),
						Matcher: h.Matcher, If: h.If, Type: h.Action.Type, Target: target(h.Action),
						Blocking: h.Blocking, Async: h.Async, Once: h.Once, Runs: true,
					}
					if !trusted && (h.Layer == config.Project || h.Layer == config.Local) {
						lh.Runs, lh.Note = false, untrustedNote
					} else if why := agents.Why(f, &h); why != "" {
						lh.Runs, lh.Note = false, "switched off by "+text.Printable(relativize(why, e.cwd))
					}
					byEvent[h.Event] = append(byEvent[h.Event], lh)
				}
			}
			var out []listedEvent
			for _, ev := range hook.Events() {
				if hs := byEvent[ev]; len(hs) > 0 {
					out = append(out, listedEvent{Event: ev, Kind: ev.Kind().String(), Hooks: hs})
				}
			}
			layers := e.listedLayers(l)
			if asJSON {
				if out == nil {
					out = []listedEvent{}
				}
				enc := json.NewEncoder(e.stdout)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				doc := map[string]any{"disabled": disabled, "events": out}
				if layers != nil {
					doc["layers"] = layers
				}
				return status(enc.Encode(doc))
			}
			heading := "layers looked at:"
			if l.looked == nil {
				heading = "files named:"
			}
			defer e.printLayers(heading, layers)
			if disabled && len(out) == 0 {
				fmt.Fprintln(e.stdout, "all hooks are disabled (disable_all_hooks: true)")
				return status(nil)
			}
			if disabled {
				// Only Claude Code's managed hooks are left: lower layers cannot disable them.
				fmt.Fprintln(e.stdout, "hooks are disabled (disable_all_hooks: true) except the managed ones:")
			}
			if len(out) == 0 {
				fmt.Fprintln(e.stdout, "no hooks")
				return status(nil)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			for _, ev := range out {
				fmt.Fprintf(tw, "%s (%s)\n", ev.Event, ev.Kind)
				for _, h := range ev.Hooks {
					note := ""
					if h.Note != "" {
						note = " [" + h.Note + "]"
					}
					// The repository's text (ids, file names, matchers, commands), made printable.
					p := text.Printable
					fmt.Fprintf(tw, "  %s\t%s\tmatcher=%s\tif=%s\t%s: %s%s\n", p(h.ID), p(h.Source), p(orDash(h.Matcher)), p(orDash(h.If)), p(h.Type), p(h.Target), note)
				}
			}
			return status(tw.Flush())
		},
	}
	cf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// listedLayer is one file discovery looked for, in `hookcore list`.
type listedLayer struct {
	Layer  string `json:"layer"`
	Path   string `json:"path"`
	Status string `json:"status"` // found, not found, same file as an earlier layer, not loaded (why), or the error
}

// listedLayers describes every file discovery looked for; with --config, the named files
// when one of them does not load (nil when all do). A file that does not load is marked
// with its first error.
func (e *env) listedLayers(l *loaded) []listedLayer {
	var out []listedLayer
	if l.looked == nil {
		if len(l.notLoaded) == 0 {
			return nil
		}
		for _, f := range l.set.Files {
			status := "found"
			if why := l.notLoaded[f.Path]; why != "" {
				status = "error: " + why
			}
			out = append(out, listedLayer{Layer: f.Layer.String(), Path: e.shortPath(f.Path), Status: status})
		}
		return out
	}
	for _, c := range l.looked {
		status := "not found"
		why := l.notLoaded[c.Path]
		switch {
		case c.Found && why != "" && !c.Dup && c.Loads():
			status = "error: " + why
			if f := l.fileOf(c.Path); f != nil && hookcore.BrokenExtension(f) {
				status += " (skipped, as Gemini CLI skips it)"
			}
		case c.Err != nil:
			status = "error: " + c.Err.Error()
		case c.Refused != "":
			status = "not loaded: " + c.Refused
		case c.Found && c.Off != "":
			status = "not loaded: " + c.Off
		case c.Dup:
			status = "same file as an earlier layer"
		case c.Found:
			status = "found"
		}
		out = append(out, listedLayer{Layer: c.Layer.String(), Path: e.shortPath(c.Path), Status: status})
	}
	return out
}

// printLayers prints the files discovery looked for (or the named ones), after the hooks,
// under heading.
func (e *env) printLayers(heading string, layers []listedLayer) {
	if layers == nil {
		return
	}
	fmt.Fprintln(e.stdout, heading)
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, l := range layers {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Layer, text.Printable(l.Path), text.Printable(l.Status))
	}
	tw.Flush()
}

// shortPath shows path relative to the working directory when under it, as ~/... when
// under the home directory, else as it is.
func (e *env) shortPath(path string) string {
	if rel := relativize(path, e.cwd); rel != path {
		return rel
	}
	if e.home != "" {
		if rel, ok := strings.CutPrefix(path, e.home+string(filepath.Separator)); ok {
			return "~/" + rel
		}
	}
	return path
}

func orDash(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

// target is what a hook runs, in one line: the command, URL, prompt or message.
func target(a config.Action) string {
	var s string
	switch a.Type {
	case "command":
		s = a.Command
		if s == "" {
			b, _ := json.Marshal(a.Args)
			s = string(b)
		}
	case "http":
		s = a.URL
	case "inject":
		s = a.Message
	case "func":
		s = a.Name
	case config.TypeMCPTool:
		s = a.Server + " " + a.Tool
	default:
		s = a.Prompt
	}
	return oneLine(s, 80)
}

// fileOf returns the file of l's set at path, nil when there is none.
func (l *loaded) fileOf(path string) *config.File {
	for _, f := range l.set.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

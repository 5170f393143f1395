package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

func trustCmd(e *env) *cobra.Command {
	var (
		workspace  string
		dir        string
		managedDir string
	)
	cmd := &cobra.Command{
		Use:   "trust [show|grant|revoke]",
		Short: "Show, grant or revoke trust of a workspace's project hooks",
		Long: `Project (.hookcore/hooks.yaml) and local (.hookcore/hooks.local.yaml) hooks of a workspace run
only after you trust the workspace. Trust is recorded in ~/.hookcore/trust.json against a
digest of those files, so after any change to them they must be trusted again.
  show    (default) whether the workspace is trusted with its current config, and what a
          grant covers: each project and local file (layer, content hash) and each of its
          hooks with what it runs
  grant   trust the workspace's current config; prints the state before and what the
          grant now covers
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
				ws = config.ProjectRoot(e.cwd)
			} else if !filepath.IsAbs(ws) {
				ws = filepath.Join(e.cwd, ws)
			}
			store := trust.DefaultStore(e.home)
			paths, err := config.Discovery{Cwd: ws, Home: e.home, Dir: dir, ProjectRoot: ws, ManagedDir: managedDir}.Paths()
			if err != nil {
				return err
			}
			set, problems := config.Load(paths)
			problems.Sort()
			for _, p := range problems {
				fmt.Fprintln(e.stderr, relativize(p.Error(), e.cwd))
			}
			scope := hookcore.TrustScopeOf(set)
			digest := scope.Digest()
			entry, had, err := store.Lookup(ws)
			if err != nil {
				return err
			}
			state := func() string {
				switch {
				case !had:
					return "not trusted"
				case entry.Digest == digest:
					return "trusted (since " + entry.Time.Format(time.RFC3339) + ")"
				}
				return "trusted on " + entry.Time.Format(time.RFC3339) + ", but its project config changed since: run `hookcore trust grant` again"
			}
			switch action {
			case "show":
				fmt.Fprintf(e.stdout, "%s: %s\n", ws, state())
				verb := "a grant would cover"
				if had && entry.Digest == digest {
					verb = "the grant covers"
				}
				e.printScope(scope, verb)
			case "grant":
				if err := problems.Err(); err != nil {
					return &exitError{code: ExitFailure, msg: "the project config has errors; fix them before trusting it"}
				}
				fmt.Fprintf(e.stdout, "%s: before: %s\n", ws, state())
				if err := store.Grant(ws, digest, time.Now()); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "%s: trusted\n", ws)
				e.printScope(scope, "the grant covers")
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
	cmd.Flags().StringVarP(&workspace, "workspace", "w", "", "the workspace (default: the project root of the working directory)")
	cmd.Flags().StringVar(&dir, "config-dir", ".hookcore", "name of the per-user and per-project config directory")
	managedDirFlag(cmd, &managedDir)
	return cmd
}

// printScope prints what a trust grant covers: each project and local file with its layer
// and content hash, then its hooks with their event, type and what they run (made
// printable: the text comes from the repository). The data is hookcore.TrustScopeOf's.
func (e *env) printScope(s hookcore.TrustScope, verb string) {
	if len(s.Files) == 0 {
		fmt.Fprintf(e.stdout, "%s no project config files (nothing would run)\n", verb)
		return
	}
	fmt.Fprintf(e.stdout, "%s %d %s, %d %s:\n", verb, len(s.Files), plural(len(s.Files), "file"), s.Hooks(), plural(s.Hooks(), "hook"))
	for _, f := range s.Files {
		hash := f.Hash
		if len(hash) > 12 {
			hash = hash[:12]
		}
		note := ""
		if f.Failed {
			note = " (cannot be loaded: no hooks)"
		}
		fmt.Fprintf(e.stdout, "  %s (%s layer, sha256 %s)%s\n", printable(relativize(f.Path, e.cwd)), f.Layer, hash, note)
		for _, h := range f.Hooks {
			event := h.Event
			if event == "" {
				event = "?"
			}
			note := ""
			switch {
			case h.Broken:
				note = " [has errors: does not run]"
			case !h.Enabled:
				note = " [enabled: false]"
			}
			fmt.Fprintf(e.stdout, "    %s %s %s: %s%s\n", printable(h.ID), event, orDash(h.Type), oneLine(h.Target, 200), note)
		}
	}
}

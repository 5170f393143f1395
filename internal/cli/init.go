//go:build !hookcore_lean

package cli

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore/internal/install"
)

//go:embed starter
var starter embed.FS

// initCmd is `hookcore init`: a commented starter config that passes check, written without
// overwriting anything (issue 11.6).
func initCmd(e *env) *cobra.Command {
	var dialect, dir string
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented starter config (and its policy tests) into this project",
		Long: `init writes a starter config into the project root of the working directory:
  --dialect yaml    .hookcore/hooks.yaml and .hookcore/hooks.test.yaml (hookcore's own dialect)
  --dialect claude  .claude/settings.json (Claude Code's; JSON has no comments) and
                    .claude/settings.test.yaml (its policy tests, which Claude Code ignores)
It never overwrites a file: if one exists, init stops and writes nothing. To add hookcore to
an existing .claude/settings.json, use 'hookcore install claude'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			root := dir
			if root == "" {
				root = e.cwd
			} else if !filepath.IsAbs(root) {
				root = filepath.Join(e.cwd, root)
			}
			if dir != "" {
				// New-user trial, stop 30: --dir /nonexistent created /nonexistent/.hookcore/.
				st, err := os.Stat(root)
				switch {
				case errors.Is(err, fs.ErrNotExist):
					return &exitError{code: ExitFailure, msg: fmt.Sprintf("--dir %s does not exist: init writes into an existing project directory (create it first, or check the path)", dir)}
				case err != nil:
					return err
				case !st.IsDir():
					return &exitError{code: ExitFailure, msg: fmt.Sprintf("--dir %s is not a directory", dir)}
				}
			}
			// shown names a file init writes as the user can use it from here: under --dir as
			// given, else relative to the working directory (new-user trial, stop 30: the
			// next-step hints named .hookcore/hooks.yaml of the working directory).
			shown := func(target string) string {
				if dir == "" {
					return filepath.FromSlash(target)
				}
				return filepath.Join(dir, filepath.FromSlash(target))
			}
			var files map[string]string // target → starter file
			switch dialect {
			case "yaml", "minicode", "hookcore":
				files = map[string]string{".hookcore/hooks.yaml": "starter/hooks.yaml", ".hookcore/hooks.test.yaml": "starter/hooks.test.yaml"}
			case "claude":
				files = map[string]string{".claude/settings.json": "starter/settings.json", ".claude/settings.test.yaml": "starter/settings.test.yaml"}
			default:
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("unknown dialect %q (want yaml or claude)", dialect)}
			}
			for target := range files {
				if _, err := os.Lstat(filepath.Join(root, target)); err == nil {
					return &exitError{code: ExitFailure, msg: fmt.Sprintf("%s already exists: init writes nothing over it (edit it, or use 'hookcore install claude' to add hooks to a settings file)", target)}
				} else if !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			for _, target := range slices.Sorted(maps.Keys(files)) {
				data, err := starter.ReadFile(files[target])
				if err != nil {
					return err
				}
				p := filepath.Join(root, target)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return err
				}
				f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
				if err != nil {
					return err
				}
				if _, err := f.Write(data); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "wrote %s\n", shown(target))
			}
			q := func(target string) string { return install.ShellQuote(shown(target)) }
			switch {
			case dialect == "claude":
				fmt.Fprintf(e.stdout, "next: hookcore check %s; hookcore test %s; Claude Code reads settings.json as it is\n", q(".claude/settings.json"), q(".claude/settings.test.yaml"))
			case dir == "":
				fmt.Fprintln(e.stdout, "next: hookcore check; hookcore test .hookcore/hooks.test.yaml; hookcore trust grant (project hooks run only in a trusted workspace)")
			default:
				fmt.Fprintf(e.stdout, "next: hookcore check %s; hookcore test %s; hookcore trust grant -w %s (project hooks run only in a trusted workspace)\n", q(".hookcore/hooks.yaml"), q(".hookcore/hooks.test.yaml"), install.ShellQuote(dir))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dialect, "dialect", "yaml", "yaml (hookcore's own) or claude (.claude/settings.json)")
	cmd.Flags().StringVar(&dir, "dir", "", "the project directory, which must exist (default: the working directory)")
	return cmd
}

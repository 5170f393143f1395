//go:build !hookcore_lean

package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/convert"
	"github.com/hookcore/hookcore/internal/install"
	"github.com/hookcore/hookcore/internal/text"
)

// convertCmd is `hookcore convert FILE --to TARGET [-o OUT [--force]]` (issue 9 item 6): the
// file, in any dialect config reads, written as TARGET's hook file on stdout or to OUT. Each
// thing that could not be carried over is one "hookcore: convert: LOSS" line on stderr; the
// exit status is 0 when the file was written, losses or not, and 1 for an error (the input
// does not load, an unknown target, OUT exists without --force). Gate hooks that decide
// otherwise in the output (convert.Loss.Warning) are counted in a last WARNING line. The
// directory variables are rewritten for the project of the working directory (its git
// top-level: config.ProjectRoot). With --force an existing
// OUT is kept as OUT.hookcore-TIMESTAMP.bak and the new file is written atomically. With
// --strict any loss is an error: the losses are printed, nothing is written, and the exit is 1
// (new-user trial: a dropped if: exited 0, and the converted guard blocked every Bash call).
func convertCmd(e *env) *cobra.Command {
	var to, out string
	var force, strict bool
	cmd := &cobra.Command{
		Use:   "convert FILE --to " + strings.Join(convert.Targets, "|"),
		Short: "Write one agent's hook file as another's, saying what could not be carried over",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if to == "" {
				return &exitError{code: ExitFailure, msg: "convert: --to is required (" + strings.Join(convert.Targets, ", ") + ")"}
			}
			path := args[0]
			if !filepath.IsAbs(path) {
				path = filepath.Join(e.cwd, path)
			}
			f, errs := config.ParseFile(path, config.Explicit)
			if f == nil || f.Failed {
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("convert: %s does not load: %v", args[0], errs)}
			}
			data, lost, err := convert.Options{ProjectDir: rootOf(e.cwd)}.To(f, to)
			if err != nil {
				return &exitError{code: ExitFailure, msg: err.Error()}
			}
			if n := droppedHooks(lost); f.Entries > 0 && n >= f.Entries {
				// Every hook dropped: the output would be an empty file, and one redirected
				// over the original loses the whole policy (new-user trial, stop 32).
				for _, l := range lost {
					l.Source = relativize(l.Source, e.cwd)
					fmt.Fprintln(e.stderr, "hookcore: convert:", l)
				}
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("convert: none of the %d %s of %s could be carried over to %s (above); nothing written", f.Entries, plural(f.Entries, "hook"), args[0], to)}
			}
			if strict && len(lost) > 0 {
				for _, l := range lost {
					l.Source = relativize(l.Source, e.cwd)
					fmt.Fprintln(e.stderr, "hookcore: convert:", l)
				}
				return &exitError{code: ExitFailure, msg: fmt.Sprintf("convert: --strict: %d %s could not be carried over to %s (above); nothing written", len(lost), plural(len(lost), "thing"), to)}
			}
			if out == "" {
				if _, err := e.stdout.Write(data); err != nil {
					return err
				}
			} else if err := e.writeConverted(out, data, force); err != nil {
				return &exitError{code: ExitFailure, msg: "convert: " + err.Error()}
			}
			warnings := 0
			for _, l := range lost {
				l.Source = relativize(l.Source, e.cwd)
				fmt.Fprintln(e.stderr, "hookcore: convert:", l)
				if l.Warning {
					warnings++
				}
			}
			if warnings > 0 {
				fmt.Fprintf(e.stderr, "hookcore: convert: WARNING: the converted file decides otherwise than the original (%d warning lines above: gate hooks that run on calls they skipped, or no longer block); check them before you use it\n", warnings)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "the target dialect: "+strings.Join(convert.Targets, ", "))
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file instead of stdout (never over an existing file without --force)")
	cmd.Flags().BoolVar(&force, "force", false, "with -o: replace an existing file, keeping a backup of it")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 and write nothing when anything could not be carried over")
	return cmd
}

// writeConverted writes data to out atomically. An existing file is refused unless force,
// and then kept as a backup first (install.Plan.Apply): nothing the user wrote is lost.
func (e *env) writeConverted(out string, data []byte, force bool) error {
	if !filepath.IsAbs(out) {
		out = filepath.Join(e.cwd, out)
	}
	if st, err := os.Lstat(out); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		// Red team round 42: a repository's link by the output's name had --force replace
		// the file it points to (~/.bashrc), not the name given.
		target, _ := os.Readlink(out)
		return fmt.Errorf("%s is a symbolic link (to %s): convert writes only a file of that name; name the file itself", relativize(out, e.cwd), text.Printable(target))
	}
	old, err := os.ReadFile(out)
	switch {
	case err == nil && !force:
		return fmt.Errorf("%s exists (use --force to replace it; the old file is kept as a backup)", relativize(out, e.cwd))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	case err != nil:
		old = nil
	}
	p := &install.Plan{Path: out, Old: old, New: data, Changed: true}
	backup, err := p.Apply(time.Now())
	if err != nil {
		return err
	}
	if backup != "" {
		fmt.Fprintf(e.stderr, "hookcore: convert: the old %s is kept as %s\n", relativize(out, e.cwd), relativize(backup, e.cwd))
	}
	return nil
}

// droppedHooks returns how many hooks the losses say were dropped whole (each hook once).
func droppedHooks(lost []convert.Loss) int {
	seen := map[string]bool{}
	for _, l := range lost {
		if l.Dropped {
			seen[l.Source+"\x00"+l.Hook] = true
		}
	}
	return len(seen)
}

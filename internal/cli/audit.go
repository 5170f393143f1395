//go:build !hookcore_lean

package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore/audit"
)

// auditCmd is `hookcore audit verify|head FILE`: the checks of the tamper-evident decision
// log written by --audit (issue 11.2).
func auditCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Verify the tamper-evident decision log written by --audit",
		Long: `Every command that runs hooks (fire, replay, run) appends each decision to the file named by
--audit (or $HOOKCORE_AUDIT): one JSON line per event result, each carrying the SHA-256 of
the line before it, or its HMAC-SHA256 under $HOOKCORE_AUDIT_KEY when that is set (then every
line also carries its own mac). 'audit verify' names the first line that was changed,
removed, inserted or reordered; given a head saved earlier with 'audit head', also a cut tail.`,
		// An unknown subcommand is an error, not the help and exit 0 (new-user trial, stop 27).
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	var head string
	var asJSON bool
	verify := &cobra.Command{
		Use:   "verify FILE",
		Short: "Check the chain; exit 1 and name the first broken line if it does not hold",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := audit.VerifyFile(args[0], audit.KeyFromEnv(), head)
			if err != nil {
				return err
			}
			if asJSON {
				out := map[string]any{"ok": rep.OK(), "lines": rep.Lines, "head": rep.Head, "keyed": rep.Keyed}
				if b := rep.Break; b != nil {
					out["break"] = map[string]any{"line": b.Line, "seq": b.Seq, "kind": b.Kind, "detail": b.Detail}
				}
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(out); err != nil {
					return err
				}
			} else if rep.OK() {
				fmt.Fprintf(e.stdout, "%s: ok, %d lines, head %s\n", args[0], rep.Lines, rep.Head)
				if rep.Keyed && len(audit.KeyFromEnv()) == 0 {
					fmt.Fprintf(e.stderr, "hookcore: the log is keyed but %s is not set: its macs were not checked\n", audit.KeyEnv)
				}
			} else {
				fmt.Fprintln(e.stdout, rep.Break.Error()) // FILE:LINE: kind: detail
			}
			if !rep.OK() {
				return exitWith(ExitFailure)
			}
			return nil
		},
	}
	verify.Flags().StringVar(&head, "head", "", "a head saved earlier with 'hookcore audit head' (SEQ:HASH): also finds a cut tail or a rewritten log")
	verify.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	headCmd := &cobra.Command{
		Use:   "head FILE",
		Short: "Verify the log and print its head (SEQ:HASH), to be kept where the log's writer cannot reach",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			h, err := audit.Head(args[0], audit.KeyFromEnv())
			if err != nil {
				return err
			}
			fmt.Fprintln(e.stdout, h)
			return nil
		},
	}
	cmd.AddCommand(verify, headCmd)
	return cmd
}

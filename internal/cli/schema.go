//go:build !hookcore_lean

package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hookcore/hookcore/internal/schema"
)

// schemaCmd is `hookcore schema config|result` (issue 11.6).
func schemaCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:       "schema config|result",
		Short:     "Print the JSON Schema of the native config or of hookcore's result",
		Long:      "schema prints a JSON Schema (draft 2020-12). The repository keeps the same files in schema/;\na config may name its schema with a top-level $schema key, which the loader ignores.",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"config", "result"},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch args[0] {
			case "config":
				_, err := e.stdout.Write(schema.Marshal(schema.Config()))
				return err
			case "result":
				_, err := e.stdout.Write(schema.Marshal(schema.Result()))
				return err
			}
			return &exitError{code: ExitFailure, msg: fmt.Sprintf("unknown schema %q (want config or result)", args[0])}
		},
	}
}

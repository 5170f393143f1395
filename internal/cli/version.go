//go:build !hookcore_lean

package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionString is the module version and the VCS revision the binary was built from, as
// debug.ReadBuildInfo gives them: "v1.2.3", or "(devel)" for a build inside the checkout,
// followed by the revision (12 hex digits, "+dirty" for uncommitted changes) and the Go
// version.
func versionString() string {
	v, rev, dirty := "(unknown)", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	out := "hookcore " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "+dirty"
		}
		out += " " + rev
	}
	return out + " " + runtime.Version()
}

func versionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print hookcore's version, VCS revision and Go version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintln(e.stdout, versionString())
		},
	}
}

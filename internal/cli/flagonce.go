//go:build !hookcore_lean

package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// onceValue is a single-valued flag's pflag.Value that refuses a second, different value:
// pflag keeps the last of `--scope user --scope project`, and the command ran with one of two
// conflicting choices and no word (new-user trial). The same value again is harmless.
type onceValue struct {
	pflag.Value
	first *string // the first value given; nil until then
}

// IsBoolFlag is the wrapped Value's: pflag reads it for a flag that takes no value word.
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (v *onceValue) Set(s string) error {
	if v.first != nil && *v.first != s {
		return fmt.Errorf("given twice with different values, %q and %q: give it once", *v.first, s)
	}
	if err := v.Value.Set(s); err != nil {
		return err
	}
	v.first = &s
	return nil
}

// singleValued makes every single-valued flag of cmd's subcommands an onceValue: all but
// the lists (StringArray, StringSlice: repeating them adds), counts, the root's own flags
// (-v, which the hook command shares), and the flags of skip's subtrees (the hook command,
// whose command line an agent runs and whose flags are read before cobra's, hookflags.go).
// Called once the tree is built, before it parses.
func singleValued(cmd *cobra.Command, skip ...*cobra.Command) {
	for _, s := range skip {
		if s == cmd {
			return
		}
	}
	wrap := func(f *pflag.Flag) {
		if _, ok := f.Value.(*onceValue); ok {
			return
		}
		t := f.Value.Type()
		if strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") || t == "count" {
			return
		}
		f.Value = &onceValue{Value: f.Value}
	}
	if cmd.HasParent() {
		cmd.LocalNonPersistentFlags().VisitAll(wrap)
	}
	for _, c := range cmd.Commands() {
		singleValued(c, skip...)
	}
}

//go:build !rego || hookcore_lean

package cli

import "github.com/hookcore/hookcore"

// regoLinked says whether this binary evaluates `type: rego` hooks. The default build does
// not link OPA: its package initialisation and size add about 3 ms to every hook process
// start (docs/decisions.md, "OPA is opt-in in the binary"); build with -tags rego for it.
//
//lint:ignore U1000 read by the full build (the lean hook binary has no version command)
const regoLinked = false

// executors are the executors the CLI registers beyond the root's own: none here.
func executors(string) map[string]hookcore.ExecutorFactory {
	return map[string]hookcore.ExecutorFactory{}
}

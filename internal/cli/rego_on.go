//go:build rego && !hookcore_lean

package cli

import (
	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/rego"
)

// regoLinked says whether this binary evaluates `type: rego` hooks (built with -tags rego).
const regoLinked = true

// executors are the executors the CLI registers beyond the root's own: OPA's rego, its
// bundle_url bundles cached in bundleCache ("" none).
func executors(bundleCache string) map[string]hookcore.ExecutorFactory {
	return map[string]hookcore.ExecutorFactory{config.TypeRego: rego.CachedFactory(bundleCache)}
}

package hookcore

import (
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// UntrustedErrorsOnly reports whether every error in problems (warnings aside) lies in a
// project or local layer file of set, and store does not trust workspace with set's
// digest. Such errors may be ignored: those layers would not run anyway, and otherwise a
// repository could switch off the user's own hooks by shipping a broken config. Load
// applies this rule; `hookcore fire` and `replay` do too (but not with --trust: nothing
// broken is trusted). A nil store, or no error, reports false.
func UntrustedErrorsOnly(set *config.Set, problems config.ErrorList, store *trust.Store, workspace string) bool {
	if store == nil || set == nil || problems.Err() == nil {
		return false
	}
	layer := map[string]config.Layer{}
	for _, f := range set.Files {
		layer[f.Path] = f.Layer
	}
	for _, p := range problems {
		if p.Warning {
			continue
		}
		if l, ok := layer[p.Pos.File]; !ok || (l != config.Project && l != config.Local) {
			return false
		}
	}
	trusted, _ := store.Trusted(workspace, TrustDigest(set))
	return !trusted
}

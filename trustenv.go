package hookcore

import (
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/trust"
)

// GrantTrustEnv is GrantTrust that also accepts the project env files envs, those the
// workspace root holds (config.ProjectEnvPaths) as the user reviewed them (`hookcore trust
// show` lists them): their digests replace the ones an earlier grant recorded
// (trust.Entry.Env). A file that gives no variable is not recorded.
func GrantTrustEnv(store *trust.Store, set *config.Set, root string, envs []config.ProjectEnv, now time.Time) error {
	env := map[string]string{}
	for _, pe := range envs {
		if pe.Digest != "" {
			env[config.EnvKey(pe.Path)] = pe.Digest
		}
	}
	return grantTrust(store, set, root, env, now)
}

// EnvAccepted reports whether entry, the trust grant of the directory that holds pe
// (config.EnvHolder), accepts pe as it is now: the grant recorded pe's digest. Whether the
// grant itself holds (its project config unchanged) is the caller's to check.
func EnvAccepted(entry trust.Entry, pe config.ProjectEnv) bool {
	return pe.Digest != "" && entry.Env[config.EnvKey(pe.Path)] == pe.Digest
}

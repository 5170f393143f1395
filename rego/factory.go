package rego

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// Factory builds the executor of a `type: rego` hook; register it as
// hookcore.Options.Executors["rego"] (the hookcore CLI does). A relative policy or
// verification_key path is taken from the config file's directory; ${CLAUDE_PROJECT_DIR}
// and ${HOOKCORE_PROJECT_DIR} in it are the project root.
func Factory(ctx context.Context, h *config.Hook, env hookcore.ExecutorEnv) (hook.Executor, error) {
	return factory(ctx, h, env, "")
}

// CachedFactory is Factory with the bundles of bundle_url hooks kept in cacheDir (Options.
// CacheDir): the hookcore CLI passes its state directory, so that the hook command, one
// process per event, does not download the bundle at every event.
func CachedFactory(cacheDir string) hookcore.ExecutorFactory {
	return func(ctx context.Context, h *config.Hook, env hookcore.ExecutorEnv) (hook.Executor, error) {
		return factory(ctx, h, env, cacheDir)
	}
}

func factory(ctx context.Context, h *config.Hook, env hookcore.ExecutorEnv, cacheDir string) (hook.Executor, error) {
	a := &h.Action
	o := Options{
		HookID:         h.ID,
		Policy:         resolve(a.Policy, env),
		BundleURL:      a.BundleURL,
		Poll:           a.BundlePoll,
		Query:          a.Query,
		DecisionLogURL: a.DecisionLogURL,
		HTTPClient:     env.HTTPClient,
		Logger:         env.Logger,
		CacheDir:       cacheDir,
	}
	if a.VerificationKey != "" {
		key, err := os.ReadFile(resolve(a.VerificationKey, env))
		if err != nil {
			return nil, err
		}
		o.VerificationKey = string(key)
	}
	return New(ctx, o)
}

func resolve(p string, env hookcore.ExecutorEnv) string {
	if p == "" {
		return ""
	}
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "HOOKCORE_PROJECT_DIR"} {
		p = strings.ReplaceAll(p, "${"+v+"}", env.ProjectDir)
		p = strings.ReplaceAll(p, "$"+v, env.ProjectDir)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(env.ConfigDir, p)
	}
	return p
}

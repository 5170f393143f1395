//go:build !hookcore_lean

package hookcore

import (
	"net/http"
	"slices"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/executor"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/netguard"
)

// netClient is the type of Options.HTTPClient and ExecutorEnv.HTTPClient: net/http's
// client. Built with -tags hookcore_lean it is an empty struct (external_lean.go).
type netClient = http.Client

// guardedClient is Options.HTTPClient, else a new SSRF-guarded client that lets allow
// through (package netguard). Its error is an allowlist entry that is not a host, address
// or prefix.
func (r *Runner) guardedClient(allow []string) (*http.Client, error) {
	if r.opts.HTTPClient != nil {
		return r.opts.HTTPClient, nil
	}
	g, err := netguard.New(netguard.Options{Allow: allow})
	if err != nil {
		return nil, err
	}
	return g.Client(), nil
}

// httpExecutor builds the executor of an http hook (DESIGN.md section 6): its requests go
// through guardedClient with Options.AllowedHosts and the hook's allowed_hosts.
func (r *Runner) httpExecutor(h *config.Hook, timeout time.Duration) (hook.Executor, string, error) {
	a := &h.Action
	client, err := r.guardedClient(append(slices.Clone(r.opts.AllowedHosts), a.AllowedHosts...))
	if err != nil {
		return nil, "", err
	}
	return &executor.HTTP{
		HookID:         h.ID,
		URL:            a.URL,
		Method:         a.Method,
		Headers:        a.Headers,
		AllowedEnvVars: a.AllowedEnvVars,
		Body:           a.Body,
		Codebot:        h.Dialect == config.Flat,
		Timeout:        timeout,
		Client:         client,
		Env:            r.opts.Env,
	}, a.URL, nil
}

//go:build !hookcore_lean

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/bridge"
	"github.com/hookcore/hookcore/hook"
)

// forward sends one event to a `hookcore serve` (POST URL/v1/answer/AGENT) and returns the
// answer it decided. A server that cannot be reached, or answers anything but an answer, is
// a failure to decide: closed on gate events unless --on-error allow (unlike Claude Code's
// own http hooks, which let the action through when the server is down).
func (e *env) forward(ctx context.Context, p bridge.Protocol, override string, data []byte, hf *hookFlags, block bool, event hook.Event) bridge.Answer {
	q := url.Values{}
	if override != "" {
		q.Set("event", override)
	}
	if !block {
		q.Set("on_error", "allow")
	}
	u := strings.TrimRight(hf.server, "/") + "/v1/answer/" + p.Name()
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(data))
	if err != nil {
		return p.Fail(event, "--server: "+err.Error(), block)
	}
	req.Header.Set("Content-Type", "application/json")
	if tok := e.serveToken(hf); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return p.Fail(event, "hookcore serve unreachable: "+err.Error(), block)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxInput))
	if err != nil {
		return p.Fail(event, "hookcore serve: "+err.Error(), block)
	}
	if resp.StatusCode != http.StatusOK {
		return p.Fail(event, fmt.Sprintf("hookcore serve answered %s: %s", resp.Status, strings.TrimSpace(string(body))), block)
	}
	var w wireAnswer
	if err := json.Unmarshal(body, &w); err != nil {
		return p.Fail(event, "hookcore serve: bad answer: "+err.Error(), block)
	}
	a := bridge.Answer{Stderr: w.Stderr, Code: w.Code}
	if w.Stdout != "" {
		a.Stdout = []byte(w.Stdout)
	}
	return a
}

// serveToken is --token, else the token a local `hookcore serve` wrote.
func (e *env) serveToken(hf *hookFlags) string {
	if hf.token != "" {
		return hf.token
	}
	dir, err := e.stateDirPath(hf.stateDir)
	if err != nil {
		return ""
	}
	b, _ := os.ReadFile(filepath.Join(dir, "serve.token"))
	return strings.TrimSpace(string(b))
}

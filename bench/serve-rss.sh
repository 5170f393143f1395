#!/usr/bin/env bash
# serve-rss.sh sends N PreToolUse decisions (default 1 000 000) to one `hookcore serve` over
# loopback HTTP (keep-alive, one client, one session id, one in-process rule: a condition and
# injected context, no child process) and samples the server's resident set size (VmRSS of
# /proc/PID/status, in KiB) before the first request, after every tenth of the run and at the
# end: issue 9's "flat memory over 1 000 000 requests". It also prints the p50/p99 latency of
# a request as the client sees it (microseconds). Linux only (/proc).
#
# Usage: bench/serve-rss.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

CGO_ENABLED=0 go build -o "$tmp/hookcore" ./cmd/hookcore
mkdir -p "$tmp/client"
cat >"$tmp/client/main.go" <<'GO'
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

func rss(pid string) string {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(l, "VmRSS:"), "kB"))
		}
	}
	return "?"
}

func main() {
	url, token, pid := os.Args[1], os.Args[2], os.Args[3]
	n, _ := strconv.Atoi(os.Args[4])
	body := []byte(`{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	lat := make([]int32, 0, n)
	fmt.Printf("request %9d  server VmRSS %s KiB\n", 0, rss(pid))
	for i := 1; i <= n; i++ {
		t0 := time.Now()
		req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			fmt.Fprintln(os.Stderr, resp.Status)
			os.Exit(1)
		}
		lat = append(lat, int32(time.Since(t0).Microseconds()))
		if i%(n/10) == 0 || i == n {
			fmt.Printf("request %9d  server VmRSS %s KiB\n", i, rss(pid))
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	fmt.Printf("latency p50 %d µs, p99 %d µs, max %d µs (client side, %d requests)\n", lat[n/2], lat[n*99/100], lat[n-1], n)
}
GO
(cd "$tmp/client" && echo 'module client' >go.mod && CGO_ENABLED=0 go build -o "$tmp/client-bin" .)
cat >"$tmp/hooks.yaml" <<'YAML'
hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: prompt, message: "rm -rf / is never what you want"}
YAML
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export HOME="$tmp" HOOKCORE_STATE_DIR="$tmp/state"
(cd "$tmp" && exec ./hookcore serve --config hooks.yaml --listen "127.0.0.1:$port") >"$tmp/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/state/serve.token" ] && curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
echo "$N requests ($(go version | cut -d' ' -f3), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$tmp/client-bin" "http://127.0.0.1:$port/hook/claude" "$(tr -d '\n' <"$tmp/state/serve.token")" "$pid" "$N"

#!/usr/bin/env bash
# serve-burst.sh sends C concurrent PreToolUse inputs of S MB each (default 12 of 60 MB: red
# team round 59) to one `hookcore serve` over loopback HTTP (POST /hook/claude, a Write whose
# content is S MB; one in-process rule and one command hook on Write), R rounds of them, and
# prints the server's resident set: VmRSS before the first burst, its peak (VmHWM), VmRSS
# right after the last answer and 2 s later, and how many answers allowed the call and how
# many were serve's fail-closed deny. Linux only (/proc).
#
# Usage: bench/serve-burst.sh [C] [S] [R] [HOOKCORE_BINARY]
# With no binary, the tree's ./cmd/hookcore is built. To measure an older version, build it
# from `git archive COMMIT` and pass its path.
set -euo pipefail
cd "$(dirname "$0")/.."
C=${1:-12}
S=${2:-60}
R=${3:-1}
BIN=${4:-}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

if [ -z "$BIN" ]; then
	CGO_ENABLED=0 go build -o "$tmp/hookcore" ./cmd/hookcore
	BIN=$tmp/hookcore
fi
mkdir -p "$tmp/client"
cat >"$tmp/client/main.go" <<'GO'
package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

func status(pid, key string) string {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))
		}
	}
	return "?"
}

func main() {
	url, token, pid := os.Args[1], os.Args[2], os.Args[3]
	c, _ := strconv.Atoi(os.Args[4])
	size, _ := strconv.Atoi(os.Args[5])
	rounds, _ := strconv.Atoi(os.Args[6])
	body := []byte(`{"session_id":"burst","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/x","content":"` + strings.Repeat("a", size<<20) + `"}}`)
	fmt.Printf("before: VmRSS %s KiB\n", status(pid, "VmRSS"))
	allowed, denied, failed := 0, 0, 0
	var mu sync.Mutex
	for r := 0; r < rounds; r++ {
		var wg sync.WaitGroup
		for i := 0; i < c; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := http.DefaultClient.Do(req)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					failed++
					fmt.Fprintln(os.Stderr, err)
					return
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode == 200 && bytes.Contains(out, []byte(`"deny"`)):
					denied++
				case resp.StatusCode == 200:
					allowed++
				default:
					failed++
				}
			}()
		}
		wg.Wait()
	}
	fmt.Printf("answers: %d allowed, %d denied (fail closed), %d failed\n", allowed, denied, failed)
	fmt.Printf("peak:   VmHWM %s KiB\n", status(pid, "VmHWM"))
	fmt.Printf("after:  VmRSS %s KiB\n", status(pid, "VmRSS"))
	time.Sleep(2 * time.Second)
	fmt.Printf("+2 s:   VmRSS %s KiB\n", status(pid, "VmRSS"))
}
GO
(cd "$tmp/client" && echo 'module client' >go.mod && CGO_ENABLED=0 go build -o "$tmp/client-bin" .)
cat >"$tmp/hooks.yaml" <<'YAML'
hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: prompt, message: "rm -rf / is never what you want"}
  - id: read-writes
    event: pre_tool_use
    matcher: Write
    action: {type: command, command: "cat >/dev/null"}
YAML
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export HOME="$tmp" HOOKCORE_STATE_DIR="$tmp/state"
(cd "$tmp" && exec "$BIN" serve --config hooks.yaml --listen "127.0.0.1:$port") >"$tmp/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/state/serve.token" ] && curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
echo "$C x $S MB, $R round(s) ($("$BIN" version 2>/dev/null | head -1), $(go version | cut -d' ' -f3), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg))"
"$tmp/client-bin" "http://127.0.0.1:$port/hook/claude" "$(tr -d '\n' <"$tmp/state/serve.token")" "$pid" "$C" "$S" "$R"

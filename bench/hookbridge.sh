#!/usr/bin/env bash
# hookbridge.sh measures `hookcore hook claude` as a whole process, cold, the way Claude Code
# runs it for every tool call (issue 9 acceptance): one PreToolUse input on stdin, one rule,
# the answer on stdout/stderr and the exit status. For "allow" (ls -la) the rule's condition
# is decided in-process and no hook runs; for "block" (rm -rf /) the rule's action, an echo
# command hook, is one child process on top. Beside it, through the same timing loop:
#   true    /bin/true: the loop's own fork/exec/wait cost
#   gomin   a minimal standard-library Go program doing the same check (decode the input,
#           match the command, exit 2 with the reason): the floor for a Go binary
#   python  a minimal Python dispatcher doing the same (json + re)
# for a call the rule blocks (rm -rf /) and one it lets through (ls -la).
#
# Both Go binaries are built with CGO_ENABLED=0 (static, no libc to load: see docs/decisions.md,
# "Cold start of the hook path").
# Usage: bench/hookbridge.sh [N]   (default 200 runs per case after 5 warm-up runs)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CGO_ENABLED=0 go build -o "$tmp/hookcore" ./cmd/hookcore
mkdir -p "$tmp/gomin"
cat >"$tmp/gomin/main.go" <<'GO'
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

func main() {
	var in struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if in.ToolName == "Bash" && regexp.MustCompile(`rm\s+-rf\s+/`).MatchString(in.ToolInput.Command) {
		fmt.Fprintln(os.Stderr, "dangerous delete blocked")
		os.Exit(2)
	}
}
GO
(cd "$tmp/gomin" && cat >go.mod <<<'module gomin' && CGO_ENABLED=0 go build -o "$tmp/gomin-bin" .)
cat >"$tmp/dispatch.py" <<'PY'
import json, re, sys
d = json.load(sys.stdin)
if d.get("tool_name") == "Bash" and re.search(r"rm\s+-rf\s+/", d.get("tool_input", {}).get("command", "")):
    print("dangerous delete blocked", file=sys.stderr)
    sys.exit(2)
PY
cat >"$tmp/policy.yaml" <<'YAML'
hooks:
  - id: block-dangerous-rm
    event: pre_tool_use
    if: 'tool == "Bash" && args.command =~ /rm\s+-rf\s+\//'
    action: {type: command, command: "echo 'dangerous delete blocked'"}
    reject: true
YAML
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}\n' "$tmp" >"$tmp/block.json"
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"}}\n' "$tmp" >"$tmp/allow.json"
export HOOKCORE_STATE_DIR="$tmp/state" HOME="$tmp"

echo "$N runs per case ($(go version | cut -d' ' -f3), $(nproc) CPUs, python $(python3 -c 'import sys; print(sys.version.split()[0])'))"
python3 - "$N" "$tmp" <<'PY'
import statistics, subprocess, sys, time
n, tmp = int(sys.argv[1]), sys.argv[2]
py = "/usr/bin/python3" if __import__("os").path.exists("/usr/bin/python3") else sys.executable
cases = [
    ("true", ["/bin/true"], None),
    ("gomin", [tmp + "/gomin-bin"], 2),
    ("python", [py, tmp + "/dispatch.py"], 2),
    ("hookcore", [tmp + "/hookcore", "hook", "claude", "--config", tmp + "/policy.yaml"], 2),
]
def run(argv, data, want):
    p = subprocess.run(argv, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if want is not None and p.returncode != want:
        sys.exit(f"{argv[0]}: exit {p.returncode}, want {want}: {p.stderr!r}")
res = {}
for kind in ("block", "allow"):
    data = open(f"{tmp}/{kind}.json", "rb").read()
    for name, argv, want in cases:
        w = want if kind == "block" else (0 if want is not None else None)
        for _ in range(5):
            run(argv, data, w)
        ts = []
        for _ in range(n):
            t0 = time.perf_counter_ns()
            run(argv, data, w)
            ts.append((time.perf_counter_ns() - t0) / 1e6)
        ts.sort()
        p50, p95 = ts[len(ts) // 2], ts[int(len(ts) * 0.95)]
        res[(kind, name)] = p50
        print(f"{kind:<5} {name:<8} mean {statistics.fmean(ts):6.2f} ms  p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")
for kind in ("block", "allow"):
    h = res[(kind, "hookcore")]
    print(f"{kind}: hookcore/gomin {h / res[(kind, 'gomin')]:.2f}x, hookcore/python {h / res[(kind, 'python')]:.2f}x (p50)")
PY

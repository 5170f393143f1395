#!/usr/bin/env bash
# coldstart.sh measures the cold start of the CLI as a hook bridge: the wall time of one
# `hookcore fire PreToolUse --config examples/minicode/hooks.yaml < input`, from exec to exit,
# which is what an agent that runs hookcore as its hook command pays per tool call.
#
# It builds the binary once, then times N runs (default 50, after 3 warm-up runs) of two
# inputs: a Bash call no hook matches (`ls -la`: start, load and validate the config, match,
# print) and one the block-dangerous-rm hook blocks (`rm -rf /`: the same plus one hook
# process). It prints mean, p50, p95, min and max in milliseconds. hyperfine is used when
# installed, else a python3 loop (time.perf_counter_ns around subprocess.run), which also
# times /bin/true as the floor: the loop's own fork/exec/wait cost.
#
# Usage: bench/coldstart.sh [N]      (or N=100 bench/coldstart.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-${N:-50}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CGO_ENABLED=0 go build -o "$tmp/hookcore" ./cmd/hookcore
bin="$tmp/hookcore"
cfg="examples/minicode/hooks.yaml"

printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"}}\n' "$tmp" >"$tmp/nomatch.json"
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}\n' "$tmp" >"$tmp/block.json"

# Sanity: the two inputs give the exit codes of `hookcore fire` (0 allowed, 2 blocked).
set +e
"$bin" fire PreToolUse --config "$cfg" <"$tmp/nomatch.json" >/dev/null; nomatch_rc=$?
"$bin" fire PreToolUse --config "$cfg" <"$tmp/block.json" >/dev/null; block_rc=$?
set -e
if [ "$nomatch_rc" != 0 ] || [ "$block_rc" != 2 ]; then
  echo "coldstart: unexpected exit codes: no match $nomatch_rc (want 0), block $block_rc (want 2)" >&2
  exit 1
fi

echo "hookcore fire PreToolUse --config $cfg, $N runs each ($(go version | cut -d' ' -f3), $(nproc) CPUs)"

stats() { # stats NAME < file of nanoseconds, one a line
  python3 -c '
import statistics, sys
name = sys.argv[1]
ns = sorted(int(float(l)) for l in sys.stdin if l.strip())
ms = [x / 1e6 for x in ns]
def pct(p):
    k = (len(ms) - 1) * p / 100
    f = int(k); c = min(f + 1, len(ms) - 1)
    return ms[f] + (ms[c] - ms[f]) * (k - f)
print(f"{name:<9} mean {statistics.fmean(ms):6.2f} ms   p50 {pct(50):6.2f} ms   p95 {pct(95):6.2f} ms   min {ms[0]:6.2f} ms   max {ms[-1]:6.2f} ms")
' "$1"
}

if command -v hyperfine >/dev/null; then
  for case in nomatch block; do
    hyperfine --style none --warmup 3 --runs "$N" --ignore-failure --shell=none \
      --input "$tmp/$case.json" --export-json "$tmp/$case.hf.json" \
      "$bin fire PreToolUse --config $cfg" >/dev/null
    python3 -c 'import json,sys; [print(int(t*1e9)) for t in json.load(open(sys.argv[1]))["results"][0]["times"]]' \
      "$tmp/$case.hf.json" | stats "$case"
  done
  echo "(timed with hyperfine)"
else
  : >"$tmp/floor.json"
  for case in floor nomatch block; do
    python3 -c '
import subprocess, sys, time
bin, cfg, inp, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
data = open(inp, "rb").read()
argv = [bin, "fire", "PreToolUse", "--config", cfg]
if inp.endswith("/floor.json"):
    argv = ["/bin/true"]  # the cost of the timing loop itself: fork, exec, wait
for _ in range(3):
    subprocess.run(argv, input=data, stdout=subprocess.DEVNULL)
for _ in range(n):
    t0 = time.perf_counter_ns()
    subprocess.run(argv, input=data, stdout=subprocess.DEVNULL)
    print(time.perf_counter_ns() - t0)
' "$bin" "$cfg" "$tmp/$case.json" "$N" | stats "$case"
  done
  echo "(timed with a python3 loop; floor = /bin/true through the same loop; install hyperfine for calibrated runs)"
fi

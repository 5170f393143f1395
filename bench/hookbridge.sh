#!/usr/bin/env bash
# hookbridge.sh measures `hookcore hook claude` as a whole process, cold, the way Claude Code
# runs it for every tool call (issue 9 acceptance): one PreToolUse input on stdin, one rule,
# the answer on stdout/stderr and the exit status; and the same for `hookcore-hook claude`, the
# lean hook binary (cmd/hookcore-hook built with -tags hookcore_lean), which install writes
# when it sits beside hookcore. For "allow" (ls -la) the rule's condition
# is decided in-process and no hook runs; for "block" (rm -rf /) the rule's action, an echo
# command hook, is one child process on top. Beside it, through the same timing loop:
#   true    /bin/true: the loop's own fork/exec/wait cost
#   gomin   a minimal standard-library Go program doing the same check (decode the input,
#           match the command, exit 2 with the reason): the floor for a Go binary
#   python  a minimal Python dispatcher doing the same (json + re)
# for a call the rule blocks (rm -rf /) and one it lets through (ls -la). "installed" is
# hookcore-hook as `hookcore install claude` leaves it (exec form: Claude Code starts it with no
# shell), "installed-sh" the same started through `sh -c`, as Claude Code runs a shell-form hook
# command (what install wrote before stop 29); the last lines give the shell's cost.
#
# Both Go binaries are built with CGO_ENABLED=0 (static, no libc to load: see docs/decisions.md,
# "Cold start of the hook path"). With BASE set to a git revision (BASE=main), that revision's
# hookcore is built too (from `git archive`; the worktree is not touched) and timed as
# "hookcore-base". Every case runs once in each round, so that the ratios of one run share
# the machine's load, in an order shuffled anew each round (a fixed seed): a fixed order gave
# each case the same predecessor every round — the Go program always ran after /bin/true,
# which leaves the CPU's caches warm, and a hookcore case after Python, which does not — and
# moved the lean binary's ratio by 0.2 (1.64x fixed, 1.45x shuffled, in the same hour; stop
# 34). ORDER=fixed keeps the listed order. Each run's user+system CPU time and minor page
# faults come from wait4. The load average is printed before and after.
#
# STATE=copied copies every Go binary (cp, to a new file) before timing. A binary the Go
# linker has just written sits in the page cache in small pages, which it wrote through a
# mapping; the same bytes written with write() (cp, install(1), a package manager) or read
# back from disk with read() sit in large folios, which exec maps with fewer, cheaper faults.
# The state changes the ratios: on this machine's kernel (6.18) hookcore-hook/gomin was 1.54x
# as built and 1.38-1.43x copied, and 1.66-1.72x when exec paged it in after the page cache
# was dropped (docs/decisions.md, "The page cache decides a tenth of the cold start").
# Usage: bench/hookbridge.sh [N]   (default 200 rounds after 5 warm-up rounds; BASE=rev and
# STATE=built|copied and ORDER=shuffled|fixed optional, STATE=built and ORDER=shuffled by default)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

CGO_ENABLED=0 go build -o "$tmp/hookcore" ./cmd/hookcore
CGO_ENABLED=0 go build -tags hookcore_lean -o "$tmp/hookcore-hook" ./cmd/hookcore-hook
if [ -n "${BASE:-}" ]; then
  mkdir "$tmp/base"
  git archive "$BASE" | tar -x -C "$tmp/base"
  (cd "$tmp/base" && CGO_ENABLED=0 go build -o "$tmp/hookcore-base" ./cmd/hookcore)
fi
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
sed "s#\"cwd\":\"$tmp\"#\"cwd\":\"$tmp/inst/proj\"#" "$tmp/block.json" >"$tmp/block-inst.json"
sed "s#\"cwd\":\"$tmp\"#\"cwd\":\"$tmp/inst/proj\"#" "$tmp/allow.json" >"$tmp/allow-inst.json"
export HOOKCORE_STATE_DIR="$tmp/state" HOME="$tmp"
# "installed": hookcore-hook claude as `hookcore install claude` leaves it, without --config:
# discovery from a project directory, the policy as ~/.hookcore/hooks.yaml, and a
# ~/.claude/settings.json of 6 KB (160 permission rules, env, a status line, the three hook
# entries install writes), which a hook process reads at every event.
mkdir -p "$tmp/inst/home/.hookcore" "$tmp/inst/home/.claude" "$tmp/inst/proj/.git"
cp "$tmp/policy.yaml" "$tmp/inst/home/.hookcore/hooks.yaml"
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
hook = [{"matcher": "*", "hooks": [{"type": "command", "command": tmp + "/hookcore-hook", "args": ["hook", "claude"]}]}]
s = {"permissions": {"allow": [f"Bash(npm run test:{i}*)" for i in range(120)] + [f"Read(/home/u/proj{i}/**)" for i in range(40)],
                     "deny": ["Bash(rm -rf *)"]},
     "env": {"FOO": "bar", "CLAUDE_CODE_ENABLE_TELEMETRY": "0"}, "model": "opus",
     "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
     "hooks": {"PreToolUse": hook, "PostToolUse": hook, "Stop": [{"hooks": hook[0]["hooks"]}]}}
open(tmp + "/inst/home/.claude/settings.json", "w").write(json.dumps(s, indent=2))
PY

if [ "${STATE:-built}" = copied ]; then
  for b in "$tmp/hookcore" "$tmp/hookcore-hook" "$tmp/gomin-bin" ${BASE:+"$tmp/hookcore-base"}; do
    cp "$b" "$b.copy" && mv "$b.copy" "$b"
  done
fi
echo "$N rounds, binaries ${STATE:-built} ($(go version | cut -d' ' -f3), $(nproc) CPUs, python $(python3 -c 'import sys; print(sys.version.split()[0])'), load $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$N" "$tmp" <<'PY'
import os, random, statistics, subprocess, sys, time
n, tmp = int(sys.argv[1]), sys.argv[2]
shuffle = os.environ.get("ORDER", "shuffled") == "shuffled"
rng = random.Random(9)
py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
hook = ["hook", "claude", "--config", tmp + "/policy.yaml"]
cases = [
    ("true", ["/bin/true"], None),
    ("gomin", [tmp + "/gomin-bin"], 2),
    ("python", [py, tmp + "/dispatch.py"], 2),
    ("hookcore", [tmp + "/hookcore"] + hook, 2),
    ("hookcore-hook", [tmp + "/hookcore-hook"] + hook[1:], 2),
    ("installed", [tmp + "/hookcore-hook", "claude"], 2),
    # installed-sh: the same through `sh -c`, as Claude Code runs a shell-form hook command;
    # `installed` is the exec form `hookcore install claude` writes (no shell).
    ("installed-sh", ["/bin/sh", "-c", tmp + "/hookcore-hook claude"], 2),
]
if os.path.exists(tmp + "/hookcore-base"):
    cases.append(("hookcore-base", [tmp + "/hookcore-base"] + hook, 2))
inst = dict(os.environ, HOME=tmp + "/inst/home")
def run(argv, path, want):
    installed = argv in ([tmp + "/hookcore-hook", "claude"], ["/bin/sh", "-c", tmp + "/hookcore-hook claude"])
    if installed:
        path = path.replace(".json", "-inst.json")
    with open(path, "rb") as f:
        t0 = time.perf_counter_ns()
        p = subprocess.Popen(argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             cwd=tmp + "/inst/proj" if installed else None, env=inst if installed else None)
        _, status, ru = os.wait4(p.pid, 0)
        dt = (time.perf_counter_ns() - t0) / 1e6
    code = os.waitstatus_to_exitcode(status)
    err = p.stderr.read()
    p.stderr.close()
    p.returncode = code
    if want is not None and code != want:
        sys.exit(f"{argv[0]}: exit {code}, want {want}: {err!r}")
    return dt, (ru.ru_utime + ru.ru_stime) * 1e3, ru.ru_minflt
def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * f))]
res = {}
for kind in ("block", "allow"):
    path = f"{tmp}/{kind}.json"
    wall = {c[0]: [] for c in cases}
    cpu = {c[0]: [] for c in cases}
    flt = {c[0]: [] for c in cases}
    for r in range(-5, n):
        order = list(cases)
        if shuffle:
            rng.shuffle(order)
        for name, argv, want in order:
            w = want if kind == "block" else (0 if want is not None else None)
            dt, c, m = run(argv, path, w)
            if r >= 0:
                wall[name].append(dt)
                cpu[name].append(c)
                flt[name].append(m)
    for name, _, _ in cases:
        ts = wall[name]
        res[(kind, name)] = (statistics.median(ts), ts)
        print(f"{kind:<5} {name:<13} p50 {statistics.median(ts):6.2f} ms [p10 {q(ts, .1):6.2f} p90 {q(ts, .9):6.2f}]  p95 {q(ts, .95):6.2f}  "
              f"cpu p50 {statistics.median(cpu[name]):5.2f} ms  minflt {statistics.median(flt[name]):4.0f}")
for kind in ("block", "allow"):
    g, gs = res[(kind, "gomin")]
    pyt = res[(kind, "python")][0]
    line = f"{kind}:"
    for name in ("hookcore-hook", "installed", "hookcore"):
        h, hs = res[(kind, name)]
        per_round = statistics.median(a / b for a, b in zip(hs, gs))
        line += f" {name}/gomin {h / g:.2f}x (per-round median {per_round:.2f}x), {name}/python {h / pyt:.2f}x;"
    h, hs = res[(kind, "hookcore")]
    if (kind, "hookcore-base") in res:
        b, bs = res[(kind, "hookcore-base")]
        line += f"; base/gomin {b / g:.2f}x, hookcore/base per round {statistics.median(a / c for a, c in zip(hs, bs)):.2f}x"
    print(line + " (p50)")
for kind in ("block", "allow"):
    e, es = res[(kind, "installed")]
    s, ss = res[(kind, "installed-sh")]
    print(f"{kind}: sh -c costs {s - e:.2f} ms over exec form (p50 {s:.2f} vs {e:.2f} ms, per-round median "
          f"{statistics.median(a - b for a, b in zip(ss, es)):.2f} ms, {statistics.median(a / b for a, b in zip(ss, es)):.2f}x)")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

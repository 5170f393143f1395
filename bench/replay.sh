#!/usr/bin/env bash
# replay.sh measures `hookcore replay` as a whole process on a generated Claude Code-shaped
# transcript of about SIZE MB (default 200) through ten in-process rules (conditions, Bash
# rules, inject actions: no hook process is started), and reports MB/s of transcript and the
# peak resident memory, median of N runs (default 3).
#
# The transcript mixes, like the recorded sessions (where they are 78 % of the bytes), lines
# that yield no event with the tool calls that do: per call an api-request line, an
# api-request-shape line (16 KB), an attachment (a 24 KB prompt_snapshot every 4th call),
# the tool_use and the tool_result (a 64 KB output every 20th call), and an api-request-blob.
#
# With BASE set to a git revision (BASE=main bench/replay.sh), that revision is built too
# (from `git archive`, the worktree is not touched) and both are timed in turn in the same
# run, so the ratio is meaningful on a busy machine even when the absolute numbers are not.
#
# Usage: bench/replay.sh [SIZE_MB]      (N=5 BASE=main bench/replay.sh 200)
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE=${1:-${SIZE:-200}}
N=${N:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/hookcore-head" ./cmd/hookcore
bins=(head)
if [ -n "${BASE:-}" ]; then
  mkdir "$tmp/base"
  git archive "$BASE" | tar -x -C "$tmp/base"
  (cd "$tmp/base" && go build -o "$tmp/hookcore-base" ./cmd/hookcore)
  bins=(base head)
fi

cat >"$tmp/rules.yaml" <<'YAML'
hooks:
  - {id: r1, event: pre_tool_use, matcher: Bash, if: 'args.command =~ /rm\s+-rf/', action: {type: prompt, message: "no"}}
  - {id: r2, event: pre_tool_use, matcher: Bash, if: 'args.command =~ /curl .*\|\s*sh/', action: {type: prompt, message: "no"}}
  - {id: r3, event: pre_tool_use, matcher: Edit|Write, if: 'file_path ~= "**/.env"', action: {type: prompt, message: "no"}}
  - {id: r4, event: pre_tool_use, matcher: Edit|Write, if: 'file_path ~= "**/package-lock.json"', action: {type: prompt, message: "no"}}
  - {id: r5, event: pre_tool_use, matcher: Bash, if: 'Bash(git push *)', action: {type: prompt, message: "no"}}
  - {id: r6, event: pre_tool_use, matcher: Read, if: 'file_path ~= "**/secrets/**"', action: {type: prompt, message: "no"}}
  - {id: r7, event: post_tool_use, matcher: Edit, if: 'file_path ~= "**/*.go"', action: {type: prompt, message: "run gofmt"}}
  - {id: r8, event: post_tool_use, matcher: Bash, if: 'args.command =~ /go test/', action: {type: prompt, message: "tests ran"}}
  - {id: r9, event: stop, action: {type: prompt, message: "summarise"}}
  - {id: r10, event: session_start, action: {type: prompt, message: "project notes"}}
YAML

python3 - "$tmp/session.jsonl" "$SIZE" <<'PY'
import json, sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
common = {"cwd": "/nonexistent/project", "sessionId": "00000000-0000-4000-8000-00000000beef", "version": "2.1.332", "userType": "external"}
text = "lorem ipsum dolor sit amet, \"consectetur\" adipiscing elit\n\tsed do eiusmod tempor " * 16
def line(d):
    return json.dumps({**d, **common}, separators=(",", ":")) + "\n"
with open(path, "w") as f:
    n = f.write(line({"type": "user", "promptId": "p1", "message": {"role": "user", "content": "Do the work."}, "uuid": "u0", "timestamp": "2026-11-30T07:54:27.839Z", "permissionMode": "default", "promptSource": "sdk"}))
    i = 0
    while n < size:
        tid = "toolu_%07d" % i
        if i % 3 == 0:
            name, inp = "Bash", {"command": "go test ./pkg%d/... && git status --short" % i, "description": "Step %d" % i}
        elif i % 3 == 1:
            name, inp = "Read", {"file_path": "/nonexistent/project/pkg%d/main.go" % i}
        else:
            name, inp = "Edit", {"file_path": "/nonexistent/project/pkg%d/main.go" % i, "old_string": "a", "new_string": "b"}
        out = text * 5 if i % 20 == 19 else "ok pkg%d" % i
        n += f.write(line({"type": "api-request", "id": "r%d" % i, "timestamp": "2026-11-30T07:54:28.149Z", "params": {"model": "claude-opus-5-5", "max_tokens": 128000, "output_config": {"effort": "medium"}}}))
        n += f.write(line({"type": "api-request-shape", "id": "r%d" % i, "shape": {"system": [text[:4000]] * 4, "tools": [{"name": "T%d" % k, "description": text[:300]} for k in range(8)]}}))
        if i % 4 == 0:
            n += f.write(line({"type": "attachment", "uuid": "at%d" % i, "timestamp": "2026-11-30T07:54:28.150Z", "attachment": {"type": "prompt_snapshot", "content": text * 20}}))
        n += f.write(line({"type": "assistant", "message": {"model": "m", "id": "msg_%d" % i, "type": "message", "role": "assistant", "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}], "stop_reason": "tool_use"}, "uuid": "a%d" % i, "timestamp": "2026-11-30T07:54:28.176Z"}))
        n += f.write(line({"type": "user", "promptId": "p1", "message": {"role": "user", "content": [{"tool_use_id": tid, "type": "tool_result", "content": out}]}, "uuid": "r%d" % i, "timestamp": "2026-11-30T07:54:28.598Z", "toolUseResult": {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}}))
        n += f.write(line({"type": "api-request-blob", "id": "r%d" % i, "blob": text[:2000]}))
        i += 1
    f.write(line({"type": "assistant", "message": {"model": "m", "id": "msg_end", "type": "message", "role": "assistant", "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn"}, "uuid": "end", "timestamp": "2026-11-30T07:54:31.404Z"}))
PY
bytes=$(stat -c %s "$tmp/session.jsonl")
echo "hookcore replay of a $((bytes >> 20)) MB generated transcript, ten in-process rules, median of $N runs ($(go version | cut -d' ' -f3), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"

for run in $(seq "$N"); do
  for b in "${bins[@]}"; do
    python3 - "$tmp/hookcore-$b" "$tmp/session.jsonl" "$tmp/rules.yaml" >>"$tmp/$b.times" <<'PY'
import resource, subprocess, sys, time
bin, path, cfg = sys.argv[1:4]
t0 = time.perf_counter()
p = subprocess.run([bin, "replay", path, "--config", cfg], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
dt = time.perf_counter() - t0
if p.returncode != 0:
    sys.exit("replay exited %d" % p.returncode)
print(dt, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
  done
done

for b in "${bins[@]}"; do
  python3 - "$b" "$bytes" "$tmp/$b.times" <<'PY'
import statistics, sys
name, size = sys.argv[1], int(sys.argv[2])
rows = [l.split() for l in open(sys.argv[3]) if l.strip()]
mbs = sorted(size / 1e6 / float(t) for t, _ in rows)
rss = max(int(r) for _, r in rows) / 1024
print(f"{name:<5} median {statistics.median(mbs):6.1f} MB/s   range {mbs[0]:6.1f}-{mbs[-1]:6.1f} MB/s   peak RSS {rss:5.1f} MB")
PY
done

package replay_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookcore/hookcore/internal/replay"
)

// genSession writes a Claude Code 2.1-shaped transcript at path: one prompt, then tool calls
// (Bash, Read or Edit in turn, each a tool_use line and a tool_result line), then the final
// answer. Every bigEvery-th result carries bigBytes of output, like session-long-output's
// 425 KB line. It stops after calls calls, or once size bytes are written when size > 0.
// It returns the number of tool calls and of events (Pre and Post per call, SessionStart,
// UserPromptSubmit, Stop, SessionEnd).
func genSession(tb testing.TB, path string, calls int, size int64, bigEvery, bigBytes int) (int, int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	put := func(format string, args ...any) {
		k, _ := fmt.Fprintf(w, format, args...)
		n += int64(k)
	}
	const common = `"cwd":"/nonexistent/project","sessionId":"00000000-0000-4000-8000-00000000beef","version":"2.1.332","userType":"external"`
	big := strings.Repeat(`lorem ipsum dolor sit amet, consectetur adipiscing elit\n`, bigBytes/57+1)
	put(`{"type":"user","promptId":"p1","message":{"role":"user","content":"Do the work."},"uuid":"u0","timestamp":"2026-11-30T07:54:27.839Z","permissionMode":"default","promptSource":"sdk",%s}`+"\n", common)
	i := 0
	for ; (calls == 0 || i < calls) && (size == 0 || n < size); i++ {
		id := fmt.Sprintf("toolu_%07d", i)
		var name, input, result string
		switch i % 3 {
		case 0:
			name, input = "Bash", fmt.Sprintf(`{"command":"go test ./pkg%d/... && git status --short","description":"Step %d"}`, i, i)
			result = fmt.Sprintf(`{"stdout":"ok pkg%d 0.1s","stderr":"","interrupted":false,"isImage":false}`, i)
		case 1:
			name, input = "Read", fmt.Sprintf(`{"file_path":"/nonexistent/project/pkg%d/main.go"}`, i)
			result = `{"type":"text","file":{"filePath":"x","content":"package main","numLines":1,"startLine":1,"totalLines":1}}`
		default:
			name, input = "Edit", fmt.Sprintf(`{"file_path":"/nonexistent/project/pkg%d/main.go","old_string":"a","new_string":"b"}`, i)
			result = `{"filePath":"x","oldString":"a","newString":"b"}`
		}
		content := "ok"
		if bigEvery > 0 && i%bigEvery == bigEvery-1 {
			content = big
			result = `{"stdout":"` + big + `","stderr":"","interrupted":false,"isImage":false}`
		}
		put(`{"type":"assistant","message":{"model":"m","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"%s","input":%s}],"stop_reason":"tool_use"},"uuid":"a%d","timestamp":"2026-11-30T07:54:28.176Z",%s}`+"\n", i, id, name, input, i, common)
		put(`{"type":"user","promptId":"p1","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"%s"}]},"uuid":"r%d","timestamp":"2026-11-30T07:54:28.598Z","toolUseResult":%s,%s}`+"\n", id, content, i, result, common)
	}
	put(`{"type":"assistant","message":{"model":"m","id":"msg_end","type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"},"uuid":"end","timestamp":"2026-11-30T07:54:31.404Z",%s}`+"\n", common)
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return i, 2*i + 4
}

// rulesConfig is ten in-process rules: conditions that mostly do not match and inject
// actions (no process is started).
const rulesConfig = `hooks:
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
`

func benchReplay(b *testing.B, config string, calls int, opts replay.Options) {
	dir := b.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	_, events := genSession(b, path, calls, 0, 0, 0)
	cfg := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	opts.Runner = runner(b, cfg)
	opts.Cwd = dir
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := replay.Run(context.Background(), []string{path}, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReplayRules replays a 10 000-call session (20 004 events) through ten in-process
// rules and prints the table (to io.Discard).
func BenchmarkReplayRules(b *testing.B) { benchReplay(b, rulesConfig, 10_000, replay.Options{}) }

// BenchmarkReplayRulesJSON is BenchmarkReplayRules with --json.
func BenchmarkReplayRulesJSON(b *testing.B) {
	benchReplay(b, rulesConfig, 10_000, replay.Options{JSON: true})
}

// BenchmarkReplayCommandHook replays the 10 000-call session through one trivial command
// hook (`true`) on every PreToolUse: 10 000 processes. Run with -benchtime=1x.
func BenchmarkReplayCommandHook(b *testing.B) {
	benchReplay(b, "hooks:\n  - {id: t, event: pre_tool_use, action: {type: command, command: \"true\"}}\n", 10_000, replay.Options{})
}

// BenchmarkReplayCommandHookJobs8 is BenchmarkReplayCommandHook with --jobs 8.
func BenchmarkReplayCommandHookJobs8(b *testing.B) {
	benchReplay(b, "hooks:\n  - {id: t, event: pre_tool_use, action: {type: command, command: \"true\"}}\n", 10_000, replay.Options{Jobs: 8})
}

// BenchmarkReplayLarge replays a 200 MB transcript (every 50th result line is 400 KB) through
// the ten rules and reports its speed (MB/s of transcript) and the peak heap (HeapAlloc,
// sampled every 2 ms, garbage not yet collected included), which stays flat: it is bounded
// by the longest line and the rows waiting to be printed, not by the file.
func BenchmarkReplayLarge(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "large.jsonl")
	_, events := genSession(b, path, 0, 200<<20, 50, 400<<10)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	cfg := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(cfg, []byte(rulesConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	opts := replay.Options{Runner: runner(b, cfg), Cwd: dir}
	runtime.GC()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := replay.Run(context.Background(), []string{path}, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

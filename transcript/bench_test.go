package transcript_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/transcript"
)

// synthetic describes a generated Claude Code 2.1.332-shaped transcript: one prompt, then
// tool calls (a Bash call, or every BigEvery-th a Read whose result line is BigBytes long,
// like session-long-output's 425 KB line), each preceded by an api-request line, and a
// final answer. Generation stops after Calls calls or once Size bytes are written,
// whichever is set.
type synthetic struct {
	Calls    int
	Size     int64
	BigEvery int
	BigBytes int
}

type countingWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countingWriter) print(format string, args ...any) {
	n, _ := fmt.Fprintf(c.w, format, args...)
	c.n += int64(n)
}

// write generates the transcript at path and returns the number of tool calls and events
// it holds.
func (s synthetic) write(tb testing.TB, path string) (calls, events int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := &countingWriter{w: bufio.NewWriterSize(f, 1<<20)}
	const common = `"userType":"external","entrypoint":"sdk-cli","cwd":"/home/dev/project","sessionId":"00000000-0000-4000-8000-000000000001","version":"2.1.332","gitBranch":"main"`
	big := strings.Repeat(`00042\tlorem ipsum dolor sit amet, consectetur adipiscing elit\n`, s.BigBytes/2/64+1)
	w.print(`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-11-30T07:54:27.800Z","sessionId":"00000000-0000-4000-8000-000000000001","content":"go"}` + "\n")
	w.print(`{"parentUuid":null,"isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":"Do the work."},"uuid":"u0","timestamp":"2026-11-30T07:54:27.839Z","permissionMode":"bypassPermissions","promptSource":"sdk",%s}`+"\n", common)
	for i := 0; (s.Calls == 0 || i < s.Calls) && (s.Size == 0 || w.n < s.Size); i++ {
		w.print(`{"type":"api-request","sessionId":"00000000-0000-4000-8000-000000000001","id":"r%d","timestamp":"2026-11-30T07:54:28.149Z","version":"2.1.332","params":{"model":"claude-opus-5-5","max_tokens":128000,"output_config":{"effort":"medium"}},"requestDigest":"b260bfa90bf40df21b772f14c5ef9070902eadfbc865b56b6ca7417e2aaf5c89"}`+"\n", i)
		id := fmt.Sprintf("toolu_%06d", i)
		if s.BigEvery > 0 && i%s.BigEvery == s.BigEvery-1 {
			w.print(`{"parentUuid":"u","isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"Read","input":{"file_path":"/home/dev/project/data/big.txt"}}],"stop_reason":"tool_use"},"type":"assistant","uuid":"a%d","timestamp":"2026-11-30T07:54:28.176Z",%s}`+"\n", i, id, i, common)
			w.print(`{"parentUuid":"a%d","isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"%s"}]},"uuid":"r%d","timestamp":"2026-11-30T07:54:28.598Z","toolUseResult":{"type":"text","file":{"filePath":"/home/dev/project/data/big.txt","content":"%s","numLines":3201,"startLine":1,"totalLines":3201}},"permissionDecision":{"decision":"accept","source":"config","reasonType":"mode"},%s}`+"\n", i, id, big, i, big, common)
		} else {
			w.print(`{"parentUuid":"u","isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"Bash","input":{"command":"echo step %d && ls -la","description":"Step %d"}}],"stop_reason":"tool_use"},"type":"assistant","uuid":"a%d","timestamp":"2026-11-30T07:54:28.176Z",%s}`+"\n", i, id, i, i, i, common)
			w.print(`{"parentUuid":"a%d","isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"step %d\ntotal 8\ndrwxr-xr-x 2 dev dev 4096 .","is_error":false}]},"uuid":"r%d","timestamp":"2026-11-30T07:54:28.598Z","toolUseResult":{"stdout":"step %d\ntotal 8\ndrwxr-xr-x 2 dev dev 4096 .","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false},"sandboxed":false,"permissionDecision":{"decision":"accept","source":"config","reasonType":"mode"},%s}`+"\n", i, id, i, i, i, common)
		}
		calls++
	}
	w.print(`{"parentUuid":"u","isSidechain":false,"message":{"model":"claude-opus-5-5","id":"msg_end","type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"},"type":"assistant","uuid":"end","timestamp":"2026-11-30T07:54:31.404Z",%s}`+"\n", common)
	w.print(`{"type":"cost-state","sessionId":"00000000-0000-4000-8000-000000000001"}` + "\n")
	if err := w.w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return calls, 2*calls + 4 // SessionStart, UserPromptSubmit, Pre and Post per call, Stop, SessionEnd
}

// readAll reads every event of path, sampling the live heap every sampleEvery events
// (0: never), and returns the event count and the highest HeapAlloc seen, in bytes.
func readAll(tb testing.TB, path string, sampleEvery int) (events int, peak uint64) {
	r, err := transcript.Open(path, transcript.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	var ms runtime.MemStats
	for {
		_, err := r.Next()
		if err == io.EOF {
			return events, peak
		}
		if err != nil {
			tb.Fatal(err)
		}
		events++
		if sampleEvery > 0 && events%sampleEvery == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
}

// BenchmarkReadLarge reads a transcript of 10 000 tool calls, 50 of them with a 400 KB
// result line (about 45 MB).
func BenchmarkReadLarge(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.jsonl")
	_, want := synthetic{Calls: 10000, BigEvery: 200, BigBytes: 400 << 10}.write(b, path)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if n, _ := readAll(b, path, 0); n != want {
			b.Fatalf("%d events, want %d", n, want)
		}
	}
}

// BenchmarkPeakHeap reads generated transcripts of 20 MB and 200 MB (a 400 KB line every
// 100 calls) and reports the highest live heap seen while reading (peak-heap-MB, sampled
// every 500 events after a GC). Flat memory means the two peaks are about the same: the
// reader holds one line and the events not yet returned, never the file.
func BenchmarkPeakHeap(b *testing.B) {
	dir := b.TempDir()
	for _, mb := range []int64{20, 200} {
		path := filepath.Join(dir, fmt.Sprintf("synthetic-%dmb.jsonl", mb))
		_, want := synthetic{Size: mb << 20, BigEvery: 100, BigBytes: 400 << 10}.write(b, path)
		b.Run(fmt.Sprintf("size=%dMB", mb), func(b *testing.B) {
			var peak uint64
			for b.Loop() {
				runtime.GC()
				n, p := readAll(b, path, 500)
				if n != want {
					b.Fatalf("%d events, want %d", n, want)
				}
				peak = max(peak, p)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// TestSyntheticTranscript checks the generator itself, on a small file, against the reader.
func TestSyntheticTranscript(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "small.jsonl")
	calls, want := synthetic{Calls: 30, BigEvery: 10, BigBytes: 8 << 10}.write(t, path)
	evs, st, err := transcript.ReadAll(path, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != want || st.ToolCalls != calls || st.Skipped != 0 {
		t.Fatalf("%d events (want %d), stats %+v", len(evs), want, st)
	}
}

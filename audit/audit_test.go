package audit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// writeLog appends n records {"n":i} to a new log and returns its path.
func writeLog(t *testing.T, n int, key []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, err := Open(path, key)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if _, err := fmt.Fprintf(w, `{"n":%d}`+"\n", i); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func put(t *testing.T, path string, ls []string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(ls, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func verify(t *testing.T, path string, key []byte, head string) *Report {
	t.Helper()
	rep, err := VerifyFile(path, key, head)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestWholeChainVerifies(t *testing.T) {
	for _, key := range [][]byte{nil, []byte("k")} {
		path := writeLog(t, 20, key)
		rep := verify(t, path, key, "")
		if !rep.OK() || rep.Lines != 20 || !strings.HasPrefix(rep.Head, "20:") || rep.Keyed != (key != nil) {
			t.Fatalf("key %q: %+v %v", key, rep, rep.Break)
		}
	}
}

func TestAppendAcrossWritersContinuesTheChain(t *testing.T) {
	path := writeLog(t, 3, nil)
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(map[string]int{"n": 4}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if rep := verify(t, path, nil, ""); !rep.OK() || rep.Lines != 4 {
		t.Fatalf("%+v %v", rep, rep.Break)
	}
}

// One test per kind of tampering (issue 11.2): each must name the first line that is
// not what the writer wrote.
func TestTamperingIsFound(t *testing.T) {
	cases := []struct {
		name   string
		key    []byte
		edit   func(ls []string) []string
		line   int
		kind   Kind
		headAt int // save the head after writing (before the edit)
	}{
		{name: "changed middle line", edit: func(ls []string) []string {
			ls[4] = strings.Replace(ls[4], `"n":5`, `"n":55`, 1)
			return ls
		}, line: 5, kind: Changed},
		{name: "changed first line", edit: func(ls []string) []string {
			ls[0] = strings.Replace(ls[0], `"n":1`, `"n":0`, 1)
			return ls
		}, line: 1, kind: Changed},
		{name: "changed last line, keyed", key: []byte("secret"), edit: func(ls []string) []string {
			ls[9] = strings.Replace(ls[9], `"n":10`, `"n":11`, 1)
			return ls
		}, line: 10, kind: Changed},
		{name: "mac stripped, keyed", key: []byte("secret"), edit: func(ls []string) []string {
			ls[2] = macSuffix().ReplaceAllString(ls[2], "}")
			return ls
		}, line: 3, kind: Changed},
		{name: "removed middle line", edit: func(ls []string) []string {
			return append(ls[:3:3], ls[4:]...)
		}, line: 4, kind: Removed},
		{name: "removed first line", edit: func(ls []string) []string { return ls[1:] }, line: 1, kind: Removed},
		{name: "removed two lines", edit: func(ls []string) []string {
			return append(ls[:3:3], ls[5:]...)
		}, line: 4, kind: Removed},
		{name: "inserted copy", edit: func(ls []string) []string {
			out := append([]string{}, ls[:5]...)
			out = append(out, ls[2])
			return append(out, ls[5:]...)
		}, line: 6, kind: Inserted},
		{name: "inserted forged line", edit: func(ls []string) []string {
			// A forger without a key can compute the right prev and seq for the new line;
			// the line after it then no longer fits.
			forged := forge(t, ls[4], 6, `{"n":"forged"}`)
			out := append([]string{}, ls[:5]...)
			out = append(out, forged)
			return append(out, ls[5:]...)
		}, line: 6, kind: Inserted},
		{name: "inserted forged first line", edit: func(ls []string) []string {
			forged := fmt.Sprintf(`{"seq":1,"prev":%q,"time":"2026-01-01T00:00:00Z","record":{}}`, zeroHash)
			return append([]string{forged}, ls...)
		}, line: 1, kind: Inserted},
		{name: "moved far", edit: func(ls []string) []string {
			moved := ls[1]
			out := append([]string{ls[0]}, ls[2:8]...)
			out = append(out, moved)
			return append(out, ls[8:]...)
		}, line: 2, kind: Reordered},
		{name: "reordered", edit: func(ls []string) []string {
			ls[3], ls[4] = ls[4], ls[3]
			return ls
		}, line: 4, kind: Reordered},
		{name: "torn line", edit: func(ls []string) []string {
			ls[6] = ls[6][:10]
			return ls
		}, line: 7, kind: Malformed},
		{name: "cut tail, with a saved head", edit: func(ls []string) []string { return ls[:7] }, line: 7, kind: Cut, headAt: 10},
		{name: "rewritten whole, with a saved head", edit: func(ls []string) []string {
			return lines(t, writeLog(t, 10, nil))
		}, line: 10, kind: Changed, headAt: 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeLog(t, 10, c.key)
			head := ""
			if c.headAt > 0 {
				var err error
				if head, err = Head(path, c.key); err != nil {
					t.Fatal(err)
				}
			}
			put(t, path, c.edit(lines(t, path)))
			rep := verify(t, path, c.key, head)
			if rep.Break == nil || rep.Break.Line != c.line || rep.Break.Kind != c.kind {
				t.Fatalf("got %v, want line %d %s", rep.Break, c.line, c.kind)
			}
		})
	}
}

// forge builds a valid unkeyed line with seq after the line prev.
func forge(t *testing.T, prev string, seq int64, rec string) string {
	t.Helper()
	return fmt.Sprintf(`{"seq":%d,"prev":%q,"time":"2026-01-01T00:00:00Z","record":%s}`, seq, hashOf(nil, []byte(prev)), rec)
}

func TestTornTailIsKeptVisible(t *testing.T) {
	path := writeLog(t, 3, nil)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":4,"pr`) // a writer died mid-line
	f.Close()
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(map[string]int{"n": 5}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ls := lines(t, path)
	if len(ls) != 5 || ls[3] != `{"seq":4,"pr` {
		t.Fatalf("the torn line was glued or lost: %q", ls)
	}
	if rep := verify(t, path, nil, ""); rep.Break == nil || rep.Break.Line != 4 || rep.Break.Kind != Malformed {
		t.Fatalf("%v", rep.Break)
	}
}

func TestWriteRefusesNonJSON(t *testing.T) {
	w, err := Open(filepath.Join(t.TempDir(), "a"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write([]byte("not json")); err == nil {
		t.Fatal("want an error")
	}
}

func TestOpenRefusesNonRegular(t *testing.T) {
	if _, err := Open(os.DevNull, nil); err == nil {
		t.Fatal("want an error for a device")
	}
}

func TestBadHead(t *testing.T) {
	path := writeLog(t, 2, nil)
	for _, h := range []string{"x", "1:abc", "0:" + zeroHash} {
		if _, err := VerifyFile(path, nil, h); err == nil {
			t.Errorf("head %q: want an error", h)
		}
	}
}

// 50 writers, each with its own open file (as separate processes have), append at once:
// no line is torn or interleaved and the chain holds every record once.
func TestConcurrentWriters(t *testing.T) {
	const writers, each = 50, 20
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := Open(path, []byte("k"))
			if err != nil {
				errs <- err
				return
			}
			defer w.Close()
			for j := range each {
				if err := w.Append(map[string]int{"w": i, "j": j}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	rep := verify(t, path, []byte("k"), "")
	if !rep.OK() || rep.Lines != writers*each {
		t.Fatalf("lines %d, break %v", rep.Lines, rep.Break)
	}
}

// The same across real processes: the test binary re-executed as writers.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, each = 8, 25
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var cmds []*exec.Cmd
	for i := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(), "AUDIT_HELPER_PATH="+path, "AUDIT_HELPER_N="+strconv.Itoa(each), "AUDIT_HELPER_ID="+strconv.Itoa(i))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	rep := verify(t, path, nil, "")
	if !rep.OK() || rep.Lines != procs*each {
		t.Fatalf("lines %d, break %v", rep.Lines, rep.Break)
	}
}

func TestHelperWriter(t *testing.T) {
	path := os.Getenv("AUDIT_HELPER_PATH")
	if path == "" {
		t.Skip("helper process only")
	}
	n, _ := strconv.Atoi(os.Getenv("AUDIT_HELPER_N"))
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for j := range n {
		if err := w.Append(map[string]string{"id": os.Getenv("AUDIT_HELPER_ID"), "j": strconv.Itoa(j)}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenRefusesForeignFile (red team round 42): a config's audit: key naming another file
// (~/.bashrc) appended JSON lines to it, whose text a hook's reason chooses; a reason
// "$(touch …)" ran when the file was sourced. Open refuses a non-empty file whose first
// line is no record of an audit log, and takes an empty one and its own log.
func TestOpenRefusesForeignFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := filepath.Join(dir, ".bashrc")
	if err := os.WriteFile(rc, []byte("export PATH=$HOME/bin:$PATH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if w, err := Open(rc, nil); err == nil {
		w.Close()
		t.Fatal("a shell startup file was opened as an audit log")
	}
	if b, _ := os.ReadFile(rc); string(b) != "export PATH=$HOME/bin:$PATH\n" {
		t.Errorf("the file changed: %q", b)
	}
	log := filepath.Join(dir, "audit.jsonl")
	w, err := Open(log, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(map[string]string{"a": "b"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	w, err = Open(log, nil)
	if err != nil {
		t.Fatalf("reopening its own log: %v", err)
	}
	w.Close()
}

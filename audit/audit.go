// Package audit is hookcore's tamper-evident decision log: an append-only file of JSON
// lines, each carrying the SHA-256 (or, with a key, the HMAC-SHA256) of the line before it,
// so that a line changed, removed, inserted or reordered after it was written breaks the
// chain at that line. Verify finds the first such line; with a head saved elsewhere (Head),
// it also finds a cut tail.
//
// A line is
//
//	{"seq":N,"prev":"HEX","time":"RFC 3339","record":RECORD}
//
// or, when the log is keyed, the same object followed by `,"mac":"HEX"}` in place of its
// closing brace, where mac is the HMAC-SHA256 of the line without that suffix (the object
// closed with "}"). seq counts from 1; prev of line 1 is 64 zeros; prev of line N+1 is the
// hash of the exact bytes of line N, without its newline. RECORD is what the writer was
// given: for the Runner, one hookcore.Result.
//
// Several processes may append to one file at once (Claude Code runs several hook
// processes per session): each append holds an exclusive flock(2) on the file while it
// reads the last line and writes its own with one write(2) on an O_APPEND descriptor, so
// lines never interleave and the chain never forks. Standard library only.
//
// What it does not do: without a key, whoever can write the file can rewrite it whole
// with a new valid chain; a key (HOOKCORE_AUDIT_KEY) or a head saved out of the writer's
// reach is what makes rewriting detectable. Without a saved head, removing lines from the
// end is not detectable (nothing after them refers to them).
package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// KeyEnv is the environment variable whose value, when set and non-empty, keys the log:
// hashes become HMAC-SHA256 under that key and every line carries its own mac.
const KeyEnv = "HOOKCORE_AUDIT_KEY"

// MaxLine is the longest line Append writes and Verify reads, in bytes (4 MiB). A record
// whose line would be longer is replaced by a stub that says so (the event stays in the
// chain).
const MaxLine = 4 << 20

// zeroHash is prev of the first line.
var zeroHash = strings.Repeat("0", 64)

// Writer appends hash-chained lines to one file. Safe for concurrent use by goroutines of
// one process and by several processes (through flock). Its Write method takes one JSON
// value per call, so a *Writer can be hookcore.Options.AuditLog.
type Writer struct {
	mu   sync.Mutex
	f    *os.File
	key  []byte
	now  func() time.Time
	size int64  // file size after our last append, -1 unknown
	seq  int64  // seq of the last line when size is known
	last string // hash of the last line when size is known
}

// Open opens (creating it with mode 0600 if needed) the log at path for appending. key nil
// or empty: an unkeyed SHA-256 chain. Errors: the file cannot be opened, or is not a regular
// file.
func Open(path string, key []byte) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("audit log %s: not a regular file", path)
	}
	if err := ownFile(path, st.Size()); err != nil {
		f.Close()
		return nil, err
	}
	return &Writer{f: f, key: key, now: time.Now, size: -1}, nil
}

// ownFile returns an error unless the file at path, size bytes long, is empty or opens
// with a line of an audit log (a JSON object with "seq" 1 and "prev"): a config's audit:
// key or --audit naming another file (~/.bashrc) appended JSON lines to it, whose text the
// hooks' reasons choose (red team round 42: a reason "$(touch …)" ran when the file was
// sourced).
func ownFile(path string, size int64) error {
	if size == 0 {
		return nil
	}
	r, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	defer r.Close()
	buf := make([]byte, min(size, MaxLine+1))
	n, _ := io.ReadFull(r, buf)
	first, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	var h header
	if json.Unmarshal(first, &h) != nil || h.Seq != 1 || h.Prev == "" {
		return fmt.Errorf("audit log %s: the file holds something else than an audit log (its first line is no record); hookcore appends only to its own log: name a new file", path)
	}
	return nil
}

// KeyFromEnv returns the key in HOOKCORE_AUDIT_KEY, nil when it is unset or empty.
func KeyFromEnv() []byte {
	if v := os.Getenv(KeyEnv); v != "" {
		return []byte(v)
	}
	return nil
}

// Write appends one line whose record is p, which must be one JSON value (a trailing
// newline is ignored). It returns len(p) on success, so that callers that treat a Writer as
// an io.Writer see a full write. Errors: p is not valid JSON; the file cannot be locked,
// read or written.
func (w *Writer) Write(p []byte) (int, error) {
	rec := bytes.TrimRight(p, "\n")
	if !json.Valid(rec) {
		return 0, errors.New("audit log: record is not one JSON value")
	}
	if err := w.Append(json.RawMessage(rec)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Append marshals record and appends it as the next line of the chain.
func (w *Writer) Append(record any) error {
	raw, err := json.Marshal(record)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	fd := int(w.f.Fd())
	if err := flock(fd, syscall.LOCK_EX); err != nil {
		return fmt.Errorf("audit log: lock: %w", err)
	}
	defer flock(fd, syscall.LOCK_UN) //nolint:errcheck // closing the lock cannot lose data
	st, err := w.f.Stat()
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	seq, prev := w.seq, w.last
	if st.Size() != w.size { // another process appended, or first append: read the tail
		seq, prev, err = w.tail(st.Size())
		if err != nil {
			return err
		}
	}
	line := w.line(seq+1, prev, raw)
	if len(line) > MaxLine {
		stub, _ := json.Marshal(map[string]any{"truncated": true, "bytes": len(raw)})
		line = w.line(seq+1, prev, stub)
	}
	if _, err := w.f.Write(append(line, '\n')); err != nil {
		w.size = -1
		return fmt.Errorf("audit log: %w", err)
	}
	w.size = st.Size() + int64(len(line)) + 1
	w.seq = seq + 1
	w.last = w.hash(line)
	return nil
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }

func (w *Writer) line(seq int64, prev string, rec []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"seq":%d,"prev":%q,"time":%q,"record":`, seq, prev, w.now().UTC().Format(time.RFC3339Nano))
	b.Write(rec)
	b.WriteByte('}')
	if len(w.key) == 0 {
		return b.Bytes()
	}
	mac := macOf(w.key, b.Bytes())
	b.Truncate(b.Len() - 1)
	fmt.Fprintf(&b, `,"mac":%q}`, mac)
	return b.Bytes()
}

func (w *Writer) hash(line []byte) string { return hashOf(w.key, line) }

// tail reads the last line of the file (size bytes long) and returns its seq and hash;
// 0 and the zero hash for an empty file. A file that does not end in a newline (a torn
// write) gets one first, so that the torn line stays visible to Verify instead of being
// glued to ours.
func (w *Writer) tail(size int64) (int64, string, error) {
	if size == 0 {
		return 0, zeroHash, nil
	}
	r, err := os.Open(w.f.Name())
	if err != nil {
		return 0, "", fmt.Errorf("audit log: %w", err)
	}
	defer r.Close()
	last, err := lastLine(r, size)
	if err != nil {
		return 0, "", err
	}
	if last.torn {
		if _, err := w.f.Write([]byte{'\n'}); err != nil {
			return 0, "", fmt.Errorf("audit log: %w", err)
		}
	}
	// A last line that is not ours (torn or foreign) still gets chained on: its seq reads
	// as 0, and Verify reports the break there.
	var h header
	_ = json.Unmarshal(last.text, &h)
	return h.Seq, hashOf(w.key, last.text), nil
}

type lastLineResult struct {
	text []byte
	torn bool // the file did not end with a newline
}

// lastLine reads backwards from size to find the last line.
func lastLine(r io.ReaderAt, size int64) (lastLineResult, error) {
	var res lastLineResult
	end := size
	one := make([]byte, 1)
	if _, err := r.ReadAt(one, size-1); err != nil {
		return res, fmt.Errorf("audit log: %w", err)
	}
	if one[0] == '\n' {
		end = size - 1
	} else {
		res.torn = true
	}
	const chunk = 64 << 10
	var buf []byte
	for pos := end; pos > 0 && int64(len(buf)) <= MaxLine; {
		n := int64(chunk)
		if pos < n {
			n = pos
		}
		b := make([]byte, n)
		if _, err := r.ReadAt(b, pos-n); err != nil && !errors.Is(err, io.EOF) {
			return res, fmt.Errorf("audit log: %w", err)
		}
		buf = append(b, buf...)
		pos -= n
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			res.text = buf[i+1:]
			return res, nil
		}
		if pos == 0 {
			res.text = buf
			return res, nil
		}
	}
	return res, errors.New("audit log: last line too long")
}

type header struct {
	Seq  int64  `json:"seq"`
	Prev string `json:"prev"`
	Mac  string `json:"mac"`
}

func hashOf(key, line []byte) string {
	if len(key) == 0 {
		s := sha256.Sum256(line)
		return hex.EncodeToString(s[:])
	}
	return macOf(key, line)
}

func macOf(key, b []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

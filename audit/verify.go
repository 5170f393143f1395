package audit

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Kind names what Verify found wrong at a line.
type Kind string

// The kinds of break Verify reports.
const (
	Changed   Kind = "changed"   // the line's bytes are not those the chain recorded
	Removed   Kind = "removed"   // one or more lines before this one are missing
	Inserted  Kind = "inserted"  // the line was not written by the chain
	Reordered Kind = "reordered" // the line is out of its place
	Malformed Kind = "malformed" // the line is not a chain line (torn write, foreign text)
	Cut       Kind = "cut"       // lines after the last one are missing (needs a head)
)

// Break is the first place where the log stops being the chain its writer wrote.
type Break struct {
	// File is the log's path: VerifyFile's path, "" for Verify.
	File string
	Line int   // 1-based line number in the file (for Cut: the last line's number)
	Seq  int64 // the seq the line carries (0 when it has none)
	Kind Kind
	// Detail says what was expected, in words.
	Detail string
}

// Error is "FILE:LINE: kind: detail", the position as the CLI's other errors give it
// (new-user trial, stop 33), or "line LINE: kind: detail" without a File.
func (b *Break) Error() string {
	if b.File != "" {
		return fmt.Sprintf("%s:%d: %s: %s", b.File, b.Line, b.Kind, b.Detail)
	}
	return fmt.Sprintf("line %d: %s: %s", b.Line, b.Kind, b.Detail)
}

// Report is what Verify found.
type Report struct {
	Lines int    // lines read
	Head  string // the head of the log as read ("SEQ:HASH"), "" for an empty log
	Keyed bool   // the lines carry macs
	Break *Break // nil: the chain is whole
}

// OK reports whether the log verified.
func (r *Report) OK() bool { return r.Break == nil }

// entry is one line as Verify sees it.
type entry struct {
	seq    int64
	prev   string
	hash   string
	macBad bool
	bad    bool // not a chain line
}

// macSuffix matches the mac field that ends a keyed line. It is compiled on first use: package
// initialisation runs in every hook process.
var macSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`,"mac":"([0-9a-f]{64})"\}$`) })

// Verify reads a whole log from r and reports the first break of its chain. key must be
// the key the log was written with (nil for an unkeyed log; a keyed log verified without
// its key is still checked as a chain, its macs unchecked). head, when not empty, is a
// head saved earlier ("SEQ:HASH", from Head or a Report): the log must still hold that line
// unchanged, and a log that ends before it was cut. The error is for reading only (I/O, a
// line over MaxLine, a malformed head); what is wrong with the log is in Report.Break.
func Verify(r io.Reader, key []byte, head string) (*Report, error) {
	var want struct {
		seq  int64
		hash string
	}
	if head != "" {
		s, h, ok := strings.Cut(head, ":")
		n, err := strconv.ParseInt(s, 10, 64)
		if !ok || err != nil || n < 1 || len(h) != 64 {
			return nil, fmt.Errorf("audit head %q: want SEQ:HASH as printed by 'hookcore audit head'", head)
		}
		want.seq, want.hash = n, h
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var es []entry
	rep := &Report{}
	for {
		line, err := readLine(br)
		if len(line) > 0 || (err == nil) {
			es = append(es, parse(line, key, &rep.Keyed))
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	rep.Lines = len(es)
	if n := len(es); n > 0 && !es[n-1].bad {
		rep.Head = fmt.Sprintf("%d:%s", es[n-1].seq, es[n-1].hash)
	}
	rep.Break = findBreak(es)
	if rep.Break == nil && want.seq > 0 {
		rep.Break = checkHead(es, want.seq, want.hash)
	}
	return rep, nil
}

// VerifyFile is Verify on the file at path.
func VerifyFile(path string, key []byte, head string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := Verify(f, key, head)
	if rep != nil && rep.Break != nil {
		rep.Break.File = path
	}
	return rep, err
}

func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		part, isPrefix, err := br.ReadLine()
		line = append(line, part...)
		if len(line) > MaxLine {
			return nil, fmt.Errorf("audit log: a line is over %d bytes", MaxLine)
		}
		if err != nil || !isPrefix {
			return line, err
		}
	}
}

func parse(line, key []byte, keyed *bool) entry {
	e := entry{hash: hashOf(key, line)}
	var h header
	if err := json.Unmarshal(line, &h); err != nil || h.Seq < 1 || len(h.Prev) != 64 {
		e.bad = true
		return e
	}
	e.seq, e.prev = h.Seq, h.Prev
	if h.Mac != "" {
		*keyed = true
		if len(key) > 0 {
			m := macSuffix().FindSubmatchIndex(line)
			if m == nil {
				e.macBad = true
				return e
			}
			body := append(bytes.Clone(line[:m[0]]), '}')
			e.macBad = !hmac.Equal([]byte(macOf(key, body)), line[m[2]:m[3]])
		}
	} else if len(key) > 0 {
		e.macBad = true // a keyed log's line without a mac was not written by the key holder
	}
	return e
}

// findBreak returns the first break of the chain es, nil when it is whole.
func findBreak(es []entry) *Break {
	for i := range es {
		e := es[i]
		if e.bad {
			return &Break{Line: i + 1, Kind: Malformed, Detail: "not a line of the chain (torn write or foreign text)"}
		}
		if e.macBad {
			return &Break{Line: i + 1, Seq: e.seq, Kind: Changed, Detail: "its mac does not match its content"}
		}
		expSeq, expPrev := int64(1), zeroHash
		if i > 0 {
			expSeq, expPrev = es[i-1].seq+1, es[i-1].hash
		}
		if e.seq == expSeq && e.prev == expPrev {
			continue
		}
		return classify(es, i, expSeq, expPrev)
	}
	return nil
}

// classify names the break at es[i], whose seq or prev is not the expected one.
func classify(es []entry, i int, expSeq int64, expPrev string) *Break {
	e := es[i]
	b := &Break{Line: i + 1, Seq: e.seq}
	// This line follows a later one: they were swapped or moved.
	for j := i + 1; j < len(es); j++ {
		if !es[j].bad && es[j].hash == e.prev {
			b.Kind, b.Detail = Reordered, fmt.Sprintf("it follows line %d in the chain", j+1)
			return b
		}
	}
	// This line continues the chain from the line before the previous one: that one is extra.
	if (i >= 2 && e.prev == es[i-2].hash && e.seq == es[i-2].seq+1) || (i == 1 && e.seq == 1 && e.prev == zeroHash) {
		b.Line, b.Seq = i, es[i-1].seq
		b.Kind, b.Detail = Inserted, fmt.Sprintf("line %d follows line %d in the chain; this line is not part of it", i+1, i-1)
		return b
	}
	// The next line continues the chain from the line before this one: this one is extra.
	if i+1 < len(es) && !es[i+1].bad && es[i+1].seq == expSeq && es[i+1].prev == expPrev {
		b.Kind, b.Detail = Inserted, fmt.Sprintf("line %d follows line %d in the chain; this line is not part of it", i+2, i)
		return b
	}
	if e.seq == expSeq {
		if i == 0 {
			b.Kind, b.Detail = Changed, "the first line's prev is not the chain's start"
			return b
		}
		b.Line, b.Seq = i, es[i-1].seq
		b.Kind, b.Detail = Changed, fmt.Sprintf("its content no longer hashes to the prev that line %d holds", i+1)
		return b
	}
	later := -1
	for j := i + 1; j < len(es); j++ {
		if !es[j].bad && es[j].seq == expSeq {
			later = j
			break
		}
	}
	switch {
	case later >= 0:
		b.Kind, b.Detail = Reordered, fmt.Sprintf("seq %d is expected here, and is at line %d", expSeq, later+1)
	case e.seq > expSeq:
		b.Kind = Removed
		if e.seq == expSeq+1 {
			b.Detail = fmt.Sprintf("seq %d is missing before it", expSeq)
		} else {
			b.Detail = fmt.Sprintf("seqs %d to %d are missing before it", expSeq, e.seq-1)
		}
	case dupSeq(es, i):
		b.Kind, b.Detail = Inserted, fmt.Sprintf("seq %d appears twice; expected %d", e.seq, expSeq)
	default:
		b.Kind, b.Detail = Reordered, fmt.Sprintf("seq %d belongs before seq %d", e.seq, expSeq-1)
	}
	return b
}

func dupSeq(es []entry, i int) bool {
	for j := range es {
		if j != i && es[j].seq == es[i].seq {
			return true
		}
	}
	return false
}

func checkHead(es []entry, seq int64, hash string) *Break {
	if len(es) == 0 || es[len(es)-1].seq < seq {
		last := int64(0)
		if len(es) > 0 {
			last = es[len(es)-1].seq
		}
		return &Break{Line: len(es), Seq: last, Kind: Cut,
			Detail: fmt.Sprintf("the saved head is seq %d; the log ends at seq %d", seq, last)}
	}
	for i, e := range es {
		if e.seq == seq {
			if e.hash != hash {
				return &Break{Line: i + 1, Seq: seq, Kind: Changed, Detail: "the line the saved head names has other content (the log was rewritten)"}
			}
			return nil
		}
	}
	return &Break{Line: 1, Kind: Changed, Detail: fmt.Sprintf("the saved head's seq %d is not in the log", seq)}
}

// Head returns the head of the log at path ("SEQ:HASH", "" for an empty log), to be saved
// out of the writer's reach and given to Verify later. It verifies the log first: the
// error names the break.
func Head(path string, key []byte) (string, error) {
	rep, err := VerifyFile(path, key, "")
	if err != nil {
		return "", err
	}
	if rep.Break != nil {
		return "", rep.Break
	}
	return rep.Head, nil
}

package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineReader yields the lines of a JSONL stream one at a time, with no length cap: a line is
// assembled from bufio.Reader.ReadSlice chunks into one buffer that is reused for the next
// line, so memory grows to the longest line and no further (Claude Code lines reach 425 KB;
// bufio.Scanner's default 64 KB cap is too small). Empty and whitespace-only lines are
// skipped. Lines pushed back with unread are returned first, in order.
type lineReader struct {
	br     *bufio.Reader
	buf    []byte
	n      int      // number of the last line returned, 1-based
	queued []queued // lines read ahead during format detection
}

type queued struct {
	data []byte
	n    int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next non-blank line without surrounding white space, and its 1-based number in
// the stream. The slice is valid until the following call. At the end it returns io.EOF; a
// last line without a newline is returned as a line.
func (l *lineReader) next() ([]byte, int, error) {
	if len(l.queued) > 0 {
		q := l.queued[0]
		l.queued = l.queued[1:]
		return q.data, q.n, nil
	}
	for {
		l.buf = l.buf[:0]
		var err error
		for {
			var chunk []byte
			chunk, err = l.br.ReadSlice('\n')
			l.buf = append(l.buf, chunk...)
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && err != io.EOF {
			return nil, l.n, err
		}
		if len(l.buf) == 0 && err == io.EOF {
			return nil, l.n, io.EOF
		}
		l.n++
		line := l.buf
		if l.n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			if err == io.EOF {
				return nil, l.n, io.EOF
			}
			continue
		}
		return line, l.n, nil
	}
}

// unread queues line, which the caller no longer uses, to be returned again after any lines
// already queued.
func (l *lineReader) unread(line []byte, n int) {
	l.queued = append(l.queued, queued{data: line, n: n})
}

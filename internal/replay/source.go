package replay

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hookcore/hookcore/transcript"
)

// source is one FILE argument, opened.
type source struct {
	name string // as given
	path string // absolute
	f    *os.File
	size int64
	cr   *countingReader
	rd   transcript.Reader
}

// openSource opens one FILE (relative to cwd) and detects its format; the error names the
// file.
func openSource(name, cwd string) (*source, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, errors.Unwrap(err))
	}
	fi, err := f.Stat()
	if err == nil && fi.IsDir() {
		err = errors.New("is a directory, not a session file")
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	cr := &countingReader{r: f}
	rd, err := transcript.NewReader(cr, transcript.Options{Path: path})
	if err != nil {
		f.Close()
		switch {
		case errors.Is(err, transcript.ErrEmpty), errors.Is(err, transcript.ErrUnrecognised):
			var what error = transcript.ErrEmpty
			if errors.Is(err, transcript.ErrUnrecognised) {
				what = fmt.Errorf("%w (expected a Claude Code transcript or a hookcore session log, JSONL)", transcript.ErrUnrecognised)
			}
			return nil, fmt.Errorf("%s: %w", name, what)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &source{name: name, path: path, f: f, size: fi.Size(), cr: cr, rd: rd}, nil
}

// countingReader counts the bytes read through it, for the progress bar.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

package replay

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress draws a progress bar on stderr while a long replay runs: only when stderr is a
// terminal, only after the replay has run for a second, at most five times a second. It
// is driven by the reading goroutine; nothing runs in the background.
type progress struct {
	w     io.Writer
	on    bool
	start time.Time
	last  time.Time
	shown bool
}

const (
	progressDelay = time.Second
	progressEvery = 200 * time.Millisecond
	progressWidth = 30
)

// update redraws the bar: file i of n, read bytes of size, events so far.
func (p *progress) update(name string, i, n int, read, size int64, events int) {
	if !p.on {
		return
	}
	now := time.Now()
	if p.start.IsZero() {
		p.start = now
	}
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	frac := 1.0
	if size > 0 {
		frac = min(float64(read)/float64(size), 1)
	}
	filled := int(frac * progressWidth)
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", progressWidth-filled)
	file := ""
	if n > 1 {
		file = fmt.Sprintf(" file %d/%d", i+1, n)
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%s] %3.0f%% %d events%s %s", bar, frac*100, events, file, cut(name, 40))
	p.shown = true
}

// clear removes the bar from the terminal line, if it is shown.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

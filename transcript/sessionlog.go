package transcript

import (
	"encoding/json"
	"errors"
	"io"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// logFormatName is the "format" value of a session log's header line.
const logFormatName = "hookcore-session-log"

// logEntry is one line of a session log (docs/session-log.md).
type logEntry struct {
	// Header line fields.
	Format  string `json:"format"`
	Version int    `json:"version"`

	Event  *string         `json:"event"`
	Time   string          `json:"time"`
	Input  json.RawMessage `json:"input"`
	Result json.RawMessage `json:"result"`
}

// logReader reads the reference agent's session log: one event per line, already in the
// shape of a hook input, so it is passed through.
type logReader struct {
	lr     *lineReader
	file   string
	opts   Options
	closer io.Closer
	stats  Stats
}

func newLogReader(lr *lineReader, file string, opts Options, closer io.Closer) *logReader {
	r := &logReader{lr: lr, file: file, opts: opts, closer: closer}
	r.stats.Format = SessionLog
	r.stats.Files = 1
	return r
}

func (r *logReader) Stats() Stats { return r.stats.clone() }

func (r *logReader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

var (
	errNoEvent = errors.New(`session log entry has no "event"`)
	errNoInput = errors.New(`session log entry "input" is not a JSON object`)
)

// Next returns the next entry's event. The header line and entries of an unknown event are
// skipped and counted; malformed lines too, unless Options.Strict is set. An entry's input
// keeps every field it has; hook_event_name is set to the canonical event name.
func (r *logReader) Next() (*Event, error) {
	for {
		data, n, err := r.lr.next()
		if err != nil {
			return nil, err // io.EOF at the end
		}
		r.stats.Lines++
		ev, kind, err := r.parse(data, n)
		if err != nil {
			if r.opts.Strict {
				return nil, &LineError{File: r.file, Line: n, Err: err}
			}
			r.stats.skip("malformed", r.file, n)
			continue
		}
		r.stats.kind(kind)
		if ev == nil {
			if kind != "header" {
				r.stats.skip(kind, r.file, n)
			}
			continue
		}
		ev.Index = r.stats.Events
		r.stats.Events++
		if ev.Event == hook.PreToolUse {
			r.stats.ToolCalls++
		}
		return ev, nil
	}
}

// parse decodes one line. It returns a nil event for the header and for unknown events,
// with the line's kind: "header", or the event name as written.
func (r *logReader) parse(data []byte, n int) (*Event, string, error) {
	if data[0] != '{' {
		return nil, "", errNotObject
	}
	var e logEntry
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, "", err
	}
	if e.Event == nil {
		if e.Format == logFormatName {
			return nil, "header", nil
		}
		return nil, "", errNoEvent
	}
	if len(e.Input) == 0 || e.Input[0] != '{' {
		return nil, "", errNoInput
	}
	name, ok := hook.ParseEvent(*e.Event)
	if !ok {
		return nil, *e.Event, nil
	}
	in := new(hook.Input)
	if err := json.Unmarshal(e.Input, in); err != nil {
		return nil, "", err
	}
	in.HookEventName = string(name)
	if r.opts.TranscriptPath != "" {
		in.TranscriptPath = r.opts.TranscriptPath
	}
	t, _ := time.Parse(time.RFC3339Nano, e.Time)
	ev := &Event{Event: name, Input: in, Time: t, File: r.file, Line: n}
	if len(e.Result) > 0 && string(e.Result) != "null" {
		ev.Result = e.Result
	}
	return ev, string(name), nil
}

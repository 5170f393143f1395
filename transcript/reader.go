package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/hookcore/hookcore/hook"
)

// Event is one hook event derived from a recorded session, in firing order.
type Event struct {
	// Event is the canonical event name; it equals Input.HookEventName.
	Event hook.Event
	// Input is the payload a live agent would have sent to the event's hooks. The reader
	// allocates a new Input per event; the caller owns it.
	Input *hook.Input
	// Index is the event's 0-based position in the sequence.
	Index int
	// Time is the timestamp of the line the event was derived from; zero when the line had
	// none (SessionEnd, which no line records).
	Time time.Time
	// File and Line locate that line: the file's path and its 1-based line number. A
	// sub-agent's events point into the sub-agent's file; SubagentStart points at the Agent
	// call's tool_use line. File is "" and Line 0 for SessionEnd.
	File string
	Line int
	// Result is the recorded outcome of the event's hooks (a hook.Result as JSON), present
	// only in session logs that recorded one; nil for Claude Code transcripts.
	Result json.RawMessage
}

// Reader yields the events of one recorded session. It is not safe for concurrent use.
type Reader interface {
	// Next returns the next event, or io.EOF after the last one. Any other error is fatal:
	// an I/O error, or a *LineError for a malformed line when Options.Strict is set.
	// Next never panics on bad input; lines it cannot use are skipped and counted in Stats.
	Next() (*Event, error)
	// Stats returns what has been read so far.
	Stats() Stats
	// Close closes the files the reader opened; it does not close a reader passed to
	// NewReader.
	Close() error
}

// Format names a session file format.
type Format string

const (
	// ClaudeCode is a Claude Code session transcript
	// (~/.claude/projects/<slug>/<session-id>.jsonl), docs/transcript.md.
	ClaudeCode Format = "claude-code"
	// SessionLog is the reference agent's own session log, docs/session-log.md.
	SessionLog Format = "session-log"
)

// Stats counts what a Reader has read so far, over the main file and every sub-agent file.
type Stats struct {
	Format Format
	// Files is the number of files read: the main file plus each sub-agent transcript.
	Files int
	// Lines is the number of non-empty lines read.
	Lines int
	// Events is the number of events returned by Next.
	Events int
	// ToolCalls counts tool calls (tool_use blocks, or PreToolUse entries of a session log).
	ToolCalls int
	// Kinds counts every line by kind: the line's type, refined as attachment/<type>,
	// system/<subtype>, assistant/<block type> and user/prompt|tool_result|meta|
	// compact_summary|other (the kinds of the shared sessions README). Session logs count
	// entries by event name.
	Kinds map[string]int
	// Skipped counts lines that were not used because they are malformed or of an unknown
	// kind; SkippedKinds breaks them down by kind ("malformed" for lines that are not a JSON
	// object). Known kinds that simply produce no event are not skipped.
	Skipped      int
	SkippedKinds map[string]int
	// FirstMalformed is "file:line" of the first malformed line, "" when there was none.
	FirstMalformed string
	// Orphans counts tool results whose tool_use was never seen.
	Orphans int
	// MissingSubagents counts sub-agents whose transcript file was not found; their
	// SubagentStart and SubagentStop are still produced, with nothing in between.
	MissingSubagents int
	// MissingSubagentPaths are the files looked for, in order, one per missing sub-agent:
	// <Options.SubagentDir>/agent-<agentId>.jsonl, by default beside the transcript in
	// <Path without .jsonl>/subagents, where Claude Code writes them.
	MissingSubagentPaths []string
}

// clone returns a copy of s that shares no map with it.
func (s *Stats) clone() Stats {
	c := *s
	c.Kinds = maps.Clone(s.Kinds)
	c.SkippedKinds = maps.Clone(s.SkippedKinds)
	c.MissingSubagentPaths = slices.Clone(s.MissingSubagentPaths)
	return c
}

func (s *Stats) kind(k string) {
	if s.Kinds == nil {
		s.Kinds = make(map[string]int)
	}
	s.Kinds[k]++
}

func (s *Stats) skip(k, file string, line int) {
	s.Skipped++
	if s.SkippedKinds == nil {
		s.SkippedKinds = make(map[string]int)
	}
	s.SkippedKinds[k]++
	if k == "malformed" && s.FirstMalformed == "" {
		s.FirstMalformed = fmt.Sprintf("%s:%d", file, line)
	}
}

// Options configure a Reader. The zero value works.
type Options struct {
	// TranscriptPath is the transcript_path every event's input carries. For a Claude Code
	// transcript the default is the path given to Open (for NewReader: Path); a session log's
	// inputs keep the transcript_path they recorded unless this is set. To compare with what the real client sent,
	// pass the path it used, such as
	// /home/dev/.claude/projects/-home-dev-project/<session-id>.jsonl.
	TranscriptPath string
	// Path is the file's location for NewReader, used to find sub-agent transcripts and as
	// the default TranscriptPath and Event.File. Open sets it to its argument.
	Path string
	// SubagentDir is the folder holding a Claude Code session's sub-agent transcripts
	// (agent-<agentId>.jsonl and .meta.json). The default is <Path without .jsonl>/subagents,
	// where Claude Code writes them.
	SubagentDir string
	// EndReason is SessionEnd's reason; the transcript does not record it. Default "other",
	// which is what Claude Code 2.1.332 sent when a print-mode session ended.
	EndReason string
	// Strict makes a malformed line a fatal *LineError instead of a skipped and counted line.
	Strict bool
}

// ErrUnrecognised is returned (wrapped, with the file name) by Open and NewReader when the
// content is neither a Claude Code transcript nor a session log: binary data, plain text,
// JSON that is not a JSONL stream of objects of either format.
var ErrUnrecognised = errors.New("not a recognised session format")

// ErrEmpty is returned (wrapped, with the file name) by Open and NewReader for a file that
// has no non-blank line.
var ErrEmpty = errors.New("empty session file")

// LineError is a malformed line in Strict mode.
type LineError struct {
	File string
	Line int // 1-based
	Err  error
}

// Error returns "file:line: cause".
func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the decoding error.
func (e *LineError) Unwrap() error { return e.Err }

// Open opens a recorded session and returns a Reader for its format, detected from the
// content (the first decodable lines), never from the file name. Errors: the os.Open error,
// ErrEmpty, ErrUnrecognised (both wrapped with the path). The caller must Close the Reader.
func Open(path string, opts Options) (Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	opts.Path = path
	r, err := newReader(f, opts, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// NewReader is Open for a stream that is already open (stdin, a pipe). Sub-agent
// transcripts are found next to opts.Path when it is set.
func NewReader(r io.Reader, opts Options) (Reader, error) {
	return newReader(r, opts, nil)
}

func newReader(r io.Reader, opts Options, closer io.Closer) (Reader, error) {
	name := opts.Path
	if name == "" {
		name = "<stream>"
	}
	if opts.EndReason == "" {
		opts.EndReason = "other"
	}
	lr := newLineReader(r)
	format, err := detect(lr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch format {
	case SessionLog:
		return newLogReader(lr, name, opts, closer), nil
	default:
		if opts.TranscriptPath == "" {
			opts.TranscriptPath = opts.Path
		}
		return newClaudeReader(lr, name, opts, closer), nil
	}
}

// ReadAll reads every event of the session at path. It suits small files and tests; use
// Open and Next to stream a large one.
func ReadAll(path string, opts Options) ([]*Event, Stats, error) {
	r, err := Open(path, opts)
	if err != nil {
		return nil, Stats{}, err
	}
	defer r.Close()
	var out []*Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return out, r.Stats(), nil
		}
		if err != nil {
			return out, r.Stats(), err
		}
		out = append(out, ev)
	}
}

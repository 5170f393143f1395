package transcript

import (
	"bytes"
	"encoding/json"
	"io"
)

// detectLines is how many non-empty lines detect reads at most before giving up.
const detectLines = 8

// probe holds the keys that tell the formats apart.
type probe struct {
	Type      *string         `json:"type"`
	SessionID string          `json:"sessionId"`
	UUID      string          `json:"uuid"`
	Event     *string         `json:"event"`
	Input     json.RawMessage `json:"input"`
	Format    string          `json:"format"`
}

// detect decides the format from the content: the first bytes must start a JSON object and
// hold no NUL byte (so binary files fail fast, without reading a "line" of many megabytes);
// then the first line among the first detectLines non-empty ones that decodes as a JSON
// object decides. A session log line has "event" and "input" (or is the header, "format":
// "hookcore-session-log"); a Claude Code line has a string "type" and a "sessionId" or
// "uuid", or a type Claude Code writes. The lines read are pushed back into lr.
func detect(lr *lineReader) (Format, error) {
	head, _ := lr.br.Peek(512)
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(head, 0) >= 0 {
		return "", ErrUnrecognised
	}
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] != '{' {
		return "", ErrUnrecognised
	}
	var read [][]byte
	var nums []int
	defer func() {
		for i := range read {
			lr.unread(read[i], nums[i])
		}
	}()
	for len(read) < detectLines {
		line, n, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		read = append(read, bytes.Clone(line))
		nums = append(nums, n)
		var p probe
		if line[0] != '{' || json.Unmarshal(line, &p) != nil {
			continue
		}
		switch {
		case p.Format == logFormatName || (p.Event != nil && len(p.Input) > 0):
			return SessionLog, nil
		case p.Type != nil && (p.SessionID != "" || p.UUID != "" || claudeKinds()[*p.Type]):
			return ClaudeCode, nil
		default:
			return "", ErrUnrecognised
		}
	}
	if len(read) == 0 {
		return "", ErrEmpty
	}
	return "", ErrUnrecognised
}

package command

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Claude Code's CLAUDE_ENV_FILE (research note §2.6): SessionStart, Setup, CwdChanged and
// FileChanged hooks get the path of a file they may append `export` lines to; the agent
// sources every such file of the session before each later Bash command. Observed with
// Claude Code 2.1.332 (peer-claude: a SessionStart hook appends
// `export FOO_FROM_HOOK=bar-from-sessionstart` to "$CLAUDE_ENV_FILE", then the Bash call
// `echo "foo=$FOO_FROM_HOOK"` printed foo=bar-from-sessionstart): the file is
// ~/.claude/session-env/<session id>/sessionstart-hook-0.sh.

// EnvFileEvents are the events whose command hooks get CLAUDE_ENV_FILE.
var EnvFileEvents = []string{"SessionStart", "Setup", "CwdChanged", "FileChanged"}

// SessionEnvDir returns the directory of session's env files under dir:
// dir/<session id>, the id with every byte outside [A-Za-z0-9._-] replaced by '_' (an id
// such as "../x" stays one path element under dir). It is "" when dir or session is "".
func SessionEnvDir(dir, session string) string {
	if dir == "" || session == "" {
		return ""
	}
	b := []byte(session)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	s := string(b)
	if strings.Trim(s, ".") == "" {
		s = strings.Repeat("_", len(s))
	}
	return filepath.Join(dir, s)
}

// SessionEnvFiles returns the env files the hooks of session wrote under dir (see
// SessionEnvDir), non-empty *.sh files in name order; nil when there are none. The agent
// sources them before each Bash command.
func SessionEnvFiles(dir, session string) []string {
	d := SessionEnvDir(dir, session)
	if d == "" {
		return nil
	}
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil
	}
	var files []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".sh") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Size() > 0 {
			files = append(files, filepath.Join(d, e.Name()))
		}
	}
	sort.Strings(files)
	return files
}

// envFile returns the CLAUDE_ENV_FILE of this run, creating its directory, or "" when the
// hook gets none (no EnvFileDir, no session id, or the directory cannot be made).
func (c *Command) envFile(session string) string {
	if c.EnvFileDir == "" || c.EnvFileName == "" {
		return ""
	}
	d := SessionEnvDir(c.EnvFileDir, session)
	if d == "" || os.MkdirAll(d, 0o700) != nil {
		return ""
	}
	return filepath.Join(d, c.EnvFileName)
}

package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hookcore/hookcore/internal/replay"
	"github.com/hookcore/hookcore/internal/text"
	"github.com/hookcore/hookcore/state"
)

// This file holds what the hook command shares with the other commands: it is compiled in
// every build, the lean hook binary's (-tags hookcore_lean) included.

// maxInput caps the event input fire reads (bytes). Claude Code's largest inputs carry a
// tool response cut at tens of KB; decoding costs about 8 bytes of memory per input byte.
const maxInput = 64 << 20

// relativize shortens an absolute path under cwd at the start of a message, so that
// messages read like compiler errors (.hookcore/hooks.yaml:3:12: ...).
func relativize(msg, cwd string) string {
	prefix := cwd + string(filepath.Separator)
	if strings.HasPrefix(msg, prefix) {
		return msg[len(prefix):]
	}
	return msg
}

// cwds returns the fixer of the hook input's cwd that fire, hook and serve use (replay has
// its own, which speaks of the recorded directory): a cwd that does not exist on this
// machine is replaced by the command's own, with a note on stderr (once per directory), so
// that command hooks can start.
func (e *env) cwds() *replay.CwdFixer { return replay.NewInputCwdFixer(e.cwd, e.stderr) }

// stateDirPath resolves the state directory: dir, $HOOKCORE_STATE_DIR, ~/.hookcore/state.
func (e *env) stateDirPath(dir string) (string, error) {
	from := "--state-dir"
	if dir == "" {
		if os.Getenv("HOOKCORE_STATE_DIR") == "" && e.home == "" {
			return "", errors.New("no state directory (set HOOKCORE_STATE_DIR or HOME)")
		}
		from = "HOOKCORE_STATE_DIR"
		if os.Getenv(from) == "" {
			from = "HOME"
		}
		dir = state.DefaultDir(os.Getenv, e.home)
	}
	if !filepath.IsAbs(dir) {
		// Taken from the working directory it was a directory of the project, where the
		// agent can edit the state of once hooks and tripwires (red team round 65), as a
		// relative HOME made the project's files the user's own policy.
		return "", fmt.Errorf("the state directory %q (from %s) is not an absolute path: hookcore would keep its per-session state in the working directory, which the agent can edit; a project's settings env may have set it", dir, from)
	}
	return dir, nil
}

// oneLine returns s without leading and trailing white space, made printable (line breaks
// and tabs become spaces, other control characters escapes), cut to max runes with an
// ellipsis.
func oneLine(s string, max int) string {
	s = text.Printable(strings.TrimSpace(s))
	if utf8.RuneCountInString(s) > max {
		return text.Truncate(s, max-1, "…")
	}
	return s
}

// executableFile reports whether path is a regular file someone may execute (the lean hook
// binary beside hookcore, for install; the full hookcore beside hookcore-hook, for a
// hand-over).
func executableFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

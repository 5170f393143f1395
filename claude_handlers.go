package hookcore

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// Claude Code's default timeouts (research note §2.5, table row 15), for hooks loaded from
// Claude Code settings files: 600 s for command and http hooks (30 s on UserPromptSubmit,
// 10 s on MessageDisplay), 30 s for prompt and 60 s for agent hooks; SessionEnd hooks share
// a budget of 1.5 s, raised to the largest SessionEnd `timeout` set in settings files (at
// most 60 s), or CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS when set. Other dialects keep the
// executors' defaults (DESIGN.md section 6).
const (
	claudeCommandTimeout    = 600 * time.Second
	claudePromptTimeout     = 30 * time.Second
	claudeAgentTimeout      = 60 * time.Second
	claudeUserPromptTimeout = 30 * time.Second
	claudeMessageTimeout    = 10 * time.Second
	claudeSessionEndBudget  = 1500 * time.Millisecond
	claudeSessionEndMax     = 60 * time.Second
)

// claudeTimeout returns the timeout of a Claude Code hook h whose configured timeout is
// set (0 when not), with sessionEnd the SessionEnd budget of the set.
func claudeTimeout(h *config.Hook, set time.Duration, sessionEnd time.Duration) time.Duration {
	if h.Event == hook.SessionEnd {
		if set == 0 || set > sessionEnd {
			return sessionEnd
		}
		return set
	}
	if set != 0 {
		return set
	}
	switch h.Action.Type {
	case config.TypePrompt:
		return claudePromptTimeout
	case config.TypeAgent:
		return claudeAgentTimeout
	}
	switch h.Event {
	case hook.UserPromptSubmit:
		return claudeUserPromptTimeout
	case "MessageDisplay":
		return claudeMessageTimeout
	}
	return claudeCommandTimeout
}

// sessionEndBudget is the SessionEnd budget of set's Claude Code hooks (see above); env is
// the hooks' base environment, for CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS (milliseconds).
func sessionEndBudget(set *config.Set, env []string) time.Duration {
	if env == nil {
		env = os.Environ()
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS="); ok {
			if ms, err := strconv.Atoi(v); err == nil && ms > 0 {
				return time.Duration(ms) * time.Millisecond
			}
			break
		}
	}
	budget := claudeSessionEndBudget
	if set == nil {
		return budget
	}
	for _, f := range set.Files {
		if f.PluginRoot != "" { // plugin timeouts do not count
			continue
		}
		for i := range f.Hooks {
			h := &f.Hooks[i]
			if h.Dialect == config.Nested && h.Event == hook.SessionEnd && h.EffectiveTimeout() > budget {
				budget = h.EffectiveTimeout()
			}
		}
	}
	return min(budget, claudeSessionEndMax)
}

// envFileName is the CLAUDE_ENV_FILE name of hook h of f: the event, a digest of the
// file's path and the hook's index, so no two hooks of a Runner share one file.
func envFileName(h *config.Hook, f *config.File) string {
	sum := sha256.Sum256([]byte(f.Path))
	return fmt.Sprintf("%s-hook-%x-%d.sh", strings.ToLower(string(h.Event)), sum[:4], h.Index)
}

//go:build hookcore_lean

package hookcore

import (
	"fmt"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
)

// netClient stands for net/http's client in a build without net/http (-tags
// hookcore_lean, the lean hook binary cmd/hookcore-hook): Options.HTTPClient and
// ExecutorEnv.HTTPClient are then always nil.
type netClient = struct{}

// guardedClient returns no client: this build has no net/http.
func (r *Runner) guardedClient([]string) (*netClient, error) { return nil, nil }

// httpExecutor is an executor that fails: this build does not link the http executor. The
// lean hook binary hands a config with http hooks to the full hookcore before it gets here.
func (r *Runner) httpExecutor(h *config.Hook, _ time.Duration) (hook.Executor, string, error) {
	return failing(fmt.Errorf("http hook %q: %w: this program was built without net/http (-tags hookcore_lean); the full hookcore binary runs http hooks", h.ID, hook.ErrNotStarted)), h.Action.URL, nil
}

package cli

import (
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/config"
)

// pluginFiles loads the hooks of the Claude Code plugins that the JSON files among paths
// enable (`enabledPlugins`), from home's ~/.claude/plugins (config.FindPlugins), as
// User-layer files after the settings layers. Claude Code runs a plugin's hooks while it is
// enabled; only plugins installed under the user's home can be enabled.
func pluginFiles(paths []config.LayerPath, home string) ([]*config.File, config.ErrorList) {
	if home == "" {
		return nil, nil
	}
	var settings []string
	for _, p := range paths {
		if strings.HasSuffix(p.Path, ".json") {
			settings = append(settings, p.Path)
		}
	}
	keys := config.EnabledPlugins(settings)
	if len(keys) == 0 {
		return nil, nil
	}
	return config.LoadPlugins(config.FindPlugins(filepath.Join(home, ".claude", "plugins"), keys))
}

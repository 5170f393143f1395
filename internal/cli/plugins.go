package cli

import (
	"path/filepath"

	"github.com/hookcore/hookcore/config"
)

// pluginFiles loads the hooks of the Claude Code plugins that the JSON files among files
// enable (`enabledPlugins`, config.EnabledPluginsOf: the project and local layers count only
// when projectTrusted), from home's ~/.claude/plugins (config.FindPlugins), as User-layer
// files after the settings layers. Claude Code runs a plugin's hooks while it is enabled;
// only plugins installed under the user's home can be enabled.
func pluginFiles(files []*config.File, home string, projectTrusted bool) ([]*config.File, config.ErrorList) {
	if home == "" {
		return nil, nil
	}
	keys := config.EnabledPluginsOf(files, projectTrusted)
	if len(keys) == 0 {
		return nil, nil
	}
	return config.LoadPlugins(config.FindPlugins(filepath.Join(home, ".claude", "plugins"), keys))
}

package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// Claude Code plugins (issue 8 item 6). Observed with Claude Code 2.1.332 (peer-claude: a
// plugin guard of a directory marketplace "local", enabled by `"enabledPlugins":
// {"guard@local": true}` in the project settings, whose hooks/hooks.json has a PreToolUse
// Bash hook): its hooks run with CLAUDE_PLUGIN_ROOT = the plugin's directory,
// ~/.claude/plugins/marketplaces/local/guard, and CLAUDE_PLUGIN_DATA =
// ~/.claude/plugins/data/guard-local, and ${CLAUDE_PLUGIN_ROOT}/${CLAUDE_PLUGIN_DATA} are
// substituted in an exec-form hook. Claude Code reads ~/.claude/plugins/installed_plugins.json
// ({"version": 2, "plugins": {"name@marketplace": [{"installPath": ...}]}}) and
// known_marketplaces.json ({"name": {"installLocation": ...}}), whose
// .claude-plugin/marketplace.json names each plugin's `source` directory.

// Plugin is one enabled Claude Code plugin with hooks.
type Plugin struct {
	// Key is "name@marketplace" as enabledPlugins spells it.
	Key string
	// Root is the plugin's directory (CLAUDE_PLUGIN_ROOT); Data its data directory
	// (CLAUDE_PLUGIN_DATA), ~/.claude/plugins/data/<name>-<marketplace>.
	Root, Data string
	// HooksFile is the file that holds its hooks: hooks/hooks.json, or
	// .claude-plugin/plugin.json with inline `hooks` (a string there names the file).
	HooksFile string
}

// EnabledPlugins returns the keys of the plugins that the Claude Code settings files among
// settings enable (`enabledPlugins: {"name@marketplace": bool}`; a version constraint
// object or array counts as enabled), in sorted order. Only files whose path ends in .json
// are read; those that do not exist or are not JSON objects are passed over (their own load
// reports them).
//
// The layers are merged in Claude Code's order of precedence, lowest first, a later choice
// overriding an earlier one: User, then Project and Local, then Explicit (--settings,
// --config), then Managed. So a managed choice is final: no other layer can switch off a
// plugin the administrator enables (nor enable one it disables). Project and Local files
// count only when projectTrusted (the workspace's trust gate, as for the project's own
// hooks, hookcore.TrustDigest): an untrusted repository must not switch off the user's
// guard plugin, nor switch on a plugin the user disabled. Once trusted, a project choice
// overrides the user's, as Claude Code's project settings override user settings
// (docs/decisions.md, "A repository's enabledPlugins").
func EnabledPlugins(settings []LayerPath, projectTrusted bool) []string {
	var choices []pluginChoice
	for _, p := range settings {
		if !strings.HasSuffix(p.Path, ".json") {
			continue
		}
		b, _, err := ReadFile(p.Path) // a repository's settings: never a hang on a named pipe
		if err != nil || !isJSONObject(b) {
			continue
		}
		// The one value, not the whole file (often kilobytes of permission rules, read
		// at every hook event: issue 9); the key exactly and its last occurrence, as
		// Claude Code's JSON.parse reads it.
		if raw, ok := topJSONValue(b, "enabledPlugins"); ok {
			choices = append(choices, pluginChoice{p.Layer, raw})
		}
	}
	return mergePlugins(choices, projectTrusted)
}

// EnabledPluginsOf is EnabledPlugins over files already parsed (Load): the enabledPlugins
// each .json file held when it was read, so a hook process reads and checks its settings
// files once (issue 9). A file behind a UTF-8 byte order mark counts, as Claude Code reads it.
func EnabledPluginsOf(files []*File, projectTrusted bool) []string {
	var choices []pluginChoice
	for _, f := range files {
		if f.hasEnabledPlugins {
			choices = append(choices, pluginChoice{f.Layer, f.enabledPlugins})
		}
	}
	return mergePlugins(choices, projectTrusted)
}

// pluginChoice is one file's enabledPlugins value and the file's layer.
type pluginChoice struct {
	layer Layer
	raw   []byte
}

// mergePlugins merges the choices in Claude Code's order of precedence (see
// EnabledPlugins) and returns the enabled keys, sorted.
func mergePlugins(choices []pluginChoice, projectTrusted bool) []string {
	on := map[string]bool{}
	for _, layer := range []Layer{User, Project, Local, Explicit, Managed} {
		if (layer == Project || layer == Local) && !projectTrusted {
			continue
		}
		for _, c := range choices {
			var enabled map[string]json.RawMessage
			if c.layer != layer || json.Unmarshal(c.raw, &enabled) != nil {
				continue
			}
			for k, v := range enabled {
				on[k] = string(v) == "true" // false or a version constraint object
				if strings.HasPrefix(string(v), "[") || strings.HasPrefix(string(v), "{") {
					on[k] = true
				}
			}
		}
	}
	var keys []string
	for k, v := range on {
		if v {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// FindPlugins resolves enabled plugin keys under pluginsDir (~/.claude/plugins) and returns
// those that have hooks, in the order of keys. A plugin's directory is its
// installed_plugins.json installPath when that exists, else its marketplace's
// installLocation joined with the marketplace entry's relative source; a key that resolves
// to no directory is left out.
func FindPlugins(pluginsDir string, keys []string) []Plugin {
	var installed struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	readJSON(filepath.Join(pluginsDir, "installed_plugins.json"), &installed)
	var markets map[string]struct {
		InstallLocation string `json:"installLocation"`
	}
	readJSON(filepath.Join(pluginsDir, "known_marketplaces.json"), &markets)
	var out []Plugin
	for _, key := range keys {
		name, market, ok := strings.Cut(key, "@")
		if !ok || name == "" || market == "" {
			continue
		}
		root := ""
		for _, in := range installed.Plugins[key] {
			if isDir(in.InstallPath) {
				root = in.InstallPath
				break
			}
		}
		if root == "" {
			root = marketplaceSource(markets[market].InstallLocation, name)
		}
		if root == "" {
			continue
		}
		p := Plugin{Key: key, Root: root, Data: filepath.Join(pluginsDir, "data", name+"-"+market)}
		if p.HooksFile = pluginHooksFile(root); p.HooksFile != "" {
			out = append(out, p)
		}
	}
	return out
}

// marketplaceSource is the directory of plugin name in the marketplace at loc, from its
// .claude-plugin/marketplace.json (a relative string `source` only), or "".
func marketplaceSource(loc, name string) string {
	if loc == "" {
		return ""
	}
	var m struct {
		Plugins []struct {
			Name   string          `json:"name"`
			Source json.RawMessage `json:"source"`
		} `json:"plugins"`
	}
	readJSON(filepath.Join(loc, ".claude-plugin", "marketplace.json"), &m)
	for _, p := range m.Plugins {
		var src string
		if p.Name != name || json.Unmarshal(p.Source, &src) != nil || filepath.IsAbs(src) {
			continue
		}
		dir := filepath.Join(loc, src)
		if rel, err := filepath.Rel(loc, dir); err == nil && !strings.HasPrefix(rel, "..") && isDir(dir) {
			return dir
		}
	}
	return ""
}

// pluginHooksFile returns the file with root's hooks: hooks/hooks.json, else plugin.json
// when its `hooks` is an object, else the file its `hooks` string names (inside root).
func pluginHooksFile(root string) string {
	if f := filepath.Join(root, "hooks", "hooks.json"); isFile(f) {
		return f
	}
	manifest := filepath.Join(root, ".claude-plugin", "plugin.json")
	var m struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if !readJSON(manifest, &m) || len(m.Hooks) == 0 {
		return ""
	}
	var rel string
	if json.Unmarshal(m.Hooks, &rel) == nil {
		f := filepath.Join(root, rel)
		if r, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(r, "..") && isFile(f) {
			return f
		}
		return ""
	}
	if strings.HasPrefix(strings.TrimSpace(string(m.Hooks)), "{") {
		return manifest
	}
	return ""
}

// LoadPlugins parses the hooks files of plugins as User-layer Claude Code files with
// PluginRoot and PluginData set.
func LoadPlugins(plugins []Plugin) ([]*File, ErrorList) {
	var files []*File
	var probs ErrorList
	for _, p := range plugins {
		f, ps := ParseFile(p.HooksFile, User)
		probs = append(probs, ps...)
		f.PluginRoot, f.PluginData = p.Root, p.Data
		f.Plugin, _, _ = strings.Cut(p.Key, "@")
		files = append(files, f)
	}
	return files, probs
}

func readJSON(path string, v any) bool {
	b, _, err := regularfile.Read(path, MaxMCPFile)
	return err == nil && json.Unmarshal(b, v) == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return p != "" && err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

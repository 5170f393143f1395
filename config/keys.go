package config

import "slices"

// NativeHookKeys returns the keys of a hook entry in the native (MiniCode YAML) dialect, in
// the canonical spelling; ActionKeys those of its action mapping; TopKeys the top-level keys
// of every dialect. The JSON Schema of the native config (hookcore schema config) is built
// from these lists, so a new key cannot be left out of it.
func NativeHookKeys() []string { return slices.Clone(nativeKeys) }

// ActionKeys: see NativeHookKeys.
func ActionKeys() []string { return slices.Clone(actionKeys) }

// TopKeys: see NativeHookKeys. "$schema" is also accepted (and ignored) at the top level, so
// that editors can find the schema.
func TopKeys() []string { return slices.Clone(topKeys) }

package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
)

// Gemini CLI extensions (stop 31). An extension is a directory of
// ~/.gemini/extensions/ with a gemini-extension.json ({"name", "version", ...}); its hooks
// are in hooks/hooks.json, shaped as the `hooks` of Gemini's settings.json:
//
//	{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command",
//	  "command": "${extensionPath}${/}guard.sh"}]}]}}
//
// Observed with Gemini CLI 0.61.0 (peer-gemini; docs/decisions.md, "Gemini CLI extensions'
// hooks (stop 31)"), and what geminiExtensions reproduces:
//   - every directory of ~/.gemini/extensions is an extension, in lexical order; one whose
//     gemini-extension.json is missing, is not a JSON object, lacks a name or a version, or
//     has a name of other characters than letters, digits and dashes is skipped with a
//     warning, as Gemini CLI skips it;
//   - a directory whose .gemini-extension-install.json says {"type": "link", "source": DIR}
//     is the extension DIR (`gemini extensions link`): its manifest and hooks are read
//     there, and ${extensionPath} is DIR;
//   - ~/.gemini/extensions/extension-enablement.json ({"NAME": {"overrides": ["!/a/b/*",
//     "/a/b/c/"]}}) disables an extension for a working directory: the last rule that
//     matches the directory decides, "!" disables, a trailing "*" takes its subdirectories
//     in; no rule: enabled. A file Gemini CLI cannot read as that shape enables every
//     extension (a warning);
//   - only the `hooks` key of hooks.json counts (events at the top level run nothing, a
//     warning), and it is JSON (no comments);
//   - a malformed hook (a type other than command, a command hook without a command), a
//     definition without a hooks list, an unknown event or one whose definitions are not a
//     list is discarded and the others are registered (stop 32): Load keeps the file, the
//     entry Broken or the problem an error of the file, which the CLI reports as a warning
//     (hookcore.ExtensionFile);
//   - ${extensionPath}, ${workspacePath} (the working directory), ${/} and ${pathSeparator}
//     are replaced in every string value under `hooks`; any other ${NAME} stays as written;
//   - the hooks run after those of every settings file (Gemini CLI sorts its settings'
//     hooks before its extensions'), with the same input, environment and replies as
//     settings hooks, and hooksConfig (enabled, disabled) switches them off too.
//
// Not reproduced: an extension's `settings` (values from its .env or the keychain, which
// Gemini CLI adds to the hydration and to the hook's environment: a warning names them),
// the -e/--extensions flag, and the settings security.allowedExtensions,
// security.blockGitExtensions and admin.extensions.enabled.

// GeminiExtension is a Gemini CLI extension whose hooks file discovery loads.
type GeminiExtension struct {
	// Name is the name its gemini-extension.json gives.
	Name string
	// Path is its directory as Gemini CLI reads it (${extensionPath}): the directory under
	// ~/.gemini/extensions, or a linked extension's source.
	Path string
	// Workspace is ${workspacePath}: the working directory.
	Workspace string
	// Settings are the envVar names of the manifest's `settings`, whose values hookcore
	// does not read (a warning).
	Settings []string
	// warning is what Load reports about the extensions' enablement file, at the hooks
	// file of the first extension.
	warning string
}

// Gemini CLI's file names (EXTENSIONS_CONFIG_FILENAME, INSTALL_METADATA_FILENAME and the
// ExtensionEnablementManager's file of Gemini CLI 0.61.0).
const (
	geminiExtManifest   = "gemini-extension.json"
	geminiExtInstall    = ".gemini-extension-install.json"
	geminiExtEnablement = "extension-enablement.json"
)

// geminiExtName is validateName's pattern (Gemini CLI 0.61.0).
var geminiExtName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9-]+$`) })

// geminiExtensions returns the candidates of the Gemini CLI extensions under home, for the
// working directory cwd: per extension its hooks/hooks.json (Extension set), or its
// manifest with Skip when Gemini CLI skips the extension; a disabled extension's hooks file
// with Off. None when ~/.gemini/extensions cannot be listed.
func (d Discovery) geminiExtensions(home, cwd string) []Candidate {
	dir := filepath.Join(home, ".gemini", "extensions")
	names, complete, err := d.fsys().Glob(dir, "*", maxDiscoveryDirNames)
	if err != nil {
		return nil
	}
	if !complete {
		return []Candidate{{LayerPath: LayerPath{Path: filepath.Join(dir, "*"), Layer: User,
			Refused: fmt.Sprintf("%s holds more than %d names; none of its extensions are loaded", dir, maxDiscoveryDirNames)}, Agent: GeminiCLI}}
	}
	var rules map[string][]string
	var rulesWarning string
	var out []Candidate
	for _, p := range names {
		if st, err := d.fsys().Stat(p); err != nil || !st.IsDir() {
			continue // extension-enablement.json, a stray file: Gemini CLI passes them over
		}
		root := p
		var install struct {
			Type   string `json:"type"`
			Source string `json:"source"`
		}
		if readJSON(filepath.Join(p, geminiExtInstall), &install) && install.Type == "link" && install.Source != "" {
			root = install.Source
		}
		manifest := filepath.Join(root, geminiExtManifest)
		inputs := []string{filepath.Join(p, geminiExtInstall), manifest, filepath.Join(dir, geminiExtEnablement)}
		name, settings, why := geminiExtManifestName(manifest)
		if why != "" {
			out = append(out, Candidate{LayerPath: LayerPath{Path: manifest, Layer: User,
				Skip: "Gemini CLI skips the extension in " + p + ", and so does hookcore: " + why}, Agent: GeminiCLI, Inputs: inputs})
			continue
		}
		if rules == nil {
			rules, rulesWarning = geminiExtRules(filepath.Join(dir, geminiExtEnablement))
		}
		c := Candidate{LayerPath: LayerPath{Path: filepath.Join(root, "hooks", "hooks.json"), Layer: User,
			Extension: &GeminiExtension{Name: name, Path: root, Workspace: cwd, Settings: settings}}, Agent: GeminiCLI, Inputs: inputs}
		if !geminiExtEnabled(rules[name], cwd) {
			c.Off = fmt.Sprintf("Gemini CLI extension %s is disabled for %s (%s)", name, cwd, filepath.Join(dir, geminiExtEnablement))
		}
		c.Extension.warning = rulesWarning
		rulesWarning = "" // once
		out = append(out, c)
	}
	return out
}

// GeminiExtensionEnablement is the file of Gemini CLI that disables extensions per directory,
// ~/.gemini/extensions/extension-enablement.json under home.
func GeminiExtensionEnablement(home string) string {
	return filepath.Join(home, ".gemini", "extensions", geminiExtEnablement)
}

// geminiExtManifestName reads an extension's gemini-extension.json and returns its name and
// the envVar names of its settings, or why Gemini CLI skips the extension
// (loadExtensionConfig, validateName).
func geminiExtManifestName(path string) (name string, settings []string, why string) {
	data, _, err := ReadFile(path)
	if err != nil {
		return "", nil, "cannot read " + path + ": " + errText(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return "", nil, path + " is not a JSON object"
	}
	n, _ := m["name"].(string)
	switch v := m["version"]; {
	case n == "":
		return "", nil, path + ` has no "name"`
	case v == nil || v == "" || v == false || v == float64(0):
		return "", nil, path + ` has no "version"`
	case !geminiExtName().MatchString(n):
		return "", nil, fmt.Sprintf("its name %q has other characters than letters, digits and dashes", n)
	}
	list, _ := m["settings"].([]any)
	for _, e := range list {
		if s, ok := e.(map[string]any); ok {
			if v, ok := s["envVar"].(string); ok && v != "" {
				settings = append(settings, v)
			}
		}
	}
	return n, settings, ""
}

// errText is err's message without the path of its *fs.PathError.
func errText(err error) string {
	if pe, ok := err.(interface{ Unwrap() error }); ok && pe.Unwrap() != nil {
		return pe.Unwrap().Error()
	}
	return err.Error()
}

// geminiExtRules reads extension-enablement.json: each extension's overrides. A file that
// does not exist has none; one that is not {"NAME": {"overrides": ["RULE", ...]}} throughout
// has none either, as Gemini CLI reads it (a zod schema: one bad entry and the whole file
// is {}), and the second result is the warning that says so. The map is never nil.
func geminiExtRules(path string) (map[string][]string, string) {
	rules := map[string][]string{}
	data, _, err := ReadFile(path)
	if err != nil {
		return rules, ""
	}
	var raw map[string]json.RawMessage
	bad := json.Unmarshal(data, &raw) != nil || raw == nil
	for name, v := range raw {
		var e struct {
			Overrides *[]string `json:"overrides"`
		}
		if json.Unmarshal(v, &e) != nil || e.Overrides == nil {
			bad = true
			break
		}
		rules[name] = *e.Overrides
	}
	if bad {
		return map[string][]string{}, path + ` is not {"NAME": {"overrides": ["RULE", ...]}}: Gemini CLI, and hookcore, enable every extension`
	}
	return rules, ""
}

// geminiExtEnabled reports whether overrides enable an extension in the directory cwd
// (ExtensionEnablementManager.isEnabled of Gemini CLI 0.61.0): the last rule that matches
// decides.
func geminiExtEnabled(overrides []string, cwd string) bool {
	dir := filepath.ToSlash(cwd)
	if !strings.HasPrefix(dir, "/") {
		dir = "/" + dir
	}
	if !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	enabled := true
	for _, rule := range overrides {
		off := strings.HasPrefix(rule, "!")
		base := strings.TrimPrefix(rule, "!")
		sub := strings.HasSuffix(base, "*")
		base = strings.TrimSuffix(base, "*")
		glob := base
		if sub {
			glob += "*"
		}
		if geminiGlobRegexp(glob).MatchString(dir) {
			enabled = !off
		}
	}
	return enabled
}

// geminiGlobRegexp is globToRegex of Gemini CLI 0.61.0: regular expression characters are
// quoted, and "*" (with the "/" before it, when there is one) matches any rest, or nothing.
func geminiGlobRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for rest := glob; rest != ""; {
		star := strings.IndexByte(rest, '*')
		if star < 0 {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		lit, slash := rest[:star], ""
		if strings.HasSuffix(lit, "/") {
			lit, slash = lit[:len(lit)-1], "/"
		}
		b.WriteString(regexp.QuoteMeta(lit) + "(" + slash + ".*)?")
		rest = rest[star+1:]
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		// Text that is not UTF-8: a rule Gemini CLI's JSON reader would have replaced the
		// bytes of; it matches no directory here.
		return regexp.MustCompile(`^\z.`)
	}
	return re
}

// geminiVar is hydrateString's pattern (Gemini CLI 0.61.0): ${NAME}, the shortest.
var geminiVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{(.*?)\}`) })

// hydrate replaces the variables of x in s, as Gemini CLI's hydrateString does: a name it
// does not know stays as written.
func (x *GeminiExtension) hydrate(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return geminiVar().ReplaceAllStringFunc(s, func(m string) string {
		switch m[2 : len(m)-1] {
		case "extensionPath":
			return x.Path
		case "workspacePath":
			return x.Workspace
		case "/", "pathSeparator":
			return string(filepath.Separator)
		}
		return m
	})
}

// hydrateNode hydrates every string value of n, and of the mappings and sequences in it, in
// place; keys are left as written (recursivelyHydrateStrings).
func (x *GeminiExtension) hydrateNode(n ast.Node) {
	switch v := n.(type) {
	case *ast.StringNode:
		v.Value = x.hydrate(v.Value)
	case *ast.MappingNode:
		for _, mv := range v.Values {
			x.hydrateNode(mv.Value)
		}
	case *ast.MappingValueNode:
		x.hydrateNode(v.Value)
	case *ast.SequenceNode:
		for _, e := range v.Values {
			x.hydrateNode(e)
		}
	}
}

// extensionProblems hydrates the `hooks` of an extension's hooks file (top: its top-level
// pairs, `hooks` only) and adds the warnings of ext: no `hooks` key (Gemini CLI runs none of
// the file's hooks), settings hookcore does not read, the enablement file's.
func extensionProblems(d *decoder, f *File, ext *GeminiExtension, top []kv) {
	f.Extension = ext.Name
	file := Pos{File: f.Path}
	if ext.warning != "" {
		d.probs = append(d.probs, &Problem{Pos: file, Msg: ext.warning, Warning: true})
	}
	if len(top) == 0 {
		d.probs = append(d.probs, &Problem{Pos: file, Warning: true,
			Msg: `Gemini CLI reads an extension's hooks under a top-level "hooks" key, and this file has none (events at the top level?): none of its hooks run`})
		return
	}
	if len(ext.Settings) > 0 {
		d.probs = append(d.probs, &Problem{Pos: file, Warning: true,
			Msg: fmt.Sprintf("extension %s has settings (%s) that Gemini CLI gives its hooks as variables and in their environment; hookcore does not read their values, so ${NAME} of them stays as written", ext.Name, strings.Join(ext.Settings, ", "))})
	}
	ext.hydrateNode(d.resolve(top[0].val))
}

// geminiExtensionOf returns the extension whose hooks file path is, for the working
// directory: path is DIR/hooks/hooks.json and DIR/gemini-extension.json is a manifest Gemini
// CLI loads; nil otherwise.
func geminiExtensionOf(path string) *GeminiExtension {
	hooksDir := filepath.Dir(path)
	if filepath.Base(path) != "hooks.json" || filepath.Base(hooksDir) != "hooks" {
		return nil
	}
	root := filepath.Dir(hooksDir)
	name, settings, why := geminiExtManifestName(filepath.Join(root, geminiExtManifest))
	if why != "" {
		return nil
	}
	cwd, _ := os.Getwd()
	return &GeminiExtension{Name: name, Path: root, Workspace: cwd, Settings: settings}
}

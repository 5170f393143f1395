// Package demo is the offline demo of `hookcore run` (DESIGN.md section 8): a scripted model,
// a hooks config and a small real workspace, embedded so that the binary carries them. The
// script exercises a block (rm -rf), a rewrite (rm FILE → move to .trash), context
// injection (a project rule), a permission hook, a file-change hook and stop validation (a
// failing test fed back as a <system-reminder>, then fixed).
package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed script.json all:workspace
var files embed.FS

// Prompt is the demo's user prompt.
const Prompt = "Clean up the workspace and fix greet.sh so that it greets the person named in its argument."

// HooksFile is the demo config's path inside the workspace.
const HooksFile = ".hookcore/hooks.yaml"

// Script returns the scripted model's turns (a JSON list, model.ParseScript).
func Script() []byte {
	b, _ := files.ReadFile("script.json")
	return b
}

// CopyWorkspace writes the demo workspace (with its .hookcore/hooks.yaml) into dir, which
// must be new or empty: a directory with anything in it is an error, and nothing is written.
func CopyWorkspace(dir string) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty: the demo copies its own files there and would overwrite yours; give a new or empty directory", dir)
	}
	sub, err := fs.Sub(files, "workspace")
	if err != nil {
		return err
	}
	return fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if filepath.Ext(p) == ".sh" {
			mode = 0o755
		}
		return os.WriteFile(dst, data, mode)
	})
}

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// geminiSystemCheck is geminiSystemInsecure; internal tests replace it, since a test's
// files are not root's.
var geminiSystemCheck = geminiSystemInsecure

// geminiSystemInsecure says why Gemini CLI skips its system settings file at path, "" when
// it loads it (isFileAndDirectorySecureSync of Gemini CLI 0.61.0, which warns "Skipping
// system settings file"): the file, every directory above it, and the same for the path
// with its links resolved, must be owned by root and writable by no group or other user,
// and a link among those directories must be owned by root. A file that does not exist has
// nothing to load (""); outside Unix, where owners are not known here, "" too.
func geminiSystemInsecure(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if _, ok := regularfile.Owner(st); !ok {
		return ""
	}
	path = filepath.Clean(path)
	if why := insecureChain(path, ""); why != "" {
		return why
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		return insecureChain(real, "resolved ")
	}
	return ""
}

// insecureChain checks path and the directories above it as geminiSystemInsecure says; what
// prefixes its reasons ("resolved ").
func insecureChain(path, what string) string {
	var dirs []string
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	for _, d := range dirs {
		if l, err := os.Lstat(d); err == nil && l.Mode()&fs.ModeSymlink != 0 {
			if uid, _ := regularfile.Owner(l); uid != 0 {
				return fmt.Sprintf("%sparent directory link %s is not owned by root (uid %d)", what, d, uid)
			}
		}
	}
	for _, d := range dirs {
		if why := insecureEntry(d, true); why != "" {
			return fmt.Sprintf("%sparent directory %s %s", what, d, why)
		}
	}
	if l, err := os.Lstat(path); err == nil && l.Mode()&fs.ModeSymlink != 0 {
		if uid, _ := regularfile.Owner(l); uid != 0 {
			return fmt.Sprintf("%sfile link %s is not owned by root (uid %d)", what, path, uid)
		}
	}
	if why := insecureEntry(path, false); why != "" {
		return fmt.Sprintf("%sfile %s %s", what, path, why)
	}
	return ""
}

// insecureEntry says what is wrong with the file or directory at p (links followed): not
// root's, writable by group or others, not the kind expected; "" when nothing is.
func insecureEntry(p string, dir bool) string {
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return "cannot be examined: " + err.Error()
	case dir && !st.IsDir():
		return "is not a directory"
	case !dir && !st.Mode().IsRegular():
		return "is not a regular file"
	}
	if uid, _ := regularfile.Owner(st); uid != 0 {
		return fmt.Sprintf("is not owned by root (uid %d)", uid)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("is writable by group or others (mode %o)", st.Mode().Perm())
	}
	return ""
}

package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// maxStoreFile caps a store file read, in bytes (64 MiB).
const maxStoreFile = 64 << 20

// readJSON reads the JSON file at path into v. A missing or blank file leaves v as it is and
// is not an error; a file that is not valid JSON is, naming what the file is (what), and so
// is one that is not a regular file or is larger than maxStoreFile. It is read with
// internal/regularfile, which does not set up the runtime's poller: the trust store is read
// at every hook event (issue 9).
func readJSON(path, what string, v any) error {
	data, _, err := regularfile.Read(path, maxStoreFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", what, err)
	}
	if strings.TrimSpace(string(data)) == "" {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s %s is not valid JSON (fix or remove it): %w", what, path, err)
	}
	return nil
}

// writeJSON writes v to path atomically: to a temporary file in the same directory, then
// renamed over path, so a crash never leaves it half-written. The directory is created with
// mode 0700 (the store is the user's own).
func writeJSON(path, what string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", what, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", what, err)
	}
	return nil
}

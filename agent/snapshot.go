package agent

import (
	"io/fs"
	"path/filepath"
	"time"
)

// maxSnapshotFiles bounds a workspace snapshot; a larger workspace counts every call of a
// tool that is not a FileChanger as a possible change.
const maxSnapshotFiles = 20000

// fileStamp is what a snapshot keeps of a file: a write changes its size or mtime.
type fileStamp struct {
	size  int64
	mtime time.Time
	mode  fs.FileMode
}

// snapshot is the state of the workspace's files (MiniCode's PostStopValidation counts files
// changed by any tool, Bash included: issue 8 item 7). complete is false when the walk hit
// maxSnapshotFiles or failed.
type snapshot struct {
	files    map[string]fileStamp
	complete bool
}

// takeSnapshot walks root, skipping .git, and stamps every regular file and symlink.
func takeSnapshot(root string) snapshot {
	s := snapshot{files: make(map[string]fileStamp), complete: true}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			s.complete = false
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if len(s.files) >= maxSnapshotFiles {
			s.complete = false
			return filepath.SkipAll
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		s.files[p] = fileStamp{size: fi.Size(), mtime: fi.ModTime(), mode: fi.Mode()}
		return nil
	})
	if err != nil {
		s.complete = false
	}
	return s
}

// differs reports whether after is not the same workspace as s: a file added, removed or
// rewritten, or either snapshot incomplete.
func (s snapshot) differs(after snapshot) bool {
	if !s.complete || !after.complete || len(s.files) != len(after.files) {
		return true
	}
	for p, st := range s.files {
		if after.files[p] != st {
			return true
		}
	}
	return false
}

// workspaceChanged takes a new snapshot of the workspace after a call and reports whether
// it differs from the one taken after the previous call (the first call compares with a
// snapshot taken before it).
func (s *Session) workspaceChanged(before snapshot) (after snapshot, changed bool) {
	after = takeSnapshot(s.opts.Workspace)
	return after, before.differs(after)
}

// snapshotBefore returns the snapshot to compare a call with: the one kept from the last
// call, or a new one.
func (s *Session) snapshotBefore() snapshot {
	if s.snap != nil {
		return *s.snap
	}
	return takeSnapshot(s.opts.Workspace)
}

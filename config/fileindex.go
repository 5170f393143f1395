package config

import (
	"io/fs"
	"os"

	"github.com/hookcore/hookcore/internal/regularfile"
)

// fileIndex finds a file among the files seen before by identity, as os.SameFile compares
// them: on Unix by device and inode in a map, so that n files cost n lookups rather than
// n²/2 comparisons (stop 23, red team: with 60 000 hook files in a repository, discovery's
// comparisons took seconds at every hook event); elsewhere by comparing with each.
type fileIndex struct {
	byID  map[regularfile.ID]int
	other []int // positions of files without an identity (not Unix)
}

// find returns the position given to add for the file st is, or -1; at returns the
// FileInfo at a position, for the comparisons outside Unix.
func (x *fileIndex) find(st fs.FileInfo, at func(int) fs.FileInfo) int {
	if id, ok := regularfile.Identity(st); ok {
		if i, seen := x.byID[id]; seen {
			return i
		}
		return -1
	}
	for _, i := range x.other {
		if os.SameFile(at(i), st) {
			return i
		}
	}
	return -1
}

// add records st at position i.
func (x *fileIndex) add(st fs.FileInfo, i int) {
	if id, ok := regularfile.Identity(st); ok {
		if x.byID == nil {
			x.byID = map[regularfile.ID]int{}
		}
		x.byID[id] = i
		return
	}
	x.other = append(x.other, i)
}

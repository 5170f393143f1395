//go:build unix && !linux

package proc

import "os"

// childPipe returns a pipe split into the parent's end and the child's end; parentReads
// says which end is the parent's.
func childPipe(parentReads bool) (parent, child *os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	if parentReads {
		return r, w, nil
	}
	return w, r, nil
}

package proc

import (
	"os"
	"syscall"
)

// childPipe returns a close-on-exec pipe split into the parent's end, non-blocking and
// registered with the runtime poller (so that a read or write on it can be interrupted by
// Close), and the child's end, a plain blocking descriptor that never touches the poller
// (os.Pipe would register both ends and then unregister the child's: measurable on a hook
// that runs in a millisecond). parentReads says which end is the parent's.
func childPipe(parentReads bool) (parent, child *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	pi, ci := p[0], p[1]
	if !parentReads {
		pi, ci = p[1], p[0]
	}
	if err := syscall.SetNonblock(pi, true); err != nil {
		syscall.Close(pi)
		syscall.Close(ci)
		return nil, nil, os.NewSyscallError("setnonblock", err)
	}
	return os.NewFile(uintptr(pi), "|parent"), os.NewFile(uintptr(ci), "|child"), nil
}

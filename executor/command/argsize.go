package command

import (
	"errors"
	"fmt"
	"syscall"
	"unicode/utf8"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/internal/proc"
)

// Limits of execve(2) on Linux that a hook's input could otherwise push it over, making
// the hook fail to start (and a guard fail open):
//   - one argument or environment string, its NUL included, may have at most
//     MAX_ARG_STRLEN bytes, 32 pages: 128 KiB with 4 KiB pages (larger pages allow more;
//     128 KiB is the least, so the check is safe everywhere);
//   - all of them together, each counted with its NUL and a pointer, may have at most a
//     quarter of the stack limit (ARG_MAX: 2 MiB under the usual 8 MiB stack). 1.5 MiB
//     leaves room for the program path and the kernel's own use; an exec that still fails
//     with E2BIG is reported the same way.
//
// Values longer than envChunk are split over several environment variables (shellvars.go),
// so in the shell form only the total can be passed; in the exec form, where a value is one
// argument, either can.
const (
	maxExecString = 128 << 10
	maxExecTotal  = 1536 << 10
	// envChunk is the most bytes of a value one private environment variable holds.
	envChunk = 64 << 10
	// ptrSize is the size of the argv/envp pointer the kernel counts for every string.
	ptrSize = 8
)

// execSize returns what starting s costs against the exec limits: the total (every
// argument, argv[0] included, and every environment string, each with its NUL and pointer)
// and the length of its longest string with its NUL.
func execSize(s proc.Spec) (total, longest int) {
	add := func(str string) {
		n := len(str) + 1
		total += n + ptrSize
		longest = max(longest, n)
	}
	add(s.Path)
	for _, a := range s.Args {
		add(a)
	}
	for _, e := range s.Env {
		add(e)
	}
	return total, longest
}

// checkExecSize returns a *hook.InputTooLargeError when s is over the exec limits, nil
// otherwise.
func checkExecSize(s proc.Spec) error {
	total, longest := execSize(s)
	switch {
	case total > maxExecTotal:
		return &hook.InputTooLargeError{Bytes: total, Detail: fmt.Sprintf("more than %d in all", maxExecTotal)}
	case longest > maxExecString:
		return &hook.InputTooLargeError{Bytes: total, Detail: fmt.Sprintf("one string of %d bytes, more than %d", longest, maxExecString)}
	}
	return nil
}

// tooLargeAtStart returns a *hook.InputTooLargeError when the start of s failed with E2BIG
// (argument list too long) although checkExecSize let it through (a smaller stack limit,
// for instance), nil otherwise.
func tooLargeAtStart(s proc.Spec, err error) error {
	if !errors.Is(err, syscall.E2BIG) {
		return nil
	}
	total, _ := execSize(s)
	return &hook.InputTooLargeError{Bytes: total, Detail: "the system refused them: " + syscall.E2BIG.Error()}
}

// chunks splits s into pieces of at most envChunk bytes, each ending on a UTF-8 boundary
// when there is one in reach (a value that is not UTF-8 is cut anywhere: the shell joins
// bytes). s itself, alone, when it fits.
func chunks(s string) []string {
	if len(s) <= envChunk {
		return []string{s}
	}
	var out []string
	for len(s) > envChunk {
		n := envChunk
		for back := 0; back < utf8.UTFMax-1 && !utf8.RuneStart(s[n]); back++ {
			n--
		}
		if !utf8.RuneStart(s[n]) {
			n = envChunk
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

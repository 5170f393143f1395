package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hookcore/hookcore"
	"github.com/hookcore/hookcore/trust"
)

// The approval gate of the CLI (issue 4; codebot: hooks themselves pass an approval gate).
// `--approve ask` asks on the terminal the first time each distinct hook would run in this
// process; `--approve deny-new` runs only hooks approved before (answer "always" to an ask).
// A hook is "distinct" by trust.HookDigest over its type, target and source, so a changed
// command, URL or prompt, or a moved hook, is asked about again.

// Approval modes of --approve.
const (
	approveOff     = ""         // no approval gate (the default)
	approveAsk     = "ask"      // ask on the terminal
	approveDenyNew = "deny-new" // refuse hooks not approved in the store
)

// approveFlags is the --approve flag of fire, replay and run.
type approveFlags struct {
	mode string
}

// approver returns the Approver of the --approve mode, nil when the gate is off. Approvals
// are kept in the trust store under $HOME (trust.Store.ApprovalsPath).
func (e *env) approver(f *approveFlags) (hookcore.Approver, error) {
	var store *trust.Store
	if e.home != "" {
		store = trust.DefaultStore(e.home)
	}
	switch f.mode {
	case approveOff, "off", "none":
		return nil, nil
	case approveAsk:
		return newAskApprover(store, e.cwd, openTerminal(e.stdin, e.stderr)), nil
	case approveDenyNew:
		if store == nil {
			return nil, &exitError{code: ExitFailure, msg: "--approve deny-new: no home directory: approvals live under $HOME"}
		}
		return storeApprover{store}, nil
	}
	return nil, &exitError{code: ExitFailure, msg: fmt.Sprintf("unknown --approve mode %q (want ask or deny-new)", f.mode)}
}

// storeApprover is --approve deny-new: a hook runs only when the store approved it.
type storeApprover struct{ store *trust.Store }

// Approve reports whether the store approved h; a store that cannot be read denies.
func (s storeApprover) Approve(_ context.Context, h hookcore.HookInfo) (bool, error) {
	ok, err := s.store.Approved(trust.HookDigest(h.Type, h.Target, h.Source))
	if err != nil {
		return false, err
	}
	if !ok {
		return false, errors.New("not approved before (--approve deny-new); approve it once with --approve ask, answering a")
	}
	return true, nil
}

// terminal opens the terminal to ask on: a reader for answers and a writer for questions.
type terminal func() (io.Reader, io.Writer, error)

// openTerminal returns a terminal that is /dev/tty when it can be opened (stdin may be
// carrying the event input), else stdin when it is a terminal (questions then go to stderr).
func openTerminal(stdin io.Reader, stderr io.Writer) terminal {
	return func() (io.Reader, io.Writer, error) {
		if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			return f, f, nil
		}
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				return f, stderr, nil
			}
		}
		return nil, nil, errors.New("no terminal to ask on (/dev/tty cannot be opened and stdin is not a terminal); use --approve deny-new in scripts")
	}
}

// askApprover is --approve ask. It asks once per distinct hook and remembers the answer for
// the process; "always" also records the approval in the store. Hooks the store approved
// before are not asked about. Questions are asked one at a time.
type askApprover struct {
	store *trust.Store // nil: nothing is remembered across processes
	cwd   string
	open  terminal

	mu      sync.Mutex
	opened  bool
	openErr error
	in      *bufio.Reader
	out     io.Writer
	pending chan answer // a read still waiting for a line (its asker gave up)
	answers map[string]bool
}

type answer struct {
	line string
	err  error
}

func newAskApprover(store *trust.Store, cwd string, open terminal) *askApprover {
	return &askApprover{store: store, cwd: cwd, open: open, answers: map[string]bool{}}
}

// Approve asks about h the first time it is seen; see askApprover. No terminal, end of
// input or ctx ending while waiting is a denial with an error saying so.
func (a *askApprover) Approve(ctx context.Context, h hookcore.HookInfo) (bool, error) {
	digest := trust.HookDigest(h.Type, h.Target, h.Source)
	a.mu.Lock()
	defer a.mu.Unlock()
	if ok, seen := a.answers[digest]; seen {
		return ok, nil
	}
	if a.store != nil {
		if ok, err := a.store.Approved(digest); err == nil && ok {
			a.answers[digest] = true
			return true, nil
		}
	}
	if !a.opened {
		a.opened = true
		var r io.Reader
		r, a.out, a.openErr = a.open()
		if a.openErr == nil {
			a.in = bufio.NewReader(r)
		}
	}
	if a.openErr != nil {
		return false, fmt.Errorf("--approve ask: %w", a.openErr)
	}
	fmt.Fprintf(a.out, "\nhookcore: hook %q wants to run on %s\n  type:   %s\n  runs:   %s\n  from:   %s\n",
		h.ID, h.Event, h.Type, oneLine(h.Target, 300), relativize(h.Source, a.cwd))
	options := "y = yes, N = no"
	if a.store != nil {
		options = "y = yes, a = always (remember), N = no"
	}
	fmt.Fprintf(a.out, "Run it? [%s]: ", options)
	line, err := a.readLine(ctx)
	if err != nil {
		fmt.Fprintln(a.out)
		if !errors.Is(err, io.EOF) {
			return false, err
		}
		line = "" // end of input: no
	}
	ok := false
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		ok = true
	case "a", "always":
		ok = true
		if a.store != nil {
			rec := trust.Approval{ID: h.ID, Type: h.Type, Target: h.Target, Source: h.Source, Time: time.Now()}
			if err := a.store.Approve(digest, rec); err != nil {
				fmt.Fprintf(a.out, "hookcore: could not remember the approval: %v\n", err)
			}
		}
	}
	a.answers[digest] = ok
	return ok, nil
}

// readLine reads one answer, giving up when ctx is done (the read then stays pending and
// the next question takes its line).
func (a *askApprover) readLine(ctx context.Context) (string, error) {
	if a.pending == nil {
		ch := make(chan answer, 1)
		in := a.in
		go func() {
			line, err := in.ReadString('\n')
			if err == io.EOF && line != "" {
				err = nil
			}
			ch <- answer{line, err}
		}()
		a.pending = ch
	}
	select {
	case ans := <-a.pending:
		a.pending = nil
		return ans.line, ans.err
	case <-ctx.Done():
		return "", fmt.Errorf("no answer: %w", ctx.Err())
	}
}

package config

import (
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"time"
)

// Set is the effective configuration: the files of all layers, in load order.
type Set struct {
	Files []*File
	// MCP are the files that declare MCP servers for mcp_tool hooks (MCPSources); the
	// caller that discovers the config fills it in. A Project one is part of TrustDigest.
	MCP []MCPSource
	// Disabled is set when any file but a managed one whose switch speaks for every hook
	// (KillScope "") says disable_all_hooks: true.
	Disabled bool
}

// Hooks returns the hooks of all files in order: layers append, they never override
// (DESIGN.md section 4). It leaves out hooks with enabled: false and the files a kill switch
// turns off: when the Set is Disabled, every file but Claude Code's managed ones (unless a
// managed file disables all), and with a managed allowManagedHooksOnly every file but the
// managed ones; and the hooks that their agent's own switches turn off (AgentSwitch).
// (The trust gate is hookcore's: see hookcore.SwitchedOff.)
func (s *Set) Hooks() []Hook {
	if s == nil {
		return nil
	}
	var out []Hook
	managedOff, managedOnly := false, false
	scoped := map[string]bool{} // KillScope of another agent's (a plugin's, ...) switch
	for _, f := range s.Files {
		if f.Layer == Managed {
			managedOff = managedOff || f.DisableAll
			managedOnly = managedOnly || f.ManagedOnly
		} else if sc := KillScope(f); f.DisableAll && sc != "" {
			scoped[sc] = true
		}
	}
	agents := AgentSwitch(s.Files, true)
	for _, f := range s.Files {
		if managedOff || (f.Layer != Managed && (s.Disabled || managedOnly || scoped[KillScope(f)])) {
			continue
		}
		for i := range f.Hooks {
			if h := &f.Hooks[i]; h.Enabled && !agents.Off(f, h) {
				out = append(out, *h)
			}
		}
	}
	return out
}

// Load parses each file with ParseFile and returns them as a Set, with the problems of all
// files: file by file in load order, sorted within a file. A file that cannot be loaded as
// a whole is in the Set, Failed and without hooks; a hook entry with an error is in its
// file's Broken list, not in Hooks. Callers that must not run a partial configuration check
// problems.Err(). The Set is never nil.
//
// A file named more than once — by a relative and an absolute path, through "..", through a
// symlink, as --config and by discovery — is loaded once, under its first path and layer:
// files are compared with os.SameFile on the opened file (issue 8.8), so its hooks never
// run twice. Under the first path's layer, except that a file opened through a project or
// local path and through a user, managed or named path is the latter's, in the latter's place
// in the order, as if the project path were not there (a repository's symlink cannot make
// another layer's file its own).
func Load(paths []LayerPath) (*Set, ErrorList) {
	s := &Set{}
	var probs ErrorList
	var seen []fs.FileInfo
	var ids fileIndex
	budget := &repoBudget{bytes: MaxRepositoryBytes, hooks: MaxHooks, time: repositoryParseTime}
	for _, lp := range paths {
		var f *File
		var p ErrorList
		var st fs.FileInfo
		switch {
		case lp.Refused != "", lp.Skip != "": // not read: discovery says why (MaxGlobFiles; its agent leaves it out)
			f, p = ParseLayerPath(lp)
		default:
			f, p, st = parseFile(lp, budget)
		}
		if repositoryLayer(f.Layer) && !f.Failed {
			if err := budget.add(len(f.Hooks) + len(f.Broken)); err != nil {
				f.Failed, f.Hooks, f.Broken = true, nil, nil
				p = append(p, &Problem{Pos: Pos{File: f.Path}, Msg: err.Error()})
			}
		}
		if st != nil {
			if i := ids.find(st, func(i int) fs.FileInfo { return seen[i] }); i >= 0 {
				// The same file again. Discovery already keeps a file a project path shares
				// with a user, managed or --settings path under the latter (Discovery.Look),
				// but a repository can swap its path for a symlink between that look and this
				// open (red team round 11): then the earlier entry, the project path's, goes, and
				// the file loads under this path and layer.
				old := s.Files[i]
				if !repositoryLayer(old.Layer) || repositoryLayer(f.Layer) {
					continue
				}
				probs = slices.DeleteFunc(probs, func(q *Problem) bool { return q.Pos.File == old.Path })
				s.Files, seen = slices.Delete(s.Files, i, i+1), slices.Delete(seen, i, i+1)
				ids = fileIndex{} // positions moved: index again (rare: a repository path shared with a user, managed or named file)
				for j, o := range seen {
					if o != nil {
						ids.add(o, j)
					}
				}
			}
			ids.add(st, len(seen))
		}
		seen = append(seen, st) // nil for a file that did not open: never the same as another
		probs = append(probs, p...)
		s.Files = append(s.Files, f)
	}
	for _, f := range s.Files {
		if f.DisableAll && f.Layer != Managed && KillScope(f) == "" {
			s.Disabled = true
		}
	}
	return s, probs
}

// MaxRepositoryBytes caps the bytes of a repository's config files (the Project and Local
// layers) that one Load parses, together (1 MiB, two files at their cap: a project's
// settings.json and a settings.local.json grown with permissions passed 512 KiB together in
// the false-positive check of stop 23). A repository chooses how
// many config files discovery finds (100 per pattern, a dozen places); parsing the YAML of
// each at its size cap took about a third of a second, so a repository's files took a
// minute per hook event (stop 23, red team round 15), past which the agent lets the call
// through. A file past the budget is not parsed: a load error of its layer, ignored in an
// untrusted workspace.
const MaxRepositoryBytes = 2 * MaxFileSize

// repoBudget is what is left of MaxRepositoryBytes and of MaxHooks for the repository's
// files in one Load: MaxHooks caps each file, and the repository's files together too
// (10 000 hooks in each of a hundred files exhausted memory).
type repoBudget struct {
	bytes, hooks int
	time         time.Duration // what is left of MaxRepositoryParseTime
}

// MaxRepositoryParseTime caps the time one Load spends parsing a repository's config files
// together (2 s): a file it would pass is not loaded (a load error of its layer: ignored in
// an untrusted workspace, failing gate events closed in a trusted one). The caps on the
// bytes (CheckLimits) each close one way to make the YAML parser slow, and three red-team
// rounds found another each time (stop 23, round 17: a flow mapping of keys without values,
// 20 s; a chain of tags, gigabytes); this bounds the whole class. A parse cut short runs on
// in the background until the process exits, which for the hook command is at once.
const MaxRepositoryParseTime = 2 * time.Second

// repositoryParseTime is MaxRepositoryParseTime, a variable for a test.
var repositoryParseTime = MaxRepositoryParseTime

// maxUntimedParse is the size of a file parsed without a deadline goroutine (only its time
// is counted): the worst construct known costs tens of milliseconds at this size, and a
// timer would set up the runtime's poller in every hook process (issue 9).
const maxUntimedParse = 16 << 10

// timed runs parse, the parse of a repository file of size bytes, within what is left of the
// time budget, and spends what it took; ok false when the budget ran out first (parse then
// runs on, abandoned) or was already spent.
func (b *repoBudget) timed(size int, parse func() (*File, ErrorList)) (f *File, probs ErrorList, ok bool) {
	if b.time <= 0 {
		return nil, nil, false
	}
	start := time.Now()
	defer func() { b.time -= time.Since(start) }()
	if size <= maxUntimedParse {
		f, probs = parse()
		return f, probs, true
	}
	type result struct {
		f     *File
		probs ErrorList
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil { // on the caller's goroutine the hook command's own recover caught this
				done <- result{nil, ErrorList{{Msg: fmt.Sprintf("internal error parsing it: %v", v)}}}
			}
		}()
		f, probs := parse()
		done <- result{f, probs}
	}()
	timer := time.NewTimer(b.time)
	defer timer.Stop()
	tick := time.NewTicker(memoryCheckEvery)
	defer tick.Stop()
	base := heapBytes()
	tooBig := func() bool { return heapBytes()-base > repositoryParseMemory }
	overMemory := func() (*File, ErrorList, bool) {
		b.time = 0 // what follows is not parsed either
		return nil, ErrorList{{Msg: fmt.Sprintf("parsing it allocated more than %d MiB; it is not loaded", MaxRepositoryParseMemory>>20)}}, false
	}
	for {
		select {
		case r := <-done:
			switch {
			case r.f == nil:
				return nil, r.probs, false
			case tooBig(): // also when the parse ended between two looks: the same answer whatever the scheduling
				return overMemory()
			}
			return r.f, r.probs, true
		case <-timer.C:
			return nil, nil, false
		case <-tick.C:
			if tooBig() {
				return overMemory()
			}
		}
	}
}

// MaxRepositoryParseMemory caps what a repository file's parse may allocate, in bytes
// (256 MiB), checked every memoryCheckEvery while a file over maxUntimedParse is parsed,
// and when its parse ends (a realistic 500 KiB settings.json allocates about 22 MB, 500 KiB
// of hooks in YAML 58 MB; a list of 250 000 numbers, 293 MB, is past it).
// The YAML parser gives every node a path that spells its keys and indices, so nesting
// times key length times nodes is its memory, which no cap on one of them bounds: 230
// nested 1 KiB keys over a list took 2 GB in the time budget and grew on (red team round
// 18). Past the cap the file is not loaded, as past the time budget.
const MaxRepositoryParseMemory = 256 << 20

// repositoryParseMemory is MaxRepositoryParseMemory, a variable for a test.
var repositoryParseMemory int64 = MaxRepositoryParseMemory

// memoryCheckEvery is how often timed looks at the heap.
const memoryCheckEvery = 5 * time.Millisecond

// heapBytes returns the bytes allocated on the heap so far (runtime.MemStats.TotalAlloc):
// cumulative, so what a parse allocates is measured whatever the collector frees meanwhile
// (the live heap shrank when another goroutine's garbage was collected, and a parse that
// grew it by 60 MB read as none; stop 23's CI). It stops the world for microseconds and runs
// only while a large repository file is parsed; runtime/metrics would not, but its package
// initialisation costs every hook process 15 KB and a tenth of a millisecond.
func heapBytes() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.TotalAlloc)
}

func (b *repoBudget) spend(n int) error {
	if n > b.bytes {
		return fmt.Errorf("the repository's config files are larger than %d KiB together; this one (%d bytes) is not loaded", MaxRepositoryBytes>>10, n)
	}
	b.bytes -= n
	return nil
}

func (b *repoBudget) add(hooks int) error {
	if hooks > b.hooks {
		return fmt.Errorf("the repository's config files hold more than %d hooks together; this one's %d are not loaded", MaxHooks, hooks)
	}
	b.hooks -= hooks
	return nil
}

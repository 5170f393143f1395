package hookcore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookcore/hookcore/config"
	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/state"
)

// TestTripwireBounds: a file over the hashing cap is compared by size, mtime, ctime and
// inode and not read, and an in-place rewrite of the same length with its mtime set back
// is still seen (the ctime); a directory tree is hashed up to tripwireMaxFiles entries and
// compared by stat past them, so an edit past the hashing bound is seen too.
func TestTripwireBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 2*tripwireMaxHash), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(dir, "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range tripwireMaxFiles + 10 {
		if err := os.WriteFile(filepath.Join(tree, fmt.Sprintf("f%05d", i)), []byte("a"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{big, tree}
	old := snapshot(paths, nil, nil, walkBounds{})
	if st := old[big]; st.Sum != "" || st.Size != 2*tripwireMaxHash || st.MTime == 0 || st.CTime == 0 {
		t.Errorf("big file: %+v, want size, mtime and ctime, no digest", st)
	}
	past := filepath.Join(tree, fmt.Sprintf("f%05d", tripwireMaxFiles+5))
	if !old[tree].Partial || old[tree].Cut || len(old) != tripwireMaxFiles+12 || old[past].Sum != "" || old[past].CTime == 0 {
		t.Errorf("tree: %+v, %d entries, past the bound %+v; want partial, not cut, %d, stat only", old[tree], len(old), old[past], tripwireMaxFiles+12)
	}
	if got := diffFiles(old, snapshot(paths, nil, old, walkBounds{}), paths, tripwireMaxStat); len(got) != 0 {
		t.Errorf("unchanged: %v", got)
	}
	time.Sleep(10 * time.Millisecond) // a ctime the clock can tell apart
	rewrite := func(p string, at int64, b []byte) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt(b, at); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	rewrite(big, 0, []byte(`{"disableAllHooks": true}`))
	rewrite(past, 0, []byte("b"))
	if err := os.WriteFile(filepath.Join(tree, "f00001"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(diffFiles(old, snapshot(paths, nil, old, walkBounds{}), paths, tripwireMaxStat), "\n")
	may := ": content may have changed (compared by size, mtime, ctime and inode: over the hashing bounds, its mtime, ctime or inode changed)"
	want := big + may + "\n" + filepath.Join(tree, "f00001") + ": content changed\n" + past + may
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

// TestTripwireCut: a tree of more entries than the walk's stat bound is walked up to them
// and marked cut; cutTrees names it; a file in now only under a tree cut in both snapshots
// is not compared (it may be past the old walk's window).
func TestTripwireCut(t *testing.T) {
	t.Parallel()
	b := walkBounds{hash: 5, stat: 20}
	tree := filepath.Join(t.TempDir(), "tree")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	fill(t, tree, "f", b.stat+5)
	old := snapshot([]string{tree}, nil, nil, b)
	if !old[tree].Cut || len(old) != b.stat+1 {
		t.Fatalf("tree: %+v, %d entries; want cut, %d", old[tree], len(old), b.stat+1)
	}
	if got := cutTrees(old); len(got) != 1 || got[0] != tree {
		t.Errorf("cutTrees: %v", got)
	}
	if err := os.WriteFile(filepath.Join(tree, "g"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := diffFiles(old, snapshot([]string{tree}, nil, old, b), []string{tree}, b.stat); len(got) != 0 {
		t.Errorf("diff past the bound: %v", got)
	}
}

// fill creates n empty files PREFIX00000... in dir.
func fill(t *testing.T, dir, prefix string, n int) {
	t.Helper()
	for i := range n {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s%05d", prefix, i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// TestTripwireCutExplicit (red team round 60, A): the paths of the set are compared
// whatever a tree's cut, and a tree that grows past the bound between two snapshots is a
// change. The attack: 20 001 files created in ~/.hookcore/aaa and hooks.yaml renamed away
// in the same call gave a warning only.
func TestTripwireCutExplicit(t *testing.T) {
	t.Parallel()
	b := walkBounds{hash: 3, stat: 10}
	for _, c := range []struct {
		name   string
		before int // files in aaa before the call
		want   []string
	}{
		// The tree was within the bound: its growth past it is a stop, and the removal
		// and the creation are named.
		{"grew", 0, []string{": grew past 10 entries", "/hooks.yaml: removed", "/trust.json: created"}},
		// The tree was cut already (a user's large tree: no stop at every event): the
		// explicit paths are compared all the same.
		{"cut before", 20, []string{"/hooks.yaml: removed", "/trust.json: created"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			home := filepath.Join(t.TempDir(), ".hookcore")
			aaa := filepath.Join(home, "aaa")
			if err := os.MkdirAll(aaa, 0o755); err != nil {
				t.Fatal(err)
			}
			yaml, trust := filepath.Join(home, "hooks.yaml"), filepath.Join(home, "trust.json")
			if err := os.WriteFile(yaml, []byte("hooks: []\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			fill(t, aaa, "a", c.before)
			paths := []string{home, yaml, trust}
			old := snapshot(paths, nil, nil, b)
			fill(t, aaa, "b", b.stat+1)
			if err := os.Rename(yaml, filepath.Join(t.TempDir(), "away")); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(trust, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(diffFiles(old, snapshot(paths, nil, old, b), paths, b.stat), "\n")
			for _, w := range c.want {
				if !strings.Contains(got, home+w) {
					t.Errorf("diff:\n%s\nwant %s", got, w)
				}
			}
			if c.before > 0 && strings.Contains(got, "grew past") {
				t.Errorf("a tree cut in the baseline said again:\n%s", got)
			}
		})
	}
}

// TestTripwireLinkedRoot (red team round 60, B): a path of the set that is a symbolic
// link to a directory (~/.claude/hooks -> ~/dotfiles/hooks) is walked, its files named
// under the link; re-pointing it, or a link on its way, is a change; a link inside the
// tree is not followed.
func TestTripwireLinkedRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dot, other, mid := filepath.Join(dir, "dotfiles", "hooks"), filepath.Join(dir, "other"), filepath.Join(dir, "mid")
	for _, d := range []string{dot, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dot, "guard.sh"), []byte("exit 2\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "dotfiles"), mid); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, ".claude", "hooks")
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../mid/hooks", root); err != nil {
		t.Fatal(err)
	}
	paths := []string{root}
	step := func(what string, change func(), want string) {
		t.Helper()
		old := snapshot(paths, nil, nil, walkBounds{})
		change()
		got := strings.Join(diffFiles(old, snapshot(paths, nil, old, walkBounds{}), paths, tripwireMaxStat), "\n")
		if !strings.Contains(got, want) {
			t.Errorf("%s: diff:\n%s\nwant %s", what, got, want)
		}
	}
	guard := filepath.Join(root, "guard.sh")
	step("write through the link", func() {
		if err := os.WriteFile(filepath.Join(dot, "guard.sh"), []byte("exit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}, guard+": content changed")
	step("created", func() {
		if err := os.WriteFile(filepath.Join(dot, "new.sh"), []byte("exit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}, filepath.Join(root, "new.sh")+": created")
	step("a link on the way re-pointed", func() {
		if err := os.Remove(mid); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(other, mid); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(other, "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
	}, root+": link leads elsewhere")
	step("the link re-pointed", func() {
		if err := os.Remove(root); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(dot, root); err != nil {
			t.Fatal(err)
		}
	}, root+": link target changed")
}

// TestTripwireLinkToLargeFile (red team round 61): a hook script that is a link, inside a
// compared tree, to a regular file over the hashing bound (a compiled guard) is compared by
// its target's size, mtime, ctime and inode; a write of the same size through it is seen.
func TestTripwireLinkToLargeFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hooks, bin := filepath.Join(dir, "hooks"), filepath.Join(dir, "guardbin")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, make([]byte, tripwireMaxHash+100), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(hooks, "guard-bin")); err != nil {
		t.Fatal(err)
	}
	paths := []string{hooks}
	old := snapshot(paths, nil, nil, walkBounds{})
	f, err := os.OpenFile(bin, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("EVIL"), 100); err != nil { // same size
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(diffFiles(old, snapshot(paths, nil, old, walkBounds{}), paths, tripwireMaxStat), "\n")
	if want := filepath.Join(hooks, "guard-bin") + ": content may have changed"; !strings.Contains(got, want) {
		t.Errorf("diff:\n%s\nwant %s", got, want)
	}
}

// TestFileChangeEveryDifference: a call that edits a file and changes its mode is reported
// with both (new-user trial, stop 32: "mode changed" alone hid the edit, and a user told so
// would chmod it back and look no further).
func TestFileChangeEveryDifference(t *testing.T) {
	t.Parallel()
	a := state.FileState{Type: "f", Mode: 0o644, Size: 10, Sum: "aa"}
	for _, c := range []struct {
		name string
		b    state.FileState
		want string
	}{
		{"mode and content", state.FileState{Type: "f", Mode: 0o600, Size: 14, Sum: "bb"}, "mode changed (0600, was 0644), content changed"},
		{"mode only", state.FileState{Type: "f", Mode: 0o600, Size: 10, Sum: "aa"}, "mode changed (0600, was 0644)"},
		{"content only", state.FileState{Type: "f", Mode: 0o644, Size: 10, Sum: "cc"}, "content changed"},
		{"nothing", a, ""},
		{"removed", state.FileState{}, "removed"},
	} {
		if got := fileChange(a, c.b); got != c.want {
			t.Errorf("%s: fileChange = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTripwireCutStops (red team round 60, A) with a Runner: an armed session whose
// ~/.hookcore grows past the bound in one call, with hooks.yaml renamed away, is stopped,
// and the stop names both; a session whose tree was cut when it was armed is not stopped
// at every event.
func TestTripwireCutStops(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	home := filepath.Join(dir, ".hookcore")
	yaml := filepath.Join(home, "hooks.yaml")
	if err := os.MkdirAll(filepath.Join(home, "aaa"), 0o755); err != nil {
		t.Fatal(err)
	}
	policy := "hooks:\n  - id: tripwire\n    event: post_tool_use\n    if: 'tool changed hook_config'\n    action: {type: command, command: /bin/true}\n"
	if err := os.WriteFile(yaml, []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	set, errs := config.Load([]config.LayerPath{{Path: yaml, Layer: config.Explicit}})
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	r, err := New(set, Options{ProjectDir: dir, HookConfig: []string{home, yaml}, State: &state.Memory{}})
	if err != nil {
		t.Fatal(err)
	}
	r.bounds = walkBounds{hash: 3, stat: 10}
	ev := func(event hook.Event, id string) hook.Result {
		return r.Fire(ctx, event, &hook.Input{SessionID: "s1", HookEventName: string(event), ToolName: "Bash", ToolUseID: id, ToolInput: json.RawMessage(`{"command":"x"}`)})
	}
	if res := ev(hook.PreToolUse, "t1"); !res.Continue {
		t.Fatalf("arming event stopped: %q", res.StopReason)
	}
	fill(t, filepath.Join(home, "aaa"), "a", 11)
	if err := os.Rename(yaml, filepath.Join(dir, "away")); err != nil {
		t.Fatal(err)
	}
	res := ev(hook.PostToolUse, "t1")
	if res.Continue || !strings.Contains(res.StopReason, home+": grew past 10 entries") || !strings.Contains(res.StopReason, yaml+": removed") {
		t.Errorf("stop: continue %v, %q", res.Continue, res.StopReason)
	}
	// The tree stays cut: the next events compare what the bound reaches and go on.
	for i := range 2 {
		if res := ev(hook.PreToolUse, fmt.Sprint("u", i)); !res.Continue {
			t.Errorf("event %d after: stopped again: %q", i, res.StopReason)
		}
	}
}

// TestTripwireListed: a stop names at most tripwireMaxListed changes and says how many more.
func TestTripwireListed(t *testing.T) {
	t.Parallel()
	var changed []string
	for i := range tripwireMaxListed + 7 {
		changed = append(changed, fmt.Sprint(i))
	}
	got := listed(changed)
	if len(got) != tripwireMaxListed+1 || got[tripwireMaxListed] != "and 7 more" || got[0] != "0" {
		t.Errorf("listed: %d entries, last %q", len(got), got[len(got)-1])
	}
	if got := listed(changed[:3]); len(got) != 3 {
		t.Errorf("short list: %v", got)
	}
}

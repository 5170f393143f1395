package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInstallThroughSymlink: a user settings file that is a symbolic link (a dotfiles setup) stays
// a link: install and uninstall write the file it points to, atomically in that file's
// directory and with its mode, the backup is made beside the link, and uninstall gives back
// the target byte for byte (new-user trial, stop 22: the link became a regular file and the
// target was left unchanged).
func TestInstallThroughSymlink(t *testing.T) {
	t.Parallel()
	project, dotfiles := t.TempDir(), t.TempDir()
	real := filepath.Join(dotfiles, "claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(userSettings), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(project, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	// A relative link through a second link: both are followed.
	if err := os.Symlink(real, filepath.Join(dotfiles, "current.json")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(link), filepath.Join(dotfiles, "current.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, link); err != nil {
		t.Fatal(err)
	}
	realResolved, _ := filepath.EvalSymlinks(real)

	check := func(step string, want string) {
		t.Helper()
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s: %s is no longer a symbolic link (%v, %v)", step, link, fi.Mode(), err)
		}
		if dest, _ := os.Readlink(link); dest != rel {
			t.Errorf("%s: the link points to %q, want %q", step, dest, rel)
		}
		b, err := os.ReadFile(real)
		if err != nil || string(b) != want {
			t.Errorf("%s: target = %q, %v; want %q", step, b, err, want)
		}
		if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: target mode = %v, want its old 0600", step, fi.Mode().Perm())
		}
		for _, dir := range []string{filepath.Dir(real), filepath.Dir(link)} {
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".") {
					t.Errorf("%s: temporary file %s left in %s", step, e.Name(), dir)
				}
			}
		}
	}

	// User scope: a project's link out of the project is refused (TestInstallRefusesEscape).
	o := Options{Agent: "claude", Scope: User, Home: project, Command: "hookcore"}
	p, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if p.Path != link || p.Target != realResolved || string(p.Old) != userSettings {
		t.Fatalf("plan: Path %q, Target %q (want %q), Old %q", p.Path, p.Target, realResolved, p.Old)
	}
	backup, err := p.Apply(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	check("install", string(p.New))
	if filepath.Dir(backup) != filepath.Dir(link) {
		t.Errorf("backup %s, want it beside the link %s", backup, link)
	}
	if b, err := os.ReadFile(backup); err != nil || string(b) != userSettings {
		t.Errorf("backup = %q, %v", b, err)
	}
	if err := os.Remove(backup); err != nil {
		t.Fatal(err)
	}

	un, err := Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	backup, err = un.Apply(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(backup) //nolint:errcheck // only so that check sees no stray file
	check("uninstall", userSettings)
}

// TestInstallRefusesDanglingSymlink: a settings file that is a link to nothing is an error
// naming the link and where it points, for a dry run (the plan) as for a write, and the link
// is left as it is; so is a convert-style plan written straight to such a link.
func TestInstallRefusesDanglingSymlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "dotfiles", "settings.json")
	if err := os.Symlink(gone, link); err != nil {
		t.Fatal(err)
	}
	_, err := Install(Options{Agent: "claude", ProjectDir: dir})
	if err == nil || !strings.Contains(err.Error(), "is a symbolic link to "+gone+", which does not exist") {
		t.Errorf("Install: err = %v, want the dangling link named", err)
	}
	p := &Plan{Path: link, New: []byte("{}\n"), Changed: true}
	if _, err := p.Apply(time.Now()); err == nil {
		t.Error("Apply wrote through a link to nothing")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi.Mode(), err)
	}
	if _, err := os.Lstat(gone); err == nil {
		t.Error("the missing target was created")
	}
}

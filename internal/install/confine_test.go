package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, dest, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dest, link); err != nil {
		t.Fatal(err)
	}
}

// TestProjectScopeStaysInTheProject: for the project and local scopes, a settings path that
// resolves outside the project root — the file a link, or a directory on the way — is
// refused by install and uninstall (a dry run plans too) with an error naming where it
// points; the user's file is unchanged and no backup of it lands in the repository (red
// team 11: `ln -s ../../.claude/settings.json proj/.claude/settings.json` made uninstall
// edit ~/.claude/settings.json). A link inside the project, and any link for user scope,
// is followed.
func TestProjectScopeStaysInTheProject(t *testing.T) {
	t.Parallel()
	const global = "{\"env\": {\"API_KEY\": \"secret\"}, \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"hookcore hook claude\"}]}]}}\n"
	for _, tc := range []struct {
		name  string
		links map[string]string // link (under the project) -> destination (relative to the link's directory)
		scope Scope
	}{
		{"file link", map[string]string{".claude/settings.json": "../../home/.claude/settings.json"}, Project},
		{"directory link", map[string]string{".claude": "../home/.claude"}, Project},
		{"local file link", map[string]string{".claude/settings.local.json": "../../home/.claude/settings.json"}, Local},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			home, project := filepath.Join(root, "home"), filepath.Join(root, "proj")
			write(t, filepath.Join(home, ".claude", "settings.json"), global)
			for link, dest := range tc.links {
				symlink(t, dest, filepath.Join(project, link))
			}
			o := Options{Agent: "claude", Scope: tc.scope, ProjectDir: project, Home: home, Command: "hookcore"}
			for _, f := range []func(Options) (*Plan, error){Install, Uninstall} {
				_, err := f(o)
				if err == nil || !strings.Contains(err.Error(), "resolves to "+filepath.Join(home, ".claude", "settings.json")+", outside the project") {
					t.Errorf("err = %v, want the link out of the project refused", err)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json")); string(b) != global {
				t.Errorf("the user's settings changed: %s", b)
			}
			o.Scope = User // the user's own links are followed
			p, err := Uninstall(o)
			if err != nil || !p.Changed {
				t.Fatalf("user scope: %v, %+v", err, p)
			}
		})
	}

	// A link inside the project is followed, and named.
	project := t.TempDir()
	write(t, filepath.Join(project, "config", "claude.json"), "{}\n")
	symlink(t, "../config/claude.json", filepath.Join(project, ".claude", "settings.json"))
	p, err := Install(Options{Agent: "claude", ProjectDir: project, Command: "hookcore"})
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(filepath.Join(project, "config", "claude.json")); p.Target != real {
		t.Errorf("Target = %q, want %q", p.Target, real)
	}
	apply(t, p)

	// A user-scope directory link is named as the file written.
	home, dotfiles := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dotfiles, "settings.json"), "{}\n")
	symlink(t, dotfiles, filepath.Join(home, ".claude"))
	p, err = Install(Options{Agent: "claude", Scope: User, Home: home, Command: "hookcore"})
	if err != nil {
		t.Fatal(err)
	}
	if real, _ := filepath.EvalSymlinks(filepath.Join(dotfiles, "settings.json")); p.Target != real {
		t.Errorf("directory link: Target = %q, want %q", p.Target, real)
	}
}

// TestInstallRefusesNonRegularFiles: only a regular file is read or written: a link to a
// device, a named pipe or a directory is refused (not read forever, not replaced by a
// regular file), and so is a file larger than config.MaxFileSize (red team 11: a link to
// /dev/zero ran install out of memory; as root, a link to a device had the device replaced
// by a world-writable regular file). The system's /dev/null is only planned on, never
// given to Apply: before the fix, that replaced it.
func TestInstallRefusesNonRegularFiles(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no /dev")
	}
	mkfifo, err := exec.LookPath("mkfifo")
	if err != nil {
		t.Skip("no mkfifo")
	}
	for _, tc := range []struct{ name, dest, want string }{
		{"dev null", "/dev/null", "is not a regular file (a character device)"},
		{"named pipe", "@fifo", "is not a regular file (a named pipe)"},
		{"directory", "@dir", "is not a regular file (a directory)"},
		{"large", "@big.json", "is larger than 512 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			dest, own := strings.CutPrefix(tc.dest, "@")
			if own {
				dest = filepath.Join(home, dest)
			}
			switch tc.name {
			case "named pipe":
				if out, err := exec.Command(mkfifo, dest).CombinedOutput(); err != nil {
					t.Fatalf("mkfifo: %v %s", err, out)
				}
			case "directory":
				if err := os.Mkdir(dest, 0o755); err != nil {
					t.Fatal(err)
				}
			case "large":
				write(t, dest, `{"x": "`+strings.Repeat("a", 512<<10)+`"}`)
			}
			before, _ := os.Lstat(dest)
			symlink(t, dest, filepath.Join(home, ".claude", "settings.json"))
			for _, f := range []func(Options) (*Plan, error){Install, Uninstall} {
				_, err := f(Options{Agent: "claude", Scope: User, Home: home, Command: "hookcore"})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("err = %v, want %q", err, tc.want)
				}
			}
			if !own {
				return
			}
			// A plan made by hand (convert -o) is refused too, and the file stays as it was.
			p := &Plan{Path: filepath.Join(home, ".claude", "settings.json"), New: []byte("{}\n"), Changed: true}
			if _, err := p.Apply(time.Now()); err == nil {
				t.Error("Apply wrote through the link")
			}
			if fi, err := os.Lstat(dest); err != nil || fi.Mode() != before.Mode() || fi.Size() != before.Size() {
				t.Errorf("%s was replaced: %v, %v", dest, fi.Mode(), err)
			}
		})
	}
}

// TestApplyWritesTheFileThePlanRead: a link re-pointed between plan and Apply, or the file
// changed in between, makes Apply refuse, writing nothing and leaving no backup (red team
// 11: Apply resolved the link again and overwrote a file no backup held).
func TestApplyWritesTheFileThePlanRead(t *testing.T) {
	t.Parallel()
	for _, change := range []string{"re-pointed", "edited"} {
		t.Run(change, func(t *testing.T) {
			t.Parallel()
			home, dotfiles := t.TempDir(), t.TempDir()
			a, b := filepath.Join(dotfiles, "a.json"), filepath.Join(dotfiles, "b.json")
			write(t, a, "{}\n")
			write(t, b, "{\"other\": true}\n")
			link := filepath.Join(home, ".claude", "settings.json")
			symlink(t, a, link)
			p, err := Install(Options{Agent: "claude", Scope: User, Home: home, Command: "hookcore"})
			if err != nil {
				t.Fatal(err)
			}
			switch change {
			case "re-pointed":
				if err := os.Remove(link); err != nil {
					t.Fatal(err)
				}
				symlink(t, b, link)
			case "edited":
				write(t, a, "{\"edited\": 1}\n")
			}
			if _, err := p.Apply(time.Now()); err == nil || !strings.Contains(err.Error(), "nothing written") {
				t.Errorf("Apply: %v, want a refusal", err)
			}
			for f, want := range map[string]string{b: "{\"other\": true}\n"} {
				if got, _ := os.ReadFile(f); string(got) != want {
					t.Errorf("%s = %q, want %q", f, got, want)
				}
			}
			if got, _ := os.ReadFile(a); change == "re-pointed" && string(got) != "{}\n" {
				t.Errorf("%s = %q", a, got)
			}
			ents, _ := os.ReadDir(filepath.Dir(link))
			if len(ents) != 1 {
				t.Errorf("files left beside the link: %v", ents)
			}
		})
	}
}

// TestApplyLeavesNothingWhenItCannotWrite: a link to a file in a directory install cannot
// write in is an error naming that file, and leaves no backup beside the link (red team 11:
// a stray .bak and a raw error). As root, /proc (no file can be made there) stands in for a
// read-only directory.
func TestApplyLeavesNothingWhenItCannotWrite(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	dest := filepath.Join(t.TempDir(), "ro", "settings.json")
	write(t, dest, "{}\n")
	if os.Getuid() == 0 {
		if runtime.GOOS != "linux" {
			t.Skip("root writes any directory")
		}
		dest = "/proc/version" // a regular file whose directory takes no new file
	} else {
		if err := os.Chmod(filepath.Dir(dest), 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Dir(dest), 0o755) }) //nolint:errcheck // TempDir's removal reports it
	}
	link := filepath.Join(home, ".claude", "settings.json")
	symlink(t, dest, link)
	p := &Plan{Path: link, New: []byte("{}\n"), Changed: true}
	old, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	p.Old = old
	backup, err := p.Apply(time.Now())
	if err == nil || !strings.Contains(err.Error(), "cannot write "+dest) {
		t.Errorf("Apply: %v, want a clear error naming %s", err, dest)
	}
	if backup != "" {
		t.Errorf("backup %q returned", backup)
	}
	if ents, _ := os.ReadDir(filepath.Dir(link)); len(ents) != 1 {
		t.Errorf("files left beside the link: %v", ents)
	}
}

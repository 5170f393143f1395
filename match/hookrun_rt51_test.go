package match

import (
	"os"
	"path/filepath"
	"testing"
)

// rt51Home makes a home with a project and the given directories.
func rt51Home(t *testing.T, dirs ...string) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range append(dirs, "proj", "go/bin") {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// Red team round 51, finding 1: the guard's python3 is a pyenv shim. The manager's root and
// the version files (guardPaths' startup paths for a shim) and its commands that switch
// versions count.
func TestChangesHookRunsShim(t *testing.T) {
	t.Parallel()
	home := rt51Home(t, ".pyenv/shims", ".pyenv/versions/3.11.7/lib/python3.11/site-packages", ".pyenv/pyenv.d/exec")
	root := filepath.Join(home, ".pyenv")
	proj := filepath.Join(home, "proj")
	programs := []string{filepath.Join(home, "go/bin/hookcore-hook"), filepath.Join(root, "shims/python3")}
	startup := []string{root, filepath.Join(root, "version"), filepath.Join(proj, ".python-version"), filepath.Join(home, ".python-version"),
		filepath.Join(home, ".local/lib/python3.11/site-packages")}
	checkChangesWith(t, home, programs, startup, []changesCase{
		{"a .pth in the version's site-packages", `printf 'import os; os._exit(0)\n' > ~/.pyenv/versions/3.11.7/lib/python3.11/site-packages/zz.pth`, true},
		{"the .pth by the Write tool", "Write:HOMEDIR/.pyenv/versions/3.11.7/lib/python3.11/site-packages/zz.pth", true},
		{"the version's interpreter", `cp /bin/true ~/.pyenv/versions/3.11.7/bin/python3.11`, true},
		{"a pyenv exec hook", `echo 'exit 0' > ~/.pyenv/pyenv.d/exec/zz.bash`, true},
		{"libexec", "Write:HOMEDIR/.pyenv/libexec/pyenv-exec", true},
		{"the global version", `echo system > ~/.pyenv/version`, true},
		{"the project's version file", `echo 3.12.1 > .python-version`, true},
		{"the project's version file by the Write tool", "Write:HOMEDIR/proj/.python-version", true},
		{"pyenv global", `pyenv global 3.12.1`, true},
		{"pyenv local", `pyenv local system`, true},
		{"pyenv install", `pyenv install 3.13.0`, true},
		{"pyenv versions reads", `pyenv versions`, false},
		{"pyenv version reads", `pyenv version`, false},
		{"another project file", `echo x > notes.txt`, false},
	})
}

// Red team round 51, finding 2: a copy or move whose destination is a directory on the
// path to a startup path or a program slot that does not exist yet becomes that directory
// (`cp -r /tmp/zz ~/.local/lib`, zz holding python3.11/site-packages/zz.pth).
func TestChangesHookRunsCreatedDir(t *testing.T) {
	t.Parallel()
	home := rt51Home(t, ".local/share", "go/bin", "existing/lib/python3.11/site-packages")
	programs := []string{filepath.Join(home, "go/bin/hookcore-hook"), filepath.Join(home, "bin/python3"), filepath.Join(home, "go/bin/python3")}
	startup := []string{filepath.Join(home, ".local/lib/python3.11/site-packages"), filepath.Join(home, "existing/lib/python3.11/site-packages")}
	checkChangesWith(t, home, programs, startup, []changesCase{
		{"cp -r makes the user site", `cp -r /tmp/zz ~/.local/lib`, true},
		{"cp -a", `cp -a /tmp/zz ~/.local/lib`, true},
		{"cp -R into the version's directory", `cp -R /tmp/zz ~/.local/lib/python3.11`, true},
		{"rsync -a", `rsync -a /tmp/zz ~/.local/lib`, true},
		{"mv", `mv /tmp/zz ~/.local/lib`, true},
		{"cp -r makes a PATH directory", `cp -r /tmp/evilbin ~/bin`, true},
		{"a link", `ln -s /tmp/zz ~/.local/lib`, true},
		{"a link for a PATH directory", `ln -s /tmp/evilbin ~/bin`, true},
		{"rsync for a PATH directory", `rsync -r /tmp/evilbin/ ~/bin`, true},
		{"the move_file view", "Write:HOMEDIR/.local/lib", true},
		{"the Write view on the slot directory", "Write:HOMEDIR/bin", true},
		{"a file beside", `cp x ~/.local/share/y`, false},
		{"a file into an existing directory", `cp -r /tmp/zz ~/existing/lib`, false},
		{"a file of another name", `cp x ~/.local/share/`, false},
		{"the Write view elsewhere", "Write:HOMEDIR/.local/share/y", false},
	})
}

// Red team round 51, finding 3: writers whose written files come from their input.
func TestChangesHookRunsInputWriters(t *testing.T) {
	t.Parallel()
	home := rt51Home(t, ".local/lib/python3.11/site-packages")
	programs := []string{filepath.Join(home, "go/bin/hookcore-hook"), filepath.Join(home, "go/bin/python3")}
	startup := []string{filepath.Join(home, ".local/lib/python3.11/site-packages")}
	checkChangesWith(t, home, programs, startup, []changesCase{
		{"unzip -: keeps ../", `unzip -: -o /tmp/x.zip`, true},
		{"unzip elsewhere", `unzip -o /tmp/x.zip -d /tmp/out`, false},
		{"patch from /", `cd / && patch -p0 < /tmp/p.diff`, true},
		{"patch -d /", `patch -d / -p0 -i /tmp/p.diff`, true},
		{"patch of a named file", `patch ~/go/bin/python3 /tmp/p.diff`, true},
		{"patch in the project", `patch -p1 < /tmp/p.diff`, false},
		{"patch --dry-run", `cd / && patch --dry-run -p0 < /tmp/p.diff`, false},
		{"git apply --unsafe-paths", `git apply --unsafe-paths --directory=/ /tmp/p.diff`, true},
		{"git apply from the home", `cd ~ && git apply /tmp/p.diff`, true},
		{"git apply in the project", `git apply /tmp/p.diff`, false},
		{"git apply --check", `git apply --check --unsafe-paths /tmp/p.diff`, false},
		{"xxd -r onto the program", `xxd -r /tmp/in ~/go/bin/python3`, true},
		{"xxd -r -p into the site", `xxd -r -p /tmp/in ~/.local/lib/python3.11/site-packages/zz.pth`, true},
		{"xxd -r elsewhere", `xxd -r /tmp/in /tmp/out`, false},
		{"xxd dump over the program", `xxd /tmp/in ~/go/bin/python3`, true},
		{"xxd to standard output", `xxd -r /tmp/in`, false},
		// Red team round 52: the input names the files.
		{"uudecode", `uudecode /tmp/x.uu`, true},
		{"uudecode -o elsewhere", `uudecode -o /tmp/out /tmp/x.uu`, false},
		{"uudecode -o the program", `uudecode -o ~/go/bin/python3 /tmp/x.uu`, true},
		{"python -m zipfile into /", `python3 -m zipfile -e /tmp/x.zip /`, true},
		{"python -m zipfile elsewhere", `python3 -m zipfile -e /tmp/x.zip /tmp/out`, false},
		{"python -m tarfile", `python3 -m tarfile -e /tmp/x.tar /tmp/out`, true},
		{"python -m zipfile -l", `python3 -m zipfile -l /tmp/x.zip`, false},
	})
}

package match

import (
	"os"
	"path/filepath"
	"testing"
)

// Red team round 50: a package manager names the programs it installs.
func TestChangesHookProgramInstalls(t *testing.T) {
	t.Parallel()
	home, prog := programHome(t, "go/bin/hookcore-hook")
	// Only with the go environment of this test's making: the defaults (GOBIN, GOPATH)
	// are the hook's own environment's (TestChangesHookProgramGoEnv).
	for _, v := range []string{"GOBIN", "GOPATH", "GOENV", "XDG_CONFIG_HOME"} {
		if os.Getenv(v) != "" {
			t.Skip("the environment sets " + v)
		}
	}
	checkChanges(t, home, prog, []changesCase{
		{"go install in a module", "cd /tmp/t && go install", true},
		{"go install a local package", "go install ./cmd/x", true},
		{"go install a pattern", "go install ./...", true},
		{"go install pkg@v of the program's name", "go install example.com/hookcore-hook@latest", true},
		{"go install pkg/vN@v", "go install example.com/hookcore-hook/v2@v2.0.0", true},
		{"go clean -i", "go clean -i", true},
		{"go build -o the directory", "go build -o ~/go/bin/ . && go build -o ~/go/bin ./cmd/y", true},
		{"GOPATH of the line", "GOPATH=~/go:/x go install", true},
		{"go env -w GOBIN on the line", "go env -w GOBIN=/tmp/x && go install", true},
		{"GOBIN of unknown value", "GOBIN=$X go install", true},
		{"make install", "make install", true},
		{"dpkg -i", "dpkg -i /tmp/x.deb", true},
		{"GOBIN elsewhere", "GOBIN=/tmp/gb go install ./cmd/x", false},
		{"env GOBIN elsewhere", "env GOBIN=/tmp/gb go install", false},
		{"GOPATH elsewhere", "GOPATH=/tmp/gp go install .", false},
		{"pkg@v of another name", "go install golang.org/x/tools/cmd/stringer@latest", false},
		{"builds and tests", "go build ./... && go test ./... && go vet ./... && go build -o bin/app .", false},
		{"a local npm install", "npm install && npm ci && npm run build", false},
		{"pip in a virtual environment", "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt", false},
		{"cargo install elsewhere", "cargo install --root /tmp/r ripgrep", false},
	})
	home, prog = programHome(t, ".local/bin/hookcore-hook")
	checkChanges(t, home, prog, []changesCase{
		{"pip install --user", "pip install --user x", true},
		{"python -m pip install --user", "python3 -m pip install --user x", true},
		{"pip --prefix", "pip install --prefix ~/.local x", true},
		{"pipx install", "pipx install x", true},
		{"uv tool install", "uv tool install x", true},
		{"stack install", "stack install", true},
		{"PYTHONUSERBASE elsewhere", "PYTHONUSERBASE=/tmp/ub pip install --user x", false},
		{"PIPX_BIN_DIR elsewhere", "PIPX_BIN_DIR=/tmp/pb pipx install x", false},
		{"pip in a virtual environment", ".venv/bin/pip install x && pip install --target /tmp/t x", false},
		{"go install", "go install ./cmd/x", false},
	})
	home, prog = programHome(t, ".cargo/bin/hookcore-hook")
	checkChanges(t, home, prog, []changesCase{
		{"cargo install", "cargo install --path .", true},
		{"cargo --config", "cargo install --config install.root=/x x", true},
		{"cargo install elsewhere", "cargo install --root /tmp/r x && CARGO_INSTALL_ROOT=/tmp/c cargo install y", false},
		{"cargo build", "cargo build --release && cargo test", false},
	})
	home, prog = programHome(t, ".npm-global/bin/hookcore-hook")
	checkChanges(t, home, prog, []changesCase{
		{"npm i -g with the prefix", "NPM_CONFIG_PREFIX=~/.npm-global npm i -g x", true},
		{"npm install -g --prefix", "npm install -g --prefix ~/.npm-global x", true},
		{"npm link after an npmrc write", "echo prefix=~/.npm-global > ~/.npmrc && npm link", true},
		{"npm i -g elsewhere", "NPM_CONFIG_PREFIX=/tmp/np npm i -g x", false},
		{"npm install", "npm install x && npm i -D y", false},
	})
	home, prog = programHome(t, ".gem/ruby/3.2.0/bin/hookcore-hook")
	checkChanges(t, home, prog, []changesCase{
		{"gem --user-install", "gem install --user-install x", true},
		{"GEM_HOME", "GEM_HOME=~/.gem/ruby/3.2.0 gem install x", true},
		{"gem -n elsewhere", "gem install -n /tmp/gb x", false},
	})
}

// The hook's own environment: the go environment's defaults.
func TestChangesHookProgramGoEnv(t *testing.T) {
	home, prog := programHome(t, "go/bin/hookcore-hook")
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("GOENV", "")
	t.Setenv("GOPATH", "")
	t.Setenv("GOBIN", "")
	checkChanges(t, home, prog, []changesCase{{"go install by default", "go install", true}})
	t.Setenv("GOBIN", "/tmp/elsewhere")
	checkChanges(t, home, prog, []changesCase{{"go install with GOBIN elsewhere", "go install", false}})
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", filepath.Join(home, "go")+":/x")
	checkChanges(t, home, prog, []changesCase{{"GOPATH's first entry", "go install", true}})
	t.Setenv("GOPATH", "/tmp/gp")
	checkChanges(t, home, prog, []changesCase{{"GOPATH elsewhere", "go install", false}})
	t.Setenv("GOPATH", "")
	if err := os.MkdirAll(filepath.Join(cfg, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "go", "env"), []byte("GOBIN=/tmp/elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkChanges(t, home, prog, []changesCase{{"the go env file's GOBIN", "go install", false}})
	if err := os.WriteFile(filepath.Join(cfg, "go", "env"), []byte("GOBIN="+filepath.Join(home, "go", "bin")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checkChanges(t, home, prog, []changesCase{{"the go env file's GOBIN at the program", "GOBIN= go install; go install", true}})
}

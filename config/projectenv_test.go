package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEnvNamesPathIn: a value of a project's env that may name a path inside the workspace
// stays refused under a grant (stop 29), which binds the env's text and not the files it
// names; a value that names places outside it, or no place, does not.
func TestEnvNamesPathIn(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "in")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, value string
		want        bool
	}{
		{"JAVA_HOME", "/usr/lib/jvm/17", false},
		{"APP_CONFIG", "dev", false},
		{"APP_CONFIG", "src", true}, // a bare word naming an entry of the workspace
		{"PYTHONPATH", "src", true},
		{"PYTHONPATH", ".pyevil", true}, // a dot file, existing or not
		{"PYTHONPATH", "lib/py", true},
		{"CLASSPATH", "/usr/share/java/a.jar:" + filepath.Join(ws, "lib"), true},
		{"CLASSPATH", "/usr/share/java/a.jar:" + link + "/lib", true}, // a link into it
		{"LIBRARY_PATH", "/usr/lib::/lib", true},                      // an empty element is the working directory
		{"LIBRARY_PATH", "/usr/lib:/lib", false},
		{"APP_URLS", "a::b", false}, // not a list of paths
		{"NODE_OPTIONS", "--require ./x.js", true},
		{"NODE_OPTIONS", "--require=/opt/x.js", false},
		{"MAVEN_OPTS", "-javaagent:lib/agent.jar -Xmx1g", true},
		{"MAVEN_OPTS", "-Xmx1g", false},
		{"CFLAGS", "-I/usr/include -O2", false},
		{"CFLAGS", "-Isrc", true},
		{"JDK_JAVA_OPTIONS", "@.opts", true},
		{"HTTPS_PROXY", "http://proxy.corp:3128", false},
		{"SSL_CERT_FILE", "certs/ca.pem", true},
		{"EDITOR", "vim", false},
		{"EDITOR", "~/bin/ed", false},
		{"PATH", "$PWD/bin:/usr/bin", true}, // no expansion: a relative directory
		{"X_HOME", "", false},
	} {
		if got := EnvNamesPathIn(tc.name, tc.value, []string{ws}); got != tc.want {
			t.Errorf("EnvNamesPathIn(%q, %q) = %v, want %v", tc.name, tc.value, got, tc.want)
		}
	}
}

// TestGrantKeeps: the names that decide what hookcore itself reads or runs stay refused
// under a grant; the other classes of GuardEnv do not.
func TestGrantKeeps(t *testing.T) {
	t.Parallel()
	kept := []string{"HOME", "PATH", "HOOKCORE_STATE_DIR", "hookcore_audit", "XDG_STATE_HOME",
		"XDG_CONFIG_HOME", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "BASH_FUNC_ls%%"}
	accepted := []string{"JAVA_HOME", "APP_CONFIG", "PYTHONPATH", "NODE_OPTIONS", "XDG_DATA_HOME", "HTTPS_PROXY"}
	for _, name := range kept {
		if GrantKeeps(name) == "" {
			t.Errorf("GrantKeeps(%q) is empty, want a reason", name)
		}
	}
	for _, name := range accepted {
		if why := GrantKeeps(name); why != "" {
			t.Errorf("GrantKeeps(%q) = %q, want none", name, why)
		}
	}
}

// TestReadProjectEnv: a settings file's env digest is that of its env members in canonical
// JSON (Claude Code re-indents the file and adds permission rules while a session runs:
// the grant still holds), and any change of the env changes it.
func TestReadProjectEnv(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, ".claude", "settings.json")
	if err := os.Mkdir(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	read := func(content string) ProjectEnv {
		t.Helper()
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		pe, err := ReadProjectEnv(p, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		return pe
	}
	base := read(`{"env": {"JAVA_HOME": "/usr/lib/jvm/17", "N": 1}}`)
	want := []EnvVar{{Name: "JAVA_HOME", Value: "/usr/lib/jvm/17", Valued: true}, {Name: "N", Value: "1", Valued: true}}
	if diff := cmp.Diff(want, base.Vars); diff != "" {
		t.Errorf("Vars (-want +got):\n%s", diff)
	}
	if base.Digest == "" {
		t.Fatal("no digest")
	}
	same := read("\ufeff{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"env\": {\n    \"JAVA_HOME\": \"/usr/lib/jvm/17\",\n    \"N\": 1\n  }\n}\n")
	if same.Digest != base.Digest {
		t.Error("a re-indented file with another member has another env digest")
	}
	for _, content := range []string{
		`{"env": {"JAVA_HOME": "/tmp/jdk", "N": 1}}`,
		`{"env": {"JAVA_HOME": "/usr/lib/jvm/17", "N": 1}, "env": {"JAVA_HOME": "/tmp/jdk"}}`,
		`{"env": {"N": 1, "JAVA_HOME": "/usr/lib/jvm/17"}}`,
	} {
		if pe := read(content); pe.Digest == base.Digest {
			t.Errorf("%s: the env digest did not change", content)
		}
	}
	if pe := read(`{"permissions": {}}`); pe.Digest != "" || pe.Vars != nil {
		t.Errorf("no env: %+v", pe)
	}
	if EnvKey(p) != ".claude/settings.json" || EnvHolder(p) != dir {
		t.Errorf("EnvKey %q, EnvHolder %q", EnvKey(p), EnvHolder(p))
	}
}

// TestDotEnvKeys: trust show lists the words that stand where a key does, the words of
// values not (a value word "lib" is no variable); a key without a plain NAME=value line
// has no value.
func TestDotEnvKeys(t *testing.T) {
	t.Parallel()
	data := []byte("# JAVA_OPTS in a comment\nJAVA_HOME=/usr/lib/jvm/17\nexport A_CONFIG='x y'\nPYTHONPATH\u00a0=.evil\r\nDB=postgres://u:p@h/db # the app's\nBARE_CONFIG\n")
	if diff := cmp.Diff([]string{"JAVA_HOME", "A_CONFIG", "PYTHONPATH", "DB", "BARE_CONFIG"}, DotEnvKeys(data)); diff != "" {
		t.Errorf("DotEnvKeys (-want +got):\n%s", diff)
	}
	pe := DotEnv("/w/.env", data)
	want := []EnvVar{
		{Name: "A_CONFIG", Value: "x y", Valued: true},
		{Name: "BARE_CONFIG"}, // no plain NAME=value line: no value shown
		{Name: "DB", Value: "postgres://u:p@h/db", Valued: true},
		{Name: "JAVA_HOME", Value: "/usr/lib/jvm/17", Valued: true},
		{Name: "PYTHONPATH", Value: ".evil", Valued: true}, // Go's TrimSpace takes the no-break space too
	}
	if diff := cmp.Diff(want, pe.Vars); diff != "" {
		t.Errorf("Vars (-want +got):\n%s", diff)
	}
	if pe.Digest == DotEnv("/w/.env", append(data, 'x')).Digest {
		t.Error("a changed .env has the same digest")
	}
}

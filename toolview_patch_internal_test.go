package hookcore

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParsePatch: parsePatch reads the apply_patch grammar as codex-rs/apply-patch's
// lenient parser does (its parser.rs tests), and rejects what it rejects.
func TestParsePatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       []patchFile
		ok         bool
	}{
		{"add", "*** Begin Patch\n*** Add File: secret/a\n+x\n+y\n*** End Patch\n",
			[]patchFile{{"add", "secret/a", "x\ny\n"}}, true},
		{"delete", "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch",
			[]patchFile{{"delete", "gone.txt", ""}}, true},
		{"update", "*** Begin Patch\n*** Update File: a.go\n@@ func f()\n-\treturn 1\n+\treturn 2\n*** End Patch",
			[]patchFile{{"update", "a.go", ""}}, true},
		{"update without @@", "*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch",
			[]patchFile{{"update", "file2.py", ""}}, true},
		{"move", "*** Begin Patch\n*** Update File: a\n*** Move to: secret/b\n@@\n-x\n+y\n*** End Patch",
			[]patchFile{{"update", "a", ""}, {"move", "secret/b", ""}}, true},
		{"several, with an end of file and blank lines", "*** Begin Patch\n*** Add File: path/add.py\n+abc\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n\n@@\n+z\n*** End of File\n*** Add File: last\n+l\n*** End Patch",
			[]patchFile{{"add", "path/add.py", "abc\n"}, {"delete", "path/delete.py", ""}, {"update", "path/update.py", ""}, {"move", "path/update2.py", ""}, {"add", "last", "l\n"}}, true},
		{"padded markers and CRLF", "  *** Begin Patch \r\n *** Add File: foo \r\n+hi\r\n *** End Patch  \r\n",
			[]patchFile{{"add", "foo", "hi\n"}}, true},
		{"an absolute path", "*** Begin Patch\n*** Update File: /home/dev/proj/.env\n@@\n+TOKEN=abc\n*** End Patch",
			[]patchFile{{"update", "/home/dev/proj/.env", ""}}, true},
		{"a header-like line inside an added file is its content", "*** Begin Patch\n*** Add File: a\n+*** Add File: secret/b\n*** End Patch",
			[]patchFile{{"add", "a", "*** Add File: secret/b\n"}}, true},
		{"a heredoc", "<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF\n",
			[]patchFile{{"add", "a", "x\n"}}, true},
		{"an empty patch", "*** Begin Patch\n*** End Patch", nil, true},
		{"no begin", "*** Add File: a\n+x\n*** End Patch", nil, false},
		{"no end", "*** Begin Patch\n*** Add File: a\n+x\n", nil, false},
		{"one line", "*** Begin Patch", nil, false},
		{"an unknown header", "*** Begin Patch\n*** Frobnicate File: a\n*** End Patch", nil, false},
		{"an empty path is no header", "*** Begin Patch\n*** Add File: \n+x\n*** End Patch", nil, false},
		{"an update with no change", "*** Begin Patch\n*** Update File: a\n*** End Patch", nil, false},
		{"a second change without @@", "*** Begin Patch\n*** Update File: a\n@@\n+x\n\nstray\n*** End Patch", nil, false},
		{"a bad heredoc", "<<'EOT'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF", nil, false},
		{"a unified diff", "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := parsePatch(tt.text)
			if ok != tt.ok {
				t.Fatalf("parsePatch ok = %v, want %v", ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(patchFile{})); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPatchPath: the path a guard reads for each path a patch names, and the paths that are
// an unknown file's.
func TestPatchPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, path, dir string
		want            []string
		ok              bool
	}{
		{"relative", "secret/a", "", []string{"secret/a"}, true},
		{"absolute", "/srv/app/secret/a", "", []string{"/srv/app/secret/a"}, true},
		{"after cd", "a", "secret", []string{"secret/a"}, true},
		{"absolute after cd", "/x/a", "secret", []string{"/x/a"}, true},
		{"a tilde is the home's, or the cwd's for an older Codex (red team round 62)", "~/.bashrc", "", []string{"~/.bashrc", "./~/.bashrc"}, true},
		{"a tilde after cd", "~/.bashrc", "sub", []string{"~/.bashrc", "sub/~/.bashrc"}, true},
		{"a tilde and two slashes (red team round 63)", "~//.ssh/x", "", []string{"~/.ssh/x", "./~//.ssh/x"}, true},
		{"a tilde and a dot", "~/./.ssh/x", "", []string{"~/.ssh/x", "./~/./.ssh/x"}, true},
		{"another user's tilde is the cwd's", "~bob/x", "", []string{"./~bob/x"}, true},
		{"dot-dot", "notes/../secret/a", "", nil, false},
		{"leading dot-dot", "../secret/a", "", nil, false},
		{"dot-dot in the cd", "a", "../x", nil, false},
		{"a NUL", "a\x00b", "", nil, false},
		{"blank", "  ", "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := patchPaths(tt.path, tt.dir)
			if !slices.Equal(got, tt.want) || ok != tt.ok {
				t.Errorf("patchPaths(%q, %q) = %q, %v; want %q, %v", tt.path, tt.dir, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestShellPatchViews: a Bash command line that names apply_patch has the views of its
// heredoc's patch when it is one of the two shapes Codex applies itself, and is a write of an
// unknown file otherwise; a line that does not name it has none.
func TestShellPatchViews(t *testing.T) {
	t.Parallel()
	const unknown = `{"file_path":null}`
	patch := "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"
	tests := []struct {
		name, cmd string
		want      []string
	}{
		{"a heredoc", "apply_patch <<'EOF'\n" + patch + "\nEOF\n", []string{`{"content":"x\n","file_path":"a"}`}},
		{"after cd", "cd 'sub dir' && apply_patch <<\"EOF\"\n" + patch + "\nEOF", []string{`{"content":"x\n","file_path":"sub dir/a"}`}},
		{"applypatch", "applypatch <<EOF\n" + patch + "\nEOF", []string{`{"content":"x\n","file_path":"a"}`}},
		{"a patch file", "apply_patch < fix.patch", []string{unknown}},
		{"a quoted name", "apply_pa''tch <<EOF\n" + patch + "\nEOF", []string{unknown}},
		{"a path to it", "/tmp/codex-arg0/apply_patch <<EOF\n" + patch + "\nEOF", []string{unknown}},
		{"two of them", "apply_patch <<EOF\n" + patch + "\nEOF\napply_patch <<EOF\n" + patch + "\nEOF", []string{unknown}},
		{"a cd through a variable", "cd $D && apply_patch <<EOF\n" + patch + "\nEOF", []string{unknown}},
		{"something after", "apply_patch <<EOF && rm x\n" + patch + "\nEOF", []string{unknown}},
		{"a broken patch", "apply_patch <<EOF\n*** Begin Patch\n*** Nope: a\n*** End Patch\nEOF", []string{unknown}},
		{"no apply_patch", "git apply fix.patch && ls", nil},
		{"a longer name", "my_apply_patcher x", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, v := range shellPatchViews(tt.cmd) {
				if v.tool != "Write" {
					t.Errorf("a %s view", v.tool)
				}
				got = append(got, string(v.input))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("views (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParsePatch: parsePatch never panics, and a patch it reads names no file with an empty
// path.
func FuzzParsePatch(f *testing.F) {
	for _, s := range []string{
		"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch", "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End of File\n*** End Patch",
		"<<EOF\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF", "*** Begin Patch\n*** Update File: a\n", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		files, ok := parsePatch(s)
		for _, fl := range files {
			if !ok || fl.path == "" {
				t.Errorf("parsePatch(%q): %+v, %v", s, fl, ok)
			}
		}
		_ = shellPatchViews("apply_patch <<EOF\n" + s + "\nEOF")
	})
}

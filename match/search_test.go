package match

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// searchCase is one call fired at a rule in the project /p (root, cwd and directory), with
// the home directory /home/u.
type searchCase struct {
	name, rule, tool, args string
	match, allows          bool
}

func runSearchCases(t *testing.T, tests []searchCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewSubjectAt("/p", "PreToolUse", tt.tool, json.RawMessage(tt.args)).WithCwd("/p").WithHome("/home/u")
			s.dir = "/p"
			checkMatchAllows(t, tt.rule, s, tt.args, tt.match, tt.allows)
		})
	}
}

// TestReadRulesMatchSearches: a Read rule reads Grep, Glob and LS calls (Gemini CLI's
// grep_search, glob and list_directory, which the bridge names so). Claude Code 2.1.332
// with permissions.deny Read(./.env) or Read(./secrets/**) denied a Grep whose path was
// .env (relative or absolute), secrets or secrets/key.txt, and a Glob whose path was
// secrets; it ran a Grep of the project, of sub (which holds sub/.env) and with glob ".env",
// and a Glob of **/.env, leaving the denied files out of what they printed. A hook cannot
// leave them out, so hookcore matches the root as Claude Code denies it, and a glob that
// names what the rule names (spells part of each of its names): ".env" and ".e*" do, "*"
// and "**/*.go" do not, so a search of the whole project still runs. Read rules permit no
// search: an allow for one is a Grep or Glob rule.
func TestReadRulesMatchSearches(t *testing.T) {
	t.Parallel()
	grep := func(name, rule, args string, match bool) searchCase {
		return searchCase{name, rule, "Grep", args, match, false}
	}
	glob := func(name, rule, args string, match bool) searchCase {
		return searchCase{name, rule, "Glob", args, match, false}
	}
	runSearchCases(t, []searchCase{
		// Claude Code denied these (permissions.deny).
		grep("grep path file", "Read(./.env)", `{"pattern":"SECRET","path":".env"}`, true),
		grep("grep path absolute", "Read(./.env)", `{"pattern":"SECRET","path":"/p/.env"}`, true),
		grep("grep path at depth", "Read(./.env)", `{"pattern":"SECRET","path":"sub/.env"}`, true),
		grep("grep path dir", "Read(./secrets/**)", `{"pattern":"SECRET","path":"secrets"}`, true),
		grep("grep path dir absolute", "Read(./secrets/**)", `{"pattern":"SECRET","path":"/p/secrets"}`, true),
		grep("grep path in dir", "Read(./secrets/**)", `{"pattern":"SECRET","path":"secrets/key.txt"}`, true),
		grep("grep path in bare dir", "Read(secrets)", `{"pattern":"SECRET","path":"secrets/key.txt"}`, true),
		glob("glob path dir", "Read(./secrets/**)", `{"pattern":"*","path":"/p/secrets"}`, true),
		// Claude Code ran these, leaving the file out of the output.
		grep("grep project", "Read(./.env)", `{"pattern":"SECRET"}`, false),
		grep("grep project dot", "Read(./.env)", `{"pattern":"SECRET","path":"."}`, false),
		grep("grep dir holding it", "Read(./.env)", `{"pattern":"SECRET","path":"sub"}`, false),
		grep("grep dir of other files", "Read(./secrets/*.txt)", `{"pattern":"SECRET","path":"secrets"}`, false),
		// Globs: named when they spell part of each name the rule spells.
		grep("grep glob name", "Read(./.env)", `{"pattern":"SECRET","glob":".env"}`, true),
		grep("grep glob wildcard name", "Read(**/.env)", `{"pattern":"SECRET","glob":".e*"}`, true),
		grep("grep glob suffix", "Read(**/.env)", `{"pattern":"SECRET","glob":"*.env"}`, true),
		grep("grep glob braces", "Read(**/.env)", `{"pattern":"SECRET","glob":"*.{go,env}"}`, true),
		grep("grep glob list", "Read(**/.env)", `{"pattern":"SECRET","glob":"*.go .env"}`, true),
		grep("grep glob commas", "Read(**/.env)", `{"pattern":"SECRET","glob":"*.go,.env"}`, true),
		grep("grep glob exclusion", "Read(**/.env)", `{"pattern":"SECRET","glob":"!.env"}`, false),
		grep("grep glob everything", "Read(**/.env)", `{"pattern":"SECRET","glob":"*"}`, false),
		grep("grep glob other files", "Read(**/.env)", `{"pattern":"SECRET","glob":"*.go"}`, false),
		grep("grep glob under dir", "Read(./secrets/**)", `{"pattern":"SECRET","glob":"secrets/*"}`, true),
		grep("grep glob type", "Read(./secrets/**)", `{"pattern":"SECRET","glob":"*.txt"}`, false),
		grep("grep glob in dir", "Read(./secrets/*.txt)", `{"pattern":"SECRET","path":"secrets","glob":"*.txt"}`, true),
		grep("grep glob in dir other", "Read(./secrets/*.txt)", `{"pattern":"SECRET","path":"secrets","glob":"*"}`, false),
		glob("glob name", "Read(./.env)", `{"pattern":"**/.env"}`, true),
		glob("glob name case", "Read(./.env)", `{"pattern":".ENV"}`, true),
		glob("glob absolute", "Read(./.env)", `{"pattern":"/p/sub/.env"}`, true),
		glob("glob everything", "Read(./.env)", `{"pattern":"**/*"}`, false),
		glob("glob under other dir", "Read(./.env)", `{"pattern":"*","path":"/p/src"}`, false),
		glob("glob climbs", "Read(./.env)", `{"pattern":"../.env","path":"/p/sub"}`, true),
		glob("glob outside the project", "Read(./.env)", `{"pattern":"*.env","path":"/tmp"}`, false),
		glob("glob of the home", "Read(~/.ssh)", `{"pattern":"**/id_*","path":"/home/u/.ssh"}`, true),
		glob("glob home from above", "Read(~/.ssh)", `{"pattern":".ssh/*","path":"/home/u"}`, true),
		// A rule that spells no name denies every file below the project: a search of it.
		// (Claude Code 2.1.332 ran a Grep of the project under Read(./**) and printed
		// nothing; a hook cannot filter.)
		grep("grep project, all denied", "Read(./**)", `{"pattern":"SECRET"}`, true),
		grep("grep dir, all of it denied", "Read(./src/**/*)", `{"pattern":"SECRET","path":"src"}`, true),
		grep("grep other dir", "Read(./src/**/*)", `{"pattern":"SECRET","path":"lib"}`, false),
		{"ls project, all denied", "Read(./**)", "LS", `{"path":"/p"}`, true, false},
		// The working directory is the root of a search that names none.
		{"grep in denied cwd", "Read(./secrets/**)", "Grep", `{"pattern":"SECRET"}`, false, false},
		// Gemini CLI's names of the arguments; LS; odd values; other rules.
		grep("grep_search dir_path", "Read(./.env)", `{"pattern":"x","dir_path":"/p/.env"}`, true),
		grep("grep_search include_pattern", "Read(./.env)", `{"pattern":"x","include_pattern":".env"}`, true),
		grep("grep_search include", "Read(./.env)", `{"pattern":"x","include":"**/.env"}`, true),
		{"ls denied dir", "Read(./secrets/**)", "LS", `{"path":"/p/secrets"}`, true, false},
		{"list_directory denied dir", "Read(./secrets/**)", "LS", `{"dir_path":"/p/secrets"}`, true, false},
		{"ls other dir", "Read(./secrets/**)", "LS", `{"dir_path":"/p/src"}`, false, false},
		grep("grep glob not a string", "Read(./.env)", `{"pattern":"x","glob":["x"]}`, true),
		grep("grep path NUL", "Read(./.env)", `{"pattern":"x","path":"/p/src\u0000"}`, true),
		grep("grep arguments not JSON", "Read(./.env)", `{"pattern":`, true),
		grep("bare Read", "Read", `{"pattern":"x","path":"/p/src"}`, true),
		grep("edit rule", "Edit(./.env)", `{"pattern":"x","path":".env"}`, false),
		{"grep rule", "Grep(SECRET)", "Grep", `{"pattern":"SECRET","path":".env"}`, true, true},
		{"other tool", "Read(./.env)", "WebFetch", `{"url":"https://x/.env","path":".env"}`, false, false},
	})
}

// TestReadRulesSearchInDeniedCwd: a search that names no root runs in the call's working
// directory (Claude Code's Grep without path searches the session's cwd).
func TestReadRulesSearchInDeniedCwd(t *testing.T) {
	t.Parallel()
	args := `{"pattern":"SECRET"}`
	s := NewSubjectAt("/p", "PreToolUse", "Grep", json.RawMessage(args)).WithCwd("/p/secrets")
	checkMatchAllows(t, "Read(./secrets/**)", s, args, true, false)
}

// TestReadRulesMatchReadMany: Gemini CLI's read_many_files, which the bridge names Read,
// reads every file its `include` entries (`paths` and `include` before 0.61.0) name: paths
// and node-glob globs relative to the workspace, case ignored, a directory for all of its
// files. A Read rule matches when an entry can name a file the rule's pattern matches
// (`**/*` and `src/**` can name .env: the attacker chose the glob), or spells a directory
// the rule names and reaches inside it; an entry that is not a string, or that climbs with
// "..", matches. No path rule permits such a call.
func TestReadRulesMatchReadMany(t *testing.T) {
	t.Parallel()
	rm := func(name, rule, args string, match bool) searchCase {
		return searchCase{name, rule, "Read", args, match, false}
	}
	runSearchCases(t, []searchCase{
		rm("file", "Read(**/.env)", `{"include":[".env"]}`, true),
		rm("file at depth", "Read(**/.env)", `{"include":["notes.md","sub/.env"]}`, true),
		rm("case", "Read(**/.env)", `{"include":[".ENV"]}`, true),
		rm("everything", "Read(**/.env)", `{"include":["**/*"]}`, true),
		rm("top level", "Read(**/.env)", `{"include":["*"]}`, true),
		rm("a directory", "Read(**/.env)", `{"include":["src/**"]}`, true),
		rm("a directory named", "Read(**/.env)", `{"include":["src/"]}`, true),
		rm("other files", "Read(**/.env)", `{"include":["**/*.md","docs/*.txt"]}`, false),
		rm("older paths", "Read(**/.env)", `{"paths":["notes.md"],"include":["*.en?"]}`, true),
		rm("a string", "Read(**/.env)", `{"include":".env"}`, true),
		rm("a string of others", "Read(**/.env)", `{"include":"notes.md"}`, false),
		rm("not a string", "Read(**/.env)", `{"include":[1]}`, true),
		rm("climbs", "Read(**/.env)", `{"include":["../x/*.md"]}`, true),
		rm("exclude does not narrow", "Read(**/.env)", `{"include":["**/*"],"exclude":["**/.env"]}`, true),
		rm("dir rule, types", "Read(./secrets/**)", `{"include":["**/*.ts"]}`, true),
		rm("dir rule, other dir", "Read(./secrets/**)", `{"include":["src/**/*.ts"]}`, false),
		rm("bare dir, spelled", "Read(secrets)", `{"include":["secrets/*"]}`, true),
		rm("bare dir, types", "Read(secrets)", `{"include":["**/*.ts"]}`, false),
		rm("absolute", "Read(./.env)", `{"include":["/p/sub/.env"]}`, true),
		{"bare Read permits", "Read", "Read", `{"include":["notes.md"]}`, true, true},
		{"allow rule", "Read(**)", "Read", `{"include":["notes.md"]}`, true, false},
		{"allow rule with file_path", "Read(**)", "Read", `{"file_path":"/p/a.md","include":["notes.md"]}`, true, false},
		{"allow rule plain read", "Read(**)", "Read", `{"file_path":"/p/a.md"}`, true, true},
	})
}

// TestReadRulesSearchSymlinks: a search root and a read_many_files entry that is a path are
// matched in every spelling, as a Read's file_path is: a link to .env, a directory link to
// secrets; an entry that is a directory on disk names its files.
func TestReadRulesSearchSymlinks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "secrets"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".env"), []byte("x"), 0o644))
	must(os.Symlink(".env", filepath.Join(root, "notes")))
	must(os.Symlink("secrets", filepath.Join(root, "docs")))
	must(os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(os.WriteFile(filepath.Join(root, "a.md"), []byte("x"), 0o644))
	for _, tt := range []struct {
		rule, tool, args string
		match            bool
	}{
		{"Read(./.env)", "Grep", `{"pattern":"x","path":"notes"}`, true},
		{"Read(./.env)", "Read", `{"include":["notes"]}`, true},
		{"Read(./secrets/**)", "Glob", `{"pattern":"*","path":"docs"}`, true},
		// An entry that is an existing directory reads its files (src/.env may be one).
		{"Read(**/.env)", "Read", `{"include":["src"]}`, true},
		{"Read(**/.env)", "Read", `{"include":["a.md"]}`, false},
	} {
		s := NewSubjectAt(root, "PreToolUse", tt.tool, json.RawMessage(tt.args)).WithCwd(root)
		checkMatchAllows(t, tt.rule, s, tt.args, tt.match, false)
	}
}

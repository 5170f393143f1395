package hookcore

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzMayHoldViewKey: the byte scan that spares decoding most tool inputs (mayHoldViewKey)
// never says "no" to an input in which walkViews finds a shell command or a URL; a wrong
// "no" would let such a call past the Bash and WebFetch guards unread.
func FuzzMayHoldViewKey(f *testing.F) {
	for _, s := range []string{
		`{"command":"rm -rf x"}`, `{"CMD":["rm","-rf"]}`, `{"a":{"Url":"https://x"}}`,
		`{"c\u006fmmand":"x"}`, `{"file_path":"/a","content":"\"url\": x"}`, `{"x":[{"cmd":"ls"}]}`,
		`{"url" :"x"}`, `{"comm\u0061nd":"x"}`, `{"Program":"rm","args":["-rf"]}`, `{"commands":[{"x":1}]}`, `{"HREF":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		views := walkViews("Agent", v, "")
		if len(views) > 0 && !mayHoldViewKey([]byte(s)) {
			t.Errorf("mayHoldViewKey(%q) = false; walkViews found %d views", s, len(views))
		}
	})
}

// TestMayHoldViewKey: what the scan says for the inputs of the usual tools.
func TestMayHoldViewKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{
		`{"file_path":"/a/b","old_string":"x","new_string":"y"}`:    false,
		`{"file_path":"/a/b","content":"{\"url\": \"https://x\"}"}`: false,
		`{"pattern":"**/*.go"}`:                                     false,
		`{"description":"w","timeout_ms":5000,"command":"ls"}`:      true,
		`{"ws":{"URL":"wss://x"}}`:                                  true,
		`{"Cmd":"ls"}`:                                              true,
		`{"function":"f","args":["a","b"]}`:                         false, // args alone are no command
		`{"Program":"rm","args":["-rf"]}`:                           true,
		`{"a":{"Endpoint":"https://x"}}`:                            true,
		`{"content":"caf\u00e9"}`:                                   false, // an escape in a value spells no key
		`{"c\u006fntent":"x"}`:                                      true,  // an escape may spell a key
		`{"file_path":"/a","content":"run the code: exec it"}`:      false, // a Write's text is no key
		`{"ſcript":"rm -rf x"}`:                                     true,  // ſ folds to s
		`{"shell_cmd":"rm -rf x"}`:                                  true,
		`{"commandText":"rm -rf x"}`:                                true,
		`{"code":"!rm -rf x","languageId":"shellscript"}`:           true,
	} {
		if got := mayHoldViewKey([]byte(in)); got != want {
			t.Errorf("mayHoldViewKey(%s) = %v, want %v", in, got, want)
		}
	}
}

// TestKeyWords: how an argument name splits into words for the key rules.
func TestKeyWords(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]string{
		"base_url": "base url", "baseUrl": "base url", "webhookURL": "webhook url", "targetURLs": "target urls",
		"URLPath": "url path", "pathInProject": "path in project", "file-path.x y": "file path x y",
		"commandText": "command text", "cmd_line": "cmd line", "v2Path": "v2 path", "curl": "curl",
	} {
		if got := strings.Join(keyWords(k), " "); got != want {
			t.Errorf("keyWords(%q) = %q, want %q", k, got, want)
		}
	}
}

// TestReadToolName: what a tool's name says about the files it names and the code it runs.
func TestReadToolName(t *testing.T) {
	t.Parallel()
	for tool, want := range map[string]toolName{
		"mcp__filesystem__read_text_file":               {readOnly: true},
		"mcp__filesystem__directory_tree":               {readOnly: true},
		"mcp__filesystem__list_allowed_directories":     {readOnly: true},
		"mcp__filesystem__write_file":                   {},
		"mcp__filesystem__move_file":                    {renames: true},
		"mcp__git__git_status":                          {readOnly: true},
		"mcp__git__git_add":                             {},
		"mcp__git__git_log":                             {readOnly: true},
		"mcp__x__show_log":                              {readOnly: true},
		"mcp__x__log_to_file":                           {},
		"log_event":                                     {},
		"mcp__x__get_or_create":                         {},
		"mcp__x__search_and_replace":                    {},
		"mcp__code-runner__run-code":                    {runs: true},
		"mcp__x__run_python":                            {runs: true, langs: []string{"python"}},
		"mcp__ide__executeCode":                         {runs: true, langs: []string{"python"}},
		"mcp__desktop-commander__interact_with_process": {process: true},
		"mcp__x__run_cmd":                               {runs: true},
		"mcp__jupyter__insert_execute_code_cell":        {runs: true, cell: true},
		"mcp__jupyter__overwrite_cell_source":           {cell: true},
		"mcp__jupyter__run":                             {runs: true, cell: true},
		"mcp__jupyterlab__add_block":                    {cell: true},
		"mcp__marimo__add":                              {cell: true},
		"mcp__x__nb_add":                                {cell: true},
		"create_paragraph":                              {cell: true},
		"edit_notebook":                                 {cell: true},
	} {
		if diff := cmp.Diff(want, readToolName(tool), cmp.AllowUnexported(toolName{})); diff != "" {
			t.Errorf("readToolName(%q) (-want +got):\n%s", tool, diff)
		}
	}
}

func TestZeppelinParagraph(t *testing.T) {
	t.Parallel()
	type got struct {
		Lang, Body string
		OK         bool
	}
	for code, want := range map[string]got{
		"%sh\nrm -rf x":              {"sh", "rm -rf x", true},
		"\n  %bash\nrm x\nls":        {"sh", "rm x\nls", true},
		"%python.ipython\n!rm x":     {"python", "!rm x", true},
		"%sh.terminal\nrm x":         {"sh", "rm x", true},
		"%spark.pyspark(k=v)\nprint": {"", "print", true},
		"%md\n# title":               {"", "# title", true},
		"import os\n%sh":             {},
		"%sx rm x":                   {},
	} {
		var g got
		g.Lang, g.Body, g.OK = zeppelinParagraph(code)
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("zeppelinParagraph(%q) (-want +got):\n%s", code, diff)
		}
	}
}

// TestPathForm: which strings read as a file path by their form alone (red team round 53).
func TestPathForm(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"/etc/x": true, "~": true, "~/.minicode": true, "./a": true, "../a": true, ".": true, "..": true,
		"a/b": true, "go/bin/hookcore-hook": true, "kind/bug": true, "/a b/c": true, "~user/x": true,
		"": false, "how to use grep": false, "a b/c": false, "a/b\nc": false, "hookcore-hook": false,
		"https://x.example/a": false, "https:evil.com/a": false, "ssh://h/x": false, "foo://": false, "s3://b/k": false,
		".minicode": false, "a.txt": false, "mailto:a@b": false,
	} {
		if got := pathForm(s); got != want {
			t.Errorf("pathForm(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestJoinParts: the paths a list of parts joins to.
func TestJoinParts(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		`["~", ".minicode", "config.yaml"]`:  {"~/.minicode/config.yaml"},
		`["~/", ".minicode/", "a"]`:          {"~/.minicode/a"},
		`["~/", "/.minicode/", "a"]`:         {"~/.minicode/a", "/.minicode/a"},
		`["~", "..", "x"]`:                   {"~/../x"},
		`["/tmp", "/home/u/.hookcore", "x"]`: {"/tmp/home/u/.hookcore/x", "/home/u/.hookcore/x"},
		`["a", "", "b"]`:                     {"a/b"},
		`["how to", "grep"]`:                 nil,
		`["one"]`:                            nil,
		`["one", ""]`:                        nil,
		`["a", 1]`:                           nil,
	} {
		var l []any
		if err := json.Unmarshal([]byte(in), &l); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, joinParts(l)); diff != "" {
			t.Errorf("joinParts(%s) (-want +got):\n%s", in, diff)
		}
	}
}

// TestCodeLike: which strings of a call about cells may be a cell's code.
func TestCodeLike(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"!rm -rf x": true, "import os": true, "%ls": true, "x=1": true, "print('a')": true,
		"code": false, "markdown": false, "a.ipynb": false, "cell-1": false, "~/n/a.ipynb": false,
	} {
		if got := codeLike(s); got != want {
			t.Errorf("codeLike(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzWalkViewsByValue: reading an MCP tool's arguments by value (toolview_values.go) never
// panics, joins at most maxPairs pairs, and looks up at most maxLookups names.
func FuzzWalkViewsByValue(f *testing.F) {
	for _, s := range []string{
		`{"origin":"/tmp/e","target_location":"~/go/bin/x"}`, `{"path_parts":["~",".minicode","config.yaml"]}`,
		`{"parent":"~/.minicode","base":"config.yaml","mode":"x"}`, `{"segments":["/tmp","/home/u/.hookcore","x"]}`,
		`{"cell_index":0,"payload":"!rm -rf x"}`, `{"a":{"~/x":true,"b":[" ~/y ","..","."]}}`, `{"link":"~/x","to":""}`,
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		w := viewWalker{other: true, write: true, cwd: dir}
		w.walk(v, "")
		if w.joins > maxPairs+1 || len(w.looked) > maxLookups {
			t.Errorf("%s: %d joins, %d look-ups", s, w.joins, len(w.looked))
		}
	})
}

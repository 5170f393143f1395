package match

import "testing"

// TestNames: each line is a command, the name and whether a word of it may become the
// name. The red-team lines of rounds 2 to 4 were run with bash 5.2 in a scratch directory
// holding the file (round 4: TestNamesRedTeam4Bash re-runs them).
func TestNames(t *testing.T) {
	t.Parallel()
	cases := []nameCase{
		// Written names, any case, between boundaries.
		{"cat .env", ".env", true},
		{"cp /dev/null .ENV", ".env", true},
		{"sed -i s/A=1/A=2/ config/.env.local", ".env", true},
		{"echo A=2 >.env", ".env", true},
		{"docker run --env-file=.env x", ".env", true},
		{"cat .env-example", ".env", true},
		{"cat .envrc", ".env", false},
		{"cat x.env", ".env", false},
		{"node -e 'console.log(process.env.HOME)'", ".env", false},
		{"python3 -c 'import os; os.environ'", ".env", false},
		{"ls .env/", ".env", false},
		// A directory's name (trailing slash): also as a path component (red team round 52).
		{"cp x ~/.mini''code/config.yaml", ".minicode/", true},
		{"cp x ~/.copilo?/hooks/a.json", ".copilot/", true},
		{"cp -r /tmp/x ~/.minicode", ".minicode/", true},
		{"cp x ~/.minicodes/config.yaml", ".minicode/", false},
		{"cp x ~/.minicode.bak/config.yaml", ".minicode/", false},
		{"cp x ~/.mini''code/config.yaml", ".minicode", false},
		// Quotes, backslashes, continuations.
		{"cat .e''nv", ".env", true},
		{`cat ".e"nv`, ".env", true},
		{`cat .e\nv`, ".env", true},
		{"cat .e\\\nnv", ".env", true},
		{`bash -c "cat .e\\\\nv"`, ".env", true},
		{"cat .e$''nv", ".env", true},
		{`cat .e$""nv`, ".env", true},
		{`cat $'\x2eenv'`, ".env", true},
		{`cat $'a b\x2e'env`, ".env", true},
		{`printf $'\n' x`, ".env", false},
		// Braces (red team round 4, items 10 and 11).
		{"echo S=1 | tee .en{u,v}", ".env", true},
		{"tee .en{u..v}", ".env", true},
		{"cat .en{u..v}", ".env", true},
		{"cat .{x,e}{x,n}{x,v}", ".env", true},
		{"cat {.,x}{e,y}{n,z}{v,w}", ".env", true},
		{"cat .e{n,}v", ".env", true},
		{"cat {.e,x}nv", ".env", true},
		{"cat .{d..f}{m..o}{u..w}", ".env", true},
		{"cat .e{x,{n,y}}v", ".env", true},
		{"cat .e{n}v", ".env", true}, // curl reads {n} as n
		{"ls src/{a,b}.go", ".env", false},
		{"cp {a,b}.{js,ts} dist", ".env", false},
		{"cat .{a,b}nv", ".env", false},
		{"git commit -m 'fix {x}'", ".env", false},
		{"truncate -s0 package-lock.jso{m..n}", "package-lock.json", true},
		{"truncate -s0 npm-shrinkwrap.jso{m..n}", "npm-shrinkwrap.json", true},
		{"sed -i s/a/b/ package-lock.jso{x,n}", "package-lock.json", true},
		{"cat package-lock.js{o,x}{n,y}", "package-lock.json", true},
		{"echo {1..10}", "package-lock.json", false},
		// Extglob (item 12).
		{"shopt -s extglob\nsed -i s/OLD/NEW/ .en@(u|v)", ".env", true},
		{"shopt -s extglob\nsed -i s/OLD/NEW/ .en!(u)", ".env", true},
		{"cat @(.e|x)nv", ".env", true},
		{"cat .e+(n)v", ".env", true},
		{"cat .e?(n)v", ".env", true},
		{"cat .e*(n)v", ".env", true},
		// curl and wget name templates (item 13).
		{`echo S=1 > v; curl -s "file://$PWD/[v-v]" -o '.en#1'`, ".env", true},
		{`curl -s "file://$PWD/{.e,x}nv" -o '#1'`, ".env", true},
		{"wget http://127.0.0.1:8000/%2eenv", ".env", true},
		{"wget http://127.0.0.1:8000/package-lock.j%73on", "package-lock.json", true},
		// Globs.
		{"cat .*", ".env", true},
		{"cat .e*", ".env", true},
		{"cat .?nv", ".env", true},
		{"cat .[e]nv", ".env", true},
		{"cat *env", ".env", false},
		{"cat ?env", ".env", false},
		{"cat [.]env", ".env", false},
		{"cat *.txt", ".env", false},
		{"jq '.[0]' x.json", ".env", false},
		{"grep -rn 'foo.*bar' src", ".env", false},
		{"sed -i 's/.*//' notes.txt", ".env", false},
		{"cp x package-*.json", "package-lock.json", true},
		{"cp x *-lock.json", "package-lock.json", true},
		{"cp x pack*", "package-lock.json", true},
		{"cp x *ck.json", "package-lock.json", false},
		{"jq . *.json", "package-lock.json", false},
		{"ls p*", "package-lock.json", false},
		// Parameters and substitutions.
		{"x=./; echo pwned >> $x.env", ".env", true},
		{"cat ${x}.env", ".env", true},
		{"f=.e; cat ${f}nv", ".env", true},
		{`f=.e; cat "$f"nv`, ".env", true},
		{"cat .e$(echo n)v", ".env", true},
		{"cat $(echo .e)nv", ".env", true},
		{"cat ${x:-.env}", ".env", true},
		{"cat ${x:- .env}", ".env", true},
		{"cat .$x", ".env", true},
		{"echo ${HOME}", ".env", false},
		{"echo $HOME", ".env", false},
		{"cat $fnv", ".env", false},
		{"set -- package; truncate -s0 $1-lock.json", "package-lock.json", true},
		{`f=package; cp x "$f"-lock.json`, "package-lock.json", true},
		{"cat $x.json", "package-lock.json", false},
		{"head -n$N x", "npm-shrinkwrap.json", false},
		// Shell options named in any spelling.
		{"shopt -s dotglob; cat *", "dotglob", true},
		{"shopt -s dot''glob; cat *", "dotglob", true},
		{"shopt -s dot{glob,x}; cat *", "dotglob", true},
		{"BASHOPTS=extglob:dotglob bash -c x", "dotglob", true},
		{"GLOB\"\"IGNORE=x; cat *", "globignore", true},
		{"ls d*", "dotglob", false},
		// Plain lines.
		{"cat README.md", ".env", false},
		{"npm install", "npm-shrinkwrap.json", false},
		{"npm install", "package-lock.json", false},
		{"cat package.json", "package-lock.json", false},
	}
	checkNames(t, cases)
}

// TestNamesCondition: names is an operator of the condition language, with its errors.
func TestNamesCondition(t *testing.T) {
	t.Parallel()
	const env = `args.command names ".env" || args.command names "dotglob"`
	runIfCases(t, []ifCase{
		{"braces", env, "Bash", `{"command":"echo S=1 | tee .en{u,v}"}`, true},
		{"second clause", env, "Bash", `{"command":"shopt -s dot''glob; cat *nv"}`, true},
		{"neither", env, "Bash", `{"command":"ls src/{a,b}.go"}`, false},
		{"bare value", `args.command names .env`, "Bash", `{"command":"cat .e''nv"}`, true},
		{"missing field", `args.command names ".env"`, "Bash", `{}`, false},
	})
	for _, bad := range []string{
		`args.command names /\.env/`,
		`args.command names ""`,
		`args.command names "a/b"`,
		`args.command names "a b"`,
		`args.command namesx ".env"`,
	} {
		if _, err := CompileIf(bad); err == nil {
			t.Errorf("CompileIf(%q): no error", bad)
		}
	}
}

// FuzzNames: a names test never panics, and a word that is the name itself always
// matches, whatever comes before it on the line.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"cat .en{u,v}", "${x:-{a,b}}", "$'\\x2e", "{{{,}}", "[!]]*", "@(|)", "#1%2e"} {
		f.Add(s)
	}
	ns, err := compileName(".env")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		ns.in(line, false)
		if !ns.in(line+"\n cat .env", false) {
			t.Errorf("%q: the name written as a word does not match", line)
		}
	})
}

func BenchmarkNames(b *testing.B) {
	ns, err := compileName("package-lock.json")
	if err != nil {
		b.Fatal(err)
	}
	const line = `cd app && git diff --stat HEAD~1 -- src/{a,b}.go "$HOME/x" && npm run build 2>&1 | tail -n 20`
	b.ReportAllocs()
	for b.Loop() {
		if ns.in(line, false) {
			b.Fatal("match")
		}
	}
}

// nameCase is one line of a names table: whether cmd may name the file name.
type nameCase struct {
	cmd, name string
	want      bool
}

// checkNames checks each case of a names table.
func checkNames(t *testing.T, cases []nameCase) {
	t.Helper()
	for _, c := range cases {
		ns, err := compileName(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := ns.in(c.cmd, false); got != c.want {
			t.Errorf("%q names %q = %v, want %v", c.cmd, c.name, got, c.want)
		}
	}
}

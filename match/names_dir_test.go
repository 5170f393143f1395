package match

import "testing"

// TestNamesSpelledOut: `names "*/NAME"` leaves out a name alone or after a written relative
// directory (the self-protect example's false positives, stop 33) and holds for every
// other spelling `names "NAME"` holds for (the writes those bare names were kept for).
func TestNamesSpelledOut(t *testing.T) {
	t.Parallel()
	const sj = "*/settings.json"
	cases := []nameCase{
		// Reads and mentions in the project: a file of the cwd or below it.
		{"cat .vscode/settings.json", sj, false},
		{"jq . .vscode/settings.json > /tmp/x", sj, false},
		{`git commit -m "update settings.json"`, sj, false},
		{"git commit -m 'update Settings.JSON'", sj, false},
		{"grep -r hooks.json docs/", "*/hooks.json", false},
		{`sed -i 's/"a"/"b"/' .vscode/settings.json`, sj, false},
		{`python -c 'json.load(open("package/settings.json"))'`, sj, false},
		{`python3 -c "import json; json.load(open('./package/settings.json'))"`, sj, false},
		{`node -e 'require("fs").readFileSync( "settings.json" )'`, sj, false},
		{`cat ".vscode/settings.json" 'a/settings.json'`, sj, false},
		{"cat settings.json.bak >settings.json", sj, false},
		{"cat README.md", sj, false},
		// The directory is not written out: what the bare name is kept for.
		{"cp /tmp/x $D/settings.json", sj, true},
		{`cp /tmp/x "$D"/settings.json`, sj, true},
		{`cp /tmp/x "${D}/settings.json"`, sj, true},
		{`cp /tmp/x "$(cat /tmp/d)/settings.json"`, sj, true},
		{"cp /tmp/x `cat /tmp/d`/settings.json", sj, true},
		{"cp /tmp/x ~/.c*e/settings.json", sj, true},
		{"cp /tmp/x ~/.cl?ude/settings.json", sj, true},
		{"cp /tmp/x /home/dev/.cla''ude/settings.json", sj, true},
		{"cp /tmp/x {a,b}/settings.json", sj, true},
		{`cp /tmp/x a\ b/settings.json`, sj, true},
		{"cp /tmp/x ../settings.json", sj, true},
		{"cp /tmp/x a/../../settings.json", sj, true},
		{"tee /x/settings.json", sj, true},
		{"f=settings.json; cd \"$(cat /tmp/d)\" && python3 -c \"open('$f','w')\"", sj, true},
		{"x='a settings.json'; echo ${x#a }", sj, true},
		{"sed -i s/a/b/ $D/settings.json", sj, true},
		{"cp /tmp/x settings.json$D", sj, false},        // a file of the cwd whatever $D holds
		{"cp /tmp/x .vscode/settings.j''son", sj, true}, // a name split by quotes counts
		{"cat settings.json .vscode/sett''ings.json", sj, true},
		{"cp /tmp/x sett$x.json", sj, true}, // $x may hold a slash
		{"a=(x settings.json); cp /tmp/x \"${a[1]}\"", sj, true},
		{"export f=settings.json", sj, true},
		{"FOO=1 cat settings.json", sj, false},
		// Interpreters' strings joined to something.
		{`python3 -c "open('/home/dev/.cla'+'ude/settings.json','w')"`, sj, true},
		{`python3 -c "open('/home/dev/.cla' + 'ude/settings.json','w')"`, sj, true},
		{`python3 -c "open('/home/dev/.cla' 'ude/settings.json','w')"`, sj, true},
		{`python3 -c "import os; open(os.path.join(os.environ['D'], 'settings.json'),'w')"`, sj, true},
		{`python3 -c 'import os; open(os.environ["D"]+"/settings.json","w")'`, sj, true},
		{`python3 -c 'open(f"{d}/settings.json","w")'`, sj, true},
		{`python3 -c 'open(d + "settings.json")'`, sj, true},
		{`python3 -c 'p="ude/settings.json"'`, sj, true},
		{`node -e 'fs.writeFileSync(process.env.D+"/settings.json","{}")'`, sj, true},
		{`node -e 'fs.writeFileSync(` + "`${d}/settings.json`" + `,"{}")'`, sj, true},
		{`perl -e 'open(F,">$ENV{D}/hooks.json")'`, "*/hooks.json", true},
		{`perl -e '$d."/settings.json"'`, sj, true},
		{`jq '.x = "settings.json"' x`, sj, true},
		{"cp x @(settings.json)", sj, true},
		// A here document's body is not read as bash quotes it.
		{"python3 <<'EOF'\nopen('/home/dev/.cla' 'ude/settings.json','w')\nEOF", sj, true},
		{"cat <<EOF >x\nsettings.json\nEOF", sj, true},
	}
	checkNames(t, cases)
}

// TestNamesSpelledOutCondition: `*/` goes before a file's name only.
func TestNamesSpelledOutCondition(t *testing.T) {
	t.Parallel()
	runIfCases(t, []ifCase{
		{"relative", `args.command names "*/settings.json"`, "Bash", `{"command":"cat .vscode/settings.json"}`, false},
		{"unknown directory", `args.command names "*/settings.json"`, "Bash", `{"command":"cp x $D/settings.json"}`, true},
		{"plain names unchanged", `args.command names "settings.json"`, "Bash", `{"command":"cat .vscode/settings.json"}`, true},
	})
	for _, bad := range []string{
		`args.command names "*/.claude/"`,
		`args.command names "*/a/b"`,
		`args.command names "**/a"`,
	} {
		if _, err := CompileIf(bad); err == nil {
			t.Errorf("CompileIf(%q): no error", bad)
		}
	}
}

// FuzzNamesSpelledOut: a `*/NAME` test holds only where `NAME` does, and always holds for
// the name after an expansion, whatever comes before it on the line.
func FuzzNamesSpelledOut(f *testing.F) {
	for _, s := range []string{"cat a/settings.json", `"'`, "$'\\", "x <<", `python3 -c "open('a' + '`} {
		f.Add(s)
	}
	out, err := compileName("*/settings.json")
	if err != nil {
		f.Fatal(err)
	}
	all, err := compileName("settings.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if out.in(line, false) && !all.in(line, false) {
			t.Errorf("%q: */settings.json holds where settings.json does not", line)
		}
		if !out.in(line+"\n cat $D/settings.json", false) {
			t.Errorf("%q: the name after an expansion does not match", line)
		}
	})
}

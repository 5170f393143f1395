package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookcore/hookcore/internal/text"
)

// corpusLines returns every line of the recorded sessions (main and sub-agent transcripts)
// and of the hook logs, then variants of them generated to hit each way out of the fast
// path: keys in another case, escaped or repeated, values of the wrong type, nulls, damaged
// syntax, odd numbers and strings, white space, deep nesting.
func corpusLines(t testing.TB) [][]byte {
	t.Helper()
	var real [][]byte
	err := filepath.WalkDir("../sessions", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				real = append(real, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(real) < 500 {
		t.Fatalf("only %d recorded lines", len(real))
	}
	out := append([][]byte(nil), real...)
	rng := rand.New(rand.NewPCG(1, 14))
	replace := func(l []byte, old, new string) []byte {
		return bytes.Replace(bytes.Clone(l), []byte(old), []byte(new), 1)
	}
	mutations := []func(l []byte) []byte{
		func(l []byte) []byte { return replace(l, `"type":`, `"Type":`) },
		func(l []byte) []byte { return replace(l, `"sessionId":`, `"SESSIONID":`) },
		func(l []byte) []byte { return replace(l, `"content":`, `"Content":`) },
		func(l []byte) []byte { return replace(l, `"stop_reason":`, `"Stop_Reason":`) },
		func(l []byte) []byte { return replace(l, `"type":`, `"\u0074ype":`) },
		func(l []byte) []byte { return replace(l, `"cwd":`, `"ſwd":`) },
		func(l []byte) []byte { return replace(l, `"cwd":"`, `"cwd":"x","cwd":"`) },
		func(l []byte) []byte { return replace(l, `"message":{`, `"message":{"id":"dup"},"message":{`) },
		func(l []byte) []byte { return replace(l, `"isSidechain":false`, `"isSidechain":"no"`) },
		func(l []byte) []byte { return replace(l, `"isMeta":true`, `"isMeta":1`) },
		func(l []byte) []byte { return replace(l, `"type":"`, `"type":5,"x":"`) },
		func(l []byte) []byte { return replace(l, `"message":{`, `"message":null,"y":{`) },
		func(l []byte) []byte { return replace(l, `"message":{`, `"message":"text","y":{`) },
		func(l []byte) []byte { return replace(l, `"attachment":{`, `"attachment":null,"y":{`) },
		func(l []byte) []byte { return replace(l, `"toolUseResult":`, `"toolUseResult":null,"z":`) },
		func(l []byte) []byte { return replace(l, `"content":[`, `"content":[null,`) },
		func(l []byte) []byte { return replace(l, `"content":[`, `"content":[] ,"w":[`) },
		func(l []byte) []byte { return replace(l, `"params":{`, `"params":{"output_config":null,`) },
		func(l []byte) []byte { return replace(l, `,`, ` ,`+"\t\r\n") },
		func(l []byte) []byte { return replace(l, `:`, ": ") },
		func(l []byte) []byte { return replace(l, `"`, `"\u00e9\ud83d\ude00\/\b`) },
		func(l []byte) []byte { return replace(l, `"`, "\"\x01") },
		func(l []byte) []byte { return replace(l, `"`, `"\x`) },
		func(l []byte) []byte { return replace(l, `"`, `"\u12`) },
		func(l []byte) []byte { return replace(l, `"`, "\"\xff\xfe") },
		func(l []byte) []byte { return replace(l, `{`, `{"n":[-0.5e+10,0,1E3,-0],`) },
		func(l []byte) []byte { return replace(l, `{`, `{"n":01,`) },
		func(l []byte) []byte { return replace(l, `{`, `{"n":1.,`) },
		func(l []byte) []byte { return replace(l, `{`, `{"n":-,`) },
		func(l []byte) []byte { return replace(l, `{`, `{"n":tru,`) },
		func(l []byte) []byte { return replace(l, `{`, `{"n":[true,false,null],`) },
		func(l []byte) []byte {
			return replace(l, `{`, `{"n":`+strings.Repeat("[", 300)+strings.Repeat("]", 300)+`,`)
		},
		func(l []byte) []byte { return replace(l, `}`, `,}`) },
		func(l []byte) []byte { return replace(l, `]`, `,]`) },
		func(l []byte) []byte { return append(bytes.Clone(l), '}') },
		func(l []byte) []byte { return append(bytes.Clone(l), ` x`...) },
		func(l []byte) []byte { return l[:rng.IntN(len(l))] },
		func(l []byte) []byte { return l[:len(l)-1] },
		func(l []byte) []byte {
			c := bytes.Clone(l)
			c[rng.IntN(len(c))] = byte(rng.IntN(256))
			return c
		},
	}
	for i := 0; i < 1000; i++ {
		l := real[rng.IntN(len(real))]
		out = append(out, mutations[i%len(mutations)](l))
	}
	return out
}

// TestDecodeFastMatchesUnmarshal: on every corpus line, decodeLine and decodeBlocks give
// what json.Unmarshal gives (the same struct, or the same error), and the fast path is the
// one taken for nearly every recorded line.
func TestDecodeFastMatchesUnmarshal(t *testing.T) {
	t.Parallel()
	lines := corpusLines(t)
	fast, recorded := 0, 0
	for n, data := range lines {
		if len(data) == 0 || data[0] != '{' {
			continue
		}
		var want, got line
		werr := json.Unmarshal(data, &want)
		gerr := decodeLine(data, &got)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("line %d %.200q: error %v, want %v", n, data, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("line %d %.200q:\ngot  %+v\nwant %+v", n, data, got, want)
		}
		var scratch line
		if fastLine(data, &scratch) {
			if werr != nil {
				t.Fatalf("line %d %.200q: fast path accepted a line json.Unmarshal rejects (%v)", n, data, werr)
			}
			if n < len(lines)-1000 {
				fast++
			}
		}
		if n < len(lines)-1000 {
			recorded++
		}
		if werr != nil || want.Message == nil || len(want.Message.Content) == 0 || want.Message.Content[0] != '[' {
			continue
		}
		var wbs []block
		wok := json.Unmarshal(want.Message.Content, &wbs) == nil
		gbs, gok := decodeBlocks(want.Message.Content)
		if gok != wok || (wok && !reflect.DeepEqual(gbs, wbs)) {
			t.Fatalf("line %d blocks: got %+v %v, want %+v %v", n, gbs, gok, wbs, wok)
		}
	}
	if fast < recorded*95/100 {
		t.Errorf("fast path took %d of %d recorded lines, want at least 95%%", fast, recorded)
	}
	t.Logf("%d lines, fast path on %d of %d recorded lines", len(lines), fast, recorded)
}

// FuzzDecodeLine compares the fast path with json.Unmarshal on arbitrary lines.
func FuzzDecodeLine(f *testing.F) {
	for _, l := range corpusLines(f) {
		if len(l) < 2000 {
			f.Add(l)
		}
		var m struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(l, &m) == nil && len(m.Message.Content) > 0 && len(m.Message.Content) < 2000 {
			f.Add([]byte(m.Message.Content))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var wbs []block
		wok := json.Unmarshal(data, &wbs) == nil
		gbs, gok := decodeBlocks(data)
		if gok != wok || (wok && !reflect.DeepEqual(gbs, wbs)) {
			t.Fatalf("decodeBlocks = %+v, %v; json.Unmarshal = %+v, %v", gbs, gok, wbs, wok)
		}
		if len(data) == 0 || data[0] != '{' {
			return
		}
		var want, got line
		werr := json.Unmarshal(data, &want)
		gerr := decodeLine(data, &got)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || (werr == nil && !reflect.DeepEqual(got, want)) {
			t.Fatalf("decodeLine = %+v, %v; json.Unmarshal = %+v, %v", got, gerr, want, werr)
		}
		var scratch line
		if fastLine(data, &scratch) && werr != nil {
			t.Fatalf("fast path accepted a line json.Unmarshal rejects (%v)", werr)
		}
	})
}

// BenchmarkDecodeLines decodes every line of the recorded sessions (and the message
// content lists) with the fast path and with json.Unmarshal, the slow path it replaces, in
// the same run; compare the MB/s.
func BenchmarkDecodeLines(b *testing.B) {
	var lines [][]byte
	size := int64(0)
	for _, l := range corpusLines(b)[:len(corpusLines(b))-1000] {
		if l[0] == '{' {
			lines = append(lines, l)
			size += int64(len(l))
		}
	}
	run := func(b *testing.B, decode func([]byte, *line) error, blocks func([]byte) bool) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, data := range lines {
				var l line
				if decode(data, &l) == nil && l.Message != nil && len(l.Message.Content) > 0 && l.Message.Content[0] == '[' {
					blocks(l.Message.Content)
				}
			}
		}
	}
	b.Run("fast", func(b *testing.B) {
		run(b, decodeLine, func(raw []byte) bool { _, ok := decodeBlocks(raw); return ok })
	})
	b.Run("unmarshal", func(b *testing.B) {
		run(b, func(data []byte, l *line) error { return json.Unmarshal(data, l) },
			func(raw []byte) bool { var bs []block; return json.Unmarshal(raw, &bs) == nil })
	})
}

// TestSkipValueMatchesValid: skipValue accepts exactly what json.Valid accepts, on 50 000
// generated values made of the bytes that matter to the JSON grammar (quotes, escapes,
// control characters, digits, signs, exponents, literals, brackets).
func TestSkipValueMatchesValid(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 14))
	alphabet := []string{`"`, `\`, `u`, `0`, `1`, `9`, `a`, `F`, `-`, `+`, `.`, `e`, `E`, "\x01", "\x1f", "\n", " ", "\xc3\xa9", "\xff",
		`/`, `b`, `n`, `t`, `r`, `true`, `false`, `null`, `[`, `]`, `{`, `}`, `:`, `,`, `"k"`, `\"`, `\u00e9`, `""`, strings.Repeat("x", 17)}
	for n := 0; n < 50000; n++ {
		var sb strings.Builder
		if n%2 == 0 {
			sb.WriteByte('"')
		}
		for k := rng.IntN(12); k >= 0; k-- {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		if n%4 == 0 {
			sb.WriteByte('"')
		}
		v := []byte(sb.String())
		end, ok := skipValue(v, text.SkipJSONSpace(v, 0), 0)
		got := ok && text.SkipJSONSpace(v, end) == len(v)
		if want := json.Valid(v); got != want {
			t.Fatalf("skipValue(%q) = %v, json.Valid = %v", v, got, want)
		}
	}
}

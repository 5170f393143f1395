//go:build !hookcore_lean

package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBodyBudget: one case per sentence of take's and give's documentation.
func TestBodyBudget(t *testing.T) {
	t.Parallel()
	type step struct {
		take bool // else give
		n    int64
		want bool // take: admitted; give: free memory now
	}
	const big = bigBody
	tests := []struct {
		name  string
		max   int64
		steps []step
	}{
		{"bodies fit up to the budget", 2 * big, []step{{true, big, true}, {true, big, true}, {true, big, false}}},
		{"a small body always fits", 2 * big, []step{{true, 2 * big, true}, {true, smallBody, true}, {true, smallBody + 1, false}}},
		{"the zero budget admits only small bodies", 0, []step{{true, smallBody, true}, {true, smallBody + 1, false}}},
		{"a given body makes room", 2 * big, []step{{true, 2 * big, true}, {false, 2 * big, true}, {true, big, true}}},
		{"free once empty after a big body", 2 * big, []step{{true, big, true}, {true, big - 1, true}, {false, big, false}, {false, big - 1, true}}},
		{"not free after medium bodies only", 2 * big, []step{{true, big - 1, true}, {false, big - 1, false}}},
		{"not free twice", 2 * big, []step{{true, big, true}, {false, big, true}, {true, smallBody + 1, true}, {false, smallBody + 1, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := &bodyBudget{max: tt.max}
			var got, want []bool
			for _, s := range tt.steps {
				want = append(want, s.want)
				if s.take {
					got = append(got, b.take(s.n))
				} else {
					got = append(got, b.give(s.n))
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("steps (-want +got):\n%s", d)
			}
		})
	}
}

// budgetServer is a serve of policy with a body budget of max bytes, behind a loopback
// test server.
func budgetServer(t *testing.T, policy string, max int64) (*server, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"hooks.yaml": policy})
	srv := newServer(testEnv(t, dir, nil), &configFlags{files: []string{"hooks.yaml"}, dir: ".hookcore"}, "tok")
	srv.budget = &bodyBudget{max: max}
	ts := httptest.NewServer(srv.handler())
	t.Cleanup(ts.Close)
	return srv, ts
}

// bigWrite is a Claude Code PreToolUse input of a Write of n bytes.
func bigWrite(n int) []byte {
	return []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/x","content":"` + strings.Repeat("a", n) + `"}}`)
}

// post sends body to path of ts with the token and returns the reply's status and body.
func post(t *testing.T, ts *httptest.Server, path string, body []byte) (int, string) {
	t.Helper()
	return postBody(t, ts, path, bytes.NewReader(body), int64(len(body)))
}

// postChunked is post with a body of no Content-Length (chunked transfer encoding).
func postChunked(t *testing.T, ts *httptest.Server, path string, body []byte) (int, string) {
	t.Helper()
	return postBody(t, ts, path, io.MultiReader(bytes.NewReader(body)), -1)
}

// postBody posts body with the test token; size -1 sends it chunked.
func postBody(t *testing.T, ts *httptest.Server, path string, body io.Reader, size int64) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+path, body)
	req.ContentLength = size
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// TestServeBodyBudgetAdmitsAtMostN (red team round 59): 12 concurrent bodies of 60 MB took
// serve's memory to 3.3 GB. With a budget of two bodies, two are decided at once (their
// hook holds them) and every other is answered with Claude's fail-closed deny, not let
// through; once the two are answered, the budget admits again.
func TestServeBodyBudgetAdmitsAtMostN(t *testing.T) {
	t.Parallel()
	const size, sent = 256 << 10, 6
	arrived, release := make(chan struct{}, sent), make(chan struct{})
	hold := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body) //nolint:errcheck
		arrived <- struct{}{}
		<-release
		io.WriteString(w, "{}") //nolint:errcheck
	}))
	defer hold.Close()
	policy := fmt.Sprintf("hooks:\n  - {id: hold, event: pre_tool_use, matcher: Write, action: {type: http, url: %q, allowed_hosts: [127.0.0.1], timeout: 3600s}}\n", hold.URL)
	body := bigWrite(size)
	srv, ts := budgetServer(t, policy, 2*int64(len(body)))

	type reply struct {
		code int
		body string
	}
	replies := make(chan reply, sent)
	var wg sync.WaitGroup
	for range sent {
		wg.Go(func() {
			code, out := post(t, ts, "/hook/claude", body)
			replies <- reply{code, out}
		})
	}
	// Two reach the hook and stay there; the others are refused meanwhile.
	for range 2 {
		<-arrived
	}
	for range sent - 2 {
		r := <-replies
		if r.code != 200 || !strings.Contains(r.body, `"permissionDecision":"deny"`) || !strings.Contains(r.body, "hookcore serve is busy") {
			t.Errorf("over the budget: %d %s, want 200 and a deny saying serve is busy", r.code, r.body)
		}
	}
	if got, want := srv.budget.inFlight(), 2*int64(len(body)); got != want {
		t.Errorf("in flight while two are held: %d bytes, want %d", got, want)
	}
	close(release)
	wg.Wait()
	close(replies)
	for r := range replies {
		if r.code != 200 || strings.Contains(r.body, "deny") {
			t.Errorf("admitted: %d %s, want 200 and no deny", r.code, r.body)
		}
	}
	if got := srv.budget.inFlight(); got != 0 {
		t.Errorf("in flight after the answers: %d bytes, want 0", got)
	}
	if len(arrived) != 0 {
		t.Errorf("%d more bodies reached the hook, want 2 in all", len(arrived))
	}
	// The budget admits again.
	go func() { <-arrived }()
	if code, out := post(t, ts, "/hook/claude", body); code != 200 || strings.Contains(out, "deny") {
		t.Errorf("after the burst: %d %s, want 200 and no deny", code, out)
	}
}

// TestServeBodyBudgetFailsClosed: an input the full budget has no room for gets each
// endpoint's fail-closed answer, not an allow, and a 413 nowhere (with on_error=allow, the
// non-blocking error it asks for: Claude Code's http hooks read a 500 so); a small one is
// still decided (the rule allows it), and so is a big one once the budget has room.
func TestServeBodyBudgetFailsClosed(t *testing.T) {
	t.Parallel()
	policy := "hooks:\n  - {id: rm, event: pre_tool_use, matcher: Bash, if: 'args.command =~ /rm -rf/', reject: true, action: {type: prompt, message: no}}\n"
	srv, ts := budgetServer(t, policy, 1<<20)
	big := bigWrite(smallBody)
	small := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/x","content":"a"}}`)
	tests := []struct {
		name, path string
		body       []byte
		full       bool
		code       int
		want       string // in the reply
	}{
		{"native", "/hook/claude", big, true, 200, `"permissionDecision":"deny"`},
		{"native event in the path", "/hook/claude/PostToolUse", big, true, 200, `"decision":"block"`},
		{"native on_error allow", "/hook/claude?on_error=allow", big, true, 500, `serve is busy`},
		{"answer claude", "/v1/answer/claude", big, true, 200, `"code":2`},
		{"answer codex", "/v1/answer/codex", big, true, 200, `"code":2`},
		{"native small", "/hook/claude", small, true, 200, ``},
		{"answer small", "/v1/answer/claude", small, true, 200, `"code":0`},
		{"native with room", "/hook/claude", big, false, 200, ``},
		{"answer with room", "/v1/answer/claude", big, false, 200, `"code":0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Not parallel: the cases fill and empty the one budget in turn.
			if tt.full {
				srv.budget.take(srv.budget.max)
				defer srv.budget.give(srv.budget.max)
			}
			code, out := post(t, ts, tt.path, tt.body)
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("%d %s, want %d and %s", code, out, tt.code, tt.want)
			}
			if busy := strings.Contains(out, "serve is busy"); busy != (tt.full && len(tt.body) > smallBody) {
				t.Errorf("%s: says busy %v", out, busy)
			}
		})
	}
	var w wireAnswer
	srv.budget.take(srv.budget.max)
	_, out := post(t, ts, "/v1/answer/claude", big)
	srv.budget.give(srv.budget.max)
	if err := json.Unmarshal([]byte(out), &w); err != nil || w.Code != 2 || !strings.Contains(w.Stderr, "hookcore serve is busy") {
		t.Errorf("/v1/answer over the budget: %s (%v), want exit 2 saying serve is busy", out, err)
	}
}

// TestServeDeclaredOversizeFailsClosed: a body whose Content-Length passes the cap is
// answered with the fail-closed deny after its bytes are dropped, never read into memory.
func TestServeDeclaredOversizeFailsClosed(t *testing.T) {
	t.Parallel()
	srv, ts := budgetServer(t, "hooks: []\n", serveBodyBudget)
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /hook/claude HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer tok\r\nContent-Length: %d\r\n\r\n{\"hook_event_name\":\"PreToolUse\"", maxInput+1)
	c.(*net.TCPConn).CloseWrite() //nolint:errcheck // the body ends here, short of its length
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(out), `"permissionDecision":"deny"`) || !strings.Contains(string(out), "larger than 64 MiB") {
		t.Errorf("%d %s, want 200 and a deny saying the input is larger than 64 MiB", resp.StatusCode, out)
	}
	if n := srv.budget.inFlight(); n != 0 {
		t.Errorf("in flight: %d bytes, want 0", n)
	}
}

// TestServeChunkedBodyCountedAsRead: a body without a Content-Length is counted against
// the budget as it arrives, not at the 64 MiB cap (stop 33 reserved the cap for each, so
// with serve's budget of four inputs at the cap, four slow chunked requests of a few bytes
// made it refuse every large input, and with a smaller budget even a small chunked input
// was refused). One that outgrows the budget is still refused with the fail-closed deny,
// and the budget is empty after each.
func TestServeChunkedBodyCountedAsRead(t *testing.T) {
	t.Parallel()
	policy := "hooks:\n  - {id: rm, event: pre_tool_use, matcher: Bash, if: 'args.command =~ /rm -rf/', reject: true, action: {type: prompt, message: no}}\n"
	srv, ts := budgetServer(t, policy, 1<<20)
	small := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if code, out := postChunked(t, ts, "/hook/claude", small); code != 200 || strings.Contains(out, "deny") {
		t.Errorf("small chunked input: %d %s, want 200 and no deny", code, out)
	}
	block := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	if code, out := postChunked(t, ts, "/hook/claude", block); code != 200 || !strings.Contains(out, `"permissionDecision":"deny"`) || strings.Contains(out, "busy") {
		t.Errorf("chunked rm -rf: %d %s, want the rule's deny", code, out)
	}
	if code, out := postChunked(t, ts, "/hook/claude", bigWrite(600<<10)); code != 200 || strings.Contains(out, "deny") {
		t.Errorf("chunked input of 600 KiB in a budget of 1 MiB: %d %s, want 200 and no deny", code, out)
	}
	if code, out := postChunked(t, ts, "/hook/claude", bigWrite(3<<20)); code != 200 || !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "hookcore serve is busy") {
		t.Errorf("chunked input of 3 MiB in a budget of 1 MiB: %d %s, want the deny saying serve is busy", code, out)
	}
	if n := srv.budget.inFlight(); n != 0 {
		t.Errorf("in flight after the answers: %d bytes, want 0", n)
	}
}

// TestReadGrowing: the buffer doubles from 4 KiB, each size reserved before it is
// allocated, up to the cap plus one; a refused size stops the read and is returned.
func TestReadGrowing(t *testing.T) {
	t.Parallel()
	body := bytes.Repeat([]byte("a"), 20<<10)
	var asked []int64
	data, over, err := readGrowing(bytes.NewReader(body), func(to int64) bool { asked = append(asked, to); return true })
	if err != nil || over != 0 || !bytes.Equal(data, body) {
		t.Errorf("readGrowing = %d bytes, over %d, %v; want the %d bytes", len(data), over, err, len(body))
	}
	if d := cmp.Diff([]int64{4 << 10, 8 << 10, 16 << 10, 32 << 10}, asked); d != "" {
		t.Errorf("reserved (-want +got):\n%s", d)
	}
	data, over, err = readGrowing(bytes.NewReader(body), func(to int64) bool { return to < 16<<10 })
	if data != nil || over != 16<<10 || err != nil {
		t.Errorf("refused at 16 KiB: %d bytes, over %d, %v; want nil, 16384, nil", len(data), over, err)
	}
	b := &bodyBudget{max: 2 * bigBody}
	if !b.grow(0, smallBody) || b.inFlight() != 0 || !b.grow(smallBody, bigBody) || b.inFlight() != bigBody ||
		b.grow(bigBody, 3*bigBody) || b.inFlight() != bigBody || !b.give(bigBody) || b.inFlight() != 0 {
		t.Errorf("grow: a small reservation is not counted, a large one is, a refused one stays as it was")
	}
}

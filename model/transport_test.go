package model

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// scriptedAPI is a loopback server that answers the i-th request with replies[i] (the last
// one repeats) and counts the requests.
type apiReply struct {
	status int
	header map[string]string
	body   string
	hang   bool // wait for the client to go away instead of answering
}

func scriptedAPI(t *testing.T, replies ...apiReply) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		i := int(n.Add(1)) - 1
		rep := replies[min(i, len(replies)-1)]
		if rep.hang {
			<-r.Context().Done()
			return
		}
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// client returns a Completer of provider on base with retries.
func client(provider, base string, retries int) Completer {
	if provider == ProviderOpenAI {
		return NewOpenAI(Endpoint{Model: "m", APIKey: "k", BaseURL: base + "/v1", MaxRetries: retries})
	}
	return NewAnthropic(Endpoint{Model: "m", APIKey: "k", BaseURL: base, MaxRetries: retries})
}

var okReply = map[string]string{ProviderOpenAI: openaiReply, ProviderAnthropic: anthropicReply}

// fast asks the client to retry after 1 ms, so that retry tests do not wait for backoff.
var fast = map[string]string{"Retry-After-Ms": "1"}

// TestRetries checks which failures are retried, as the official SDKs did: connection
// errors, 408, 409, 429 and 5xx, up to MaxRetries times, unless x-should-retry: false.
func TestRetries(t *testing.T) {
	t.Parallel()
	const overloaded = `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`
	const badKey = `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`
	tests := []struct {
		name     string
		retries  int
		replies  []apiReply
		wantReqs int32
		wantErr  int // the status of the *APIError, 0 for success
	}{
		{"429 then ok", 2, []apiReply{{429, fast, overloaded, false}, {200, nil, "", false}}, 2, 0},
		{"529 twice then ok", 2, []apiReply{{529, fast, overloaded, false}, {529, fast, overloaded, false}, {200, nil, "", false}}, 3, 0},
		{"500 past the retries", 2, []apiReply{{500, fast, overloaded, false}}, 3, 500},
		{"408 and 409 are retried", 2, []apiReply{{408, fast, "", false}, {409, fast, "", false}, {200, nil, "", false}}, 3, 0},
		{"no retries by default", 0, []apiReply{{429, fast, overloaded, false}, {200, nil, "", false}}, 1, 429},
		{"401 is not retried", 3, []apiReply{{401, nil, badKey, false}, {200, nil, "", false}}, 1, 401},
		{"400 is not retried", 3, []apiReply{{400, nil, badKey, false}, {200, nil, "", false}}, 1, 400},
		{"x-should-retry false", 3, []apiReply{{503, map[string]string{"X-Should-Retry": "false"}, overloaded, false}, {200, nil, "", false}}, 1, 503},
	}
	for _, provider := range []string{ProviderOpenAI, ProviderAnthropic} {
		for _, tt := range tests {
			t.Run(provider+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				replies := append([]apiReply(nil), tt.replies...)
				for i := range replies {
					if replies[i].status == 200 {
						replies[i].body = okReply[provider]
					}
				}
				srv, n := scriptedAPI(t, replies...)
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				_, err := client(provider, srv.URL, tt.retries).Complete(ctx, "s", "p")
				if got := n.Load(); got != tt.wantReqs {
					t.Errorf("%d requests, want %d", got, tt.wantReqs)
				}
				var apiErr *APIError
				switch {
				case tt.wantErr == 0 && err != nil:
					t.Errorf("Complete: %v, want success", err)
				case tt.wantErr != 0 && !errors.As(err, &apiErr):
					t.Errorf("Complete error = %v, want an *APIError", err)
				case tt.wantErr != 0 && apiErr.StatusCode != tt.wantErr:
					t.Errorf("status %d, want %d", apiErr.StatusCode, tt.wantErr)
				}
			})
		}
	}
}

// TestRetryConnectionError checks that a dropped connection is retried.
func TestRetryConnectionError(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close() // the client sees EOF before any reply
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, openaiReply)
	}))
	defer srv.Close()
	// The first attempt's wait is the default backoff (at most 0.5 s): no Retry-After here.
	got, err := client(ProviderOpenAI, srv.URL, 1).Complete(context.Background(), "s", "p")
	if err != nil || n.Load() != 2 {
		t.Fatalf("Complete = %q, %v after %d requests; want a reply after 2", got, err, n.Load())
	}
}

// TestTimeout checks that the caller's context bounds a request to a server that never
// answers, and that no retry starts after it ended.
func TestTimeout(t *testing.T) {
	t.Parallel()
	for _, provider := range []string{ProviderOpenAI, ProviderAnthropic} {
		t.Run(provider, func(t *testing.T) {
			t.Parallel()
			srv, n := scriptedAPI(t, apiReply{hang: true})
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err := client(provider, srv.URL, 3).Complete(ctx, "s", "p")
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
			}
			if !strings.Contains(err.Error(), provider+" m at "+srv.URL) {
				t.Errorf("error %q does not name the provider, model and server", err)
			}
			if got := n.Load(); got != 1 {
				t.Errorf("%d requests, want 1 (no retry after the deadline)", got)
			}
		})
	}
}

// TestAPIErrorBody checks what an error reply becomes: the message of either API's error
// shape, else the start of the raw body (a proxy's HTML page), else the status text.
func TestAPIErrorBody(t *testing.T) {
	t.Parallel()
	long := "<html>" + strings.Repeat("é", 1000) + "</html>"
	tests := []struct {
		name   string
		status int
		body   string
		want   APIError
		msg    string
	}{
		{"openai shape", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`,
			APIError{StatusCode: 401, Type: "invalid_request_error", Message: "Incorrect API key provided"}, "http 401: Incorrect API key provided"},
		{"anthropic shape", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			APIError{StatusCode: 529, Type: "overloaded_error", Message: "Overloaded"}, "http 529: Overloaded"},
		{"html", 502, long, APIError{StatusCode: 502, Body: "<html>" + strings.Repeat("é", 994) + "…"}, "http 502: <html>éé"},
		{"empty", 404, "", APIError{StatusCode: 404}, "http 404: Not Found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, _ := scriptedAPI(t, apiReply{status: tt.status, body: tt.body})
			_, err := client(ProviderAnthropic, srv.URL, 0).Complete(context.Background(), "s", "p")
			var got *APIError
			if !errors.As(err, &got) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			tt.want.Provider, tt.want.Model = ProviderAnthropic, "m"
			if d := cmp.Diff(tt.want, *got); d != "" {
				t.Errorf("APIError (-want +got):\n%s", d)
			}
			if !strings.HasPrefix(err.Error(), "anthropic m: "+tt.msg) {
				t.Errorf("error %q does not start with %q", err, "anthropic m: "+tt.msg)
			}
		})
	}
}

// TestBadReply checks that a 2xx reply that is not the API's JSON is an error naming it.
func TestBadReply(t *testing.T) {
	t.Parallel()
	srv, _ := scriptedAPI(t, apiReply{status: 200, body: "<html>gateway</html>"})
	_, err := client(ProviderOpenAI, srv.URL, 2).Complete(context.Background(), "s", "p")
	if err == nil || !strings.Contains(err.Error(), "decode reply (http 200)") || !strings.Contains(err.Error(), "<html>gateway") {
		t.Errorf("error = %v, want a decode error quoting the reply", err)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	future := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	tests := []struct {
		header   map[string]string
		min, max time.Duration
	}{
		{map[string]string{"Retry-After-Ms": "250"}, 250 * time.Millisecond, 250 * time.Millisecond},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second, 2 * time.Second},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond, 500 * time.Millisecond},
		{map[string]string{"Retry-After": future}, 20 * time.Second, 30 * time.Second},
		{map[string]string{"Retry-After": "120"}, 0, 0}, // over 60 s: the default backoff
		{map[string]string{"Retry-After": "soon"}, 0, 0},
		{map[string]string{"Retry-After": "-1"}, 0, 0},
		{nil, 0, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := retryAfter(h); got < tt.min || got > tt.max {
			t.Errorf("retryAfter(%v) = %v, want in [%v, %v]", tt.header, got, tt.min, tt.max)
		}
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	for attempt, want := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second} {
		for range 20 {
			if got := backoff(attempt); got > want || got < want*3/4 {
				t.Errorf("backoff(%d) = %v, want in [%v, %v]", attempt, got, want*3/4, want)
			}
		}
	}
	if got := backoff(1000); got > maxBackoff {
		t.Errorf("backoff(1000) = %v, over %v", got, maxBackoff)
	}
}

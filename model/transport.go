package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hookcore/hookcore/internal/text"
)

// maxReplyBytes caps the body read from an API reply (32 MiB); a longer reply is an error.
const maxReplyBytes = 32 << 20

// Retry backoff, as the official SDKs had it: 0.5 s doubling up to 8 s, minus up to 25 %
// jitter; a server's Retry-After (or retry-after-ms) of at most 60 s is used instead.
const (
	initialBackoff = 500 * time.Millisecond
	maxBackoff     = 8 * time.Second
	maxRetryAfter  = 60 * time.Second
)

// APIError is an error reply of a provider's API: a non-2xx status, after the retries.
// Both APIs send {"error": {"type": ..., "message": ...}} (Anthropic adds "type": "error"
// around it); Type and Message come from there, and Body holds the start of the raw body
// when it has no such shape.
type APIError struct {
	Provider   string // ProviderOpenAI or ProviderAnthropic
	Model      string // the model the request named
	StatusCode int    // the HTTP status, e.g. 401, 429, 529
	Type       string // the error type, e.g. "authentication_error"; "" when absent
	Message    string // the error message; "" when absent
	Body       string // the raw body (at most 1 000 characters, text.Truncate) when Message is empty
}

// Error returns "PROVIDER MODEL: http STATUS: MESSAGE".
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Body
	}
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	return fmt.Sprintf("%s %s: http %d: %s", e.Provider, e.Model, e.StatusCode, msg)
}

// retryable reports whether the SDKs retried this status: 408, 409, 429 and 5xx.
func retryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

// post sends body as JSON to url with header and decodes a 2xx reply into out. A connection
// error or a retryable status is retried up to ep.MaxRetries times with backoff, unless the
// server says x-should-retry: false; ctx ends the waiting and the request. The error of the
// last attempt is returned: an *APIError for a status, else the transport error wrapped with
// the provider, model and where (ctx's error stays reachable through errors.Is).
func (e Endpoint) post(ctx context.Context, provider, where, url string, header http.Header, body any, out any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("%s %s: encode request: %w", provider, e.Model, err)
	}
	client := e.httpClient()
	for attempt := 0; ; attempt++ {
		wait, err := e.attempt(ctx, client, provider, url, header, data, out)
		if err == nil {
			return nil
		}
		if wait < 0 || attempt >= e.MaxRetries || ctx.Err() != nil {
			var apiErr *APIError
			if errors.As(err, &apiErr) {
				return err
			}
			return fmt.Errorf("%s %s at %s: %w", provider, e.Model, where, err)
		}
		if wait == 0 {
			wait = backoff(attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s %s at %s: %w", provider, e.Model, where, ctx.Err())
		case <-t.C:
		}
	}
}

// attempt makes one request. On failure it returns how long to wait before a retry: 0 for
// the default backoff, a positive time the server asked for, or -1 for "do not retry".
func (e Endpoint) attempt(ctx context.Context, client *http.Client, provider, url string, header http.Header, data []byte, out any) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return -1, err
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err // connection refused, reset, timeout: retried, as the SDKs did
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes+1))
	if err != nil {
		return 0, fmt.Errorf("read reply: %w", err)
	}
	if len(raw) > maxReplyBytes {
		return -1, fmt.Errorf("the reply is over %d bytes", maxReplyBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := decodeAPIError(provider, e.Model, resp.StatusCode, raw)
		if !retryable(resp.StatusCode) || resp.Header.Get("X-Should-Retry") == "false" {
			return -1, apiErr
		}
		return retryAfter(resp.Header), apiErr
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return -1, fmt.Errorf("decode reply (http %d): %v: %s", resp.StatusCode, err, text.Truncate(string(raw), 200, "…"))
	}
	return 0, nil
}

// decodeAPIError reads an error body of either API.
func decodeAPIError(provider, model string, status int, raw []byte) *APIError {
	e := &APIError{Provider: provider, Model: model, StatusCode: status}
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil {
		e.Type, e.Message = body.Error.Type, strings.TrimSpace(body.Error.Message)
	}
	if e.Message == "" {
		e.Body = text.Truncate(strings.TrimSpace(string(raw)), 1000, "…")
	}
	return e
}

// retryAfter returns the wait a 429/5xx reply asks for (retry-after-ms, then Retry-After in
// seconds or as an HTTP date), or 0 when it asks for none or for more than 60 s.
func retryAfter(h http.Header) time.Duration {
	var d time.Duration
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil {
		d = time.Duration(ms * float64(time.Millisecond))
	} else if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil {
			d = time.Duration(s * float64(time.Second))
		} else if t, err := http.ParseTime(v); err == nil {
			d = time.Until(t)
		}
	}
	if d <= 0 || d > maxRetryAfter {
		return 0
	}
	return d
}

// backoff returns the default wait before retry attempt+1.
func backoff(attempt int) time.Duration {
	d := initialBackoff << min(attempt, 8)
	d = min(d, maxBackoff)
	return d - time.Duration(rand.Float64()*0.25*float64(d))
}

// joinURL appends path to base, with exactly one slash between them.
func joinURL(base, path string) string {
	return strings.TrimRight(base, "/") + path
}

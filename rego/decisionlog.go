package rego

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// DecisionEvent is one decision as OPA's decision-log service API carries it (the fields
// OPA's decision_logs plugin sends: decision_id, path, input, result, timestamp, labels,
// bundles, metrics; plus error for a failed evaluation).
type DecisionEvent struct {
	DecisionID string                `json:"decision_id"`
	Labels     map[string]string     `json:"labels"`
	Bundles    map[string]BundleInfo `json:"bundles,omitempty"`
	Path       string                `json:"path"`
	Input      json.RawMessage       `json:"input,omitempty"`
	Result     json.RawMessage       `json:"result,omitempty"`
	Error      string                `json:"error,omitempty"`
	Timestamp  time.Time             `json:"timestamp"`
	Metrics    map[string]int64      `json:"metrics,omitempty"`
}

// BundleInfo is the revision of a bundle a decision was made with.
type BundleInfo struct {
	Revision string `json:"revision"`
}

// Decision-log batching: events are sent every FlushInterval, or as soon as BatchSize are
// waiting; at most BufferSize wait (older ones are dropped and counted, so that a slow or
// absent service never holds a decision back nor grows memory without bound).
const (
	FlushInterval = 5 * time.Second
	BatchSize     = 500
	BufferSize    = 10000
)

// DecisionLogger sends decision events to a decision-log service in the background: a POST
// of a gzip'ed JSON array (Content-Encoding: gzip), as OPA's decision_logs plugin sends to
// {service}/logs. Log never blocks.
type DecisionLogger struct {
	url    string
	client *http.Client
	log    *slog.Logger

	mu      sync.Mutex
	buf     []DecisionEvent
	dropped int
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	// ctx is cancelled by Close, so that an upload in flight (to a collector that hangs)
	// does not hold Close past its own context.
	ctx    context.Context
	cancel context.CancelFunc
}

// NewDecisionLogger starts a logger that POSTs to url.
func NewDecisionLogger(url string, client *http.Client, log *slog.Logger) *DecisionLogger {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &DecisionLogger{url: url, client: client, log: log, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	go d.run()
	return d
}

// Log queues ev.
func (d *DecisionLogger) Log(ev DecisionEvent) {
	d.mu.Lock()
	if len(d.buf) >= BufferSize {
		d.buf = d.buf[1:]
		d.dropped++
	}
	d.buf = append(d.buf, ev)
	full := len(d.buf) >= BatchSize
	d.mu.Unlock()
	if full {
		select {
		case d.kick <- struct{}{}:
		default:
		}
	}
}

// Dropped returns how many events were dropped because the buffer was full.
func (d *DecisionLogger) Dropped() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dropped
}

func (d *DecisionLogger) run() {
	defer close(d.done)
	t := time.NewTicker(FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
		case <-d.kick:
		}
		ctx, cancel := context.WithTimeout(d.ctx, 30*time.Second)
		if err := d.flush(ctx); err != nil {
			d.log.Warn("decision log upload failed; the events are kept for the next try", "url", d.url, "err", err)
		}
		cancel()
	}
}

// flush sends what is waiting; on failure the events go back to the front of the buffer.
func (d *DecisionLogger) flush(ctx context.Context) error {
	d.mu.Lock()
	batch := d.buf
	d.buf = nil
	d.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := d.send(ctx, batch); err != nil {
		d.mu.Lock()
		d.buf = append(batch, d.buf...)
		if over := len(d.buf) - BufferSize; over > 0 {
			d.buf = d.buf[over:]
			d.dropped += over
		}
		d.mu.Unlock()
		return err
	}
	return nil
}

func (d *DecisionLogger) send(ctx context.Context, batch []DecisionEvent) error {
	var body bytes.Buffer
	zw := gzip.NewWriter(&body)
	if err := json.NewEncoder(zw).Encode(batch); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, &body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("decision log service answered %s", resp.Status)
	}
	return nil
}

// Close stops the background sender and sends what is left, waiting at most ctx: an
// upload the sender has in flight is cancelled (its events go back to the buffer and are
// part of this last send).
func (d *DecisionLogger) Close(ctx context.Context) error {
	select {
	case <-d.stop:
	default:
		close(d.stop)
		d.cancel()
	}
	<-d.done
	return d.flush(ctx)
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

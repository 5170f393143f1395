package rego

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// The bundle cache (Options.CacheDir). The hook command is one process per event: without
// it, every event downloaded the bundle again, and while the bundle service was down every
// tool call failed. Like OPA's `persist`, the last good bundle of a bundle_url is kept on
// disk, in one file per URL (a hash of the URL in its name):
//
//	hookcore-rego-bundle 1\n
//	{"url": ..., "etag": ...}\n
//	the bundle as the service sent it (.tar.gz)
//
// written atomically (a temporary file renamed over it), mode 0600. Its modification time
// is when it was fetched or last revalidated (a 304 sets it). A file that is not a regular
// file (a symlink), too big, or does not parse, or whose bundle does not read, verify (the
// verification key, as for a download) or compile, is ignored: the bundle is downloaded.

const cacheMagic = "hookcore-rego-bundle 1\n"

// maxCacheHeader bounds the header line (URL and ETag).
const maxCacheHeader = 64 << 10

type cacheHeader struct {
	URL  string `json:"url"`
	ETag string `json:"etag"`
}

// cached is a bundle read from the cache.
type cached struct {
	raw     []byte
	etag    string
	fetched time.Time
}

// cachePath is the cache file of the executor's bundle URL, "" without a cache directory.
func (x *Executor) cachePath() string {
	if x.opts.CacheDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(x.opts.BundleURL))
	return filepath.Join(x.opts.CacheDir, "rego-bundle-"+hex.EncodeToString(sum[:16])+".cache")
}

// readCache returns the cached bundle; nil and no error when there is none, nil and an
// error when the file is there but cannot be used.
func (x *Executor) readCache() (*cached, error) {
	p := x.cachePath()
	if p == "" {
		return nil, nil
	}
	st, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%v)", p, st.Mode().Type())
	}
	if st.Size() > MaxBundleBytes+maxCacheHeader {
		return nil, fmt.Errorf("%s is %d bytes, more than a bundle may be", p, st.Size())
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fst, err := f.Stat(); err != nil || !os.SameFile(st, fst) {
		return nil, fmt.Errorf("%s changed while it was opened", p)
	}
	r := bufio.NewReader(io.LimitReader(f, MaxBundleBytes+maxCacheHeader))
	magic := make([]byte, len(cacheMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != cacheMagic {
		return nil, fmt.Errorf("%s is not a bundle cache file", p)
	}
	line, err := r.ReadSlice('\n')
	if err != nil {
		return nil, fmt.Errorf("%s: no header: %w", p, err)
	}
	var h cacheHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, fmt.Errorf("%s: header: %w", p, err)
	}
	if h.URL != x.opts.BundleURL {
		return nil, fmt.Errorf("%s holds the bundle of another URL", p)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(raw) == 0 || len(raw) > MaxBundleBytes {
		return nil, fmt.Errorf("%s: a bundle of %d bytes", p, len(raw))
	}
	return &cached{raw: raw, etag: h.ETag, fetched: st.ModTime()}, nil
}

// writeCache keeps raw, the bundle just activated, as the cached bundle.
func (x *Executor) writeCache(raw []byte, etag string) error {
	p := x.cachePath()
	if p == "" {
		return nil
	}
	if err := os.MkdirAll(x.opts.CacheDir, 0o700); err != nil {
		return err
	}
	head, err := json.Marshal(cacheHeader{URL: x.opts.BundleURL, ETag: etag})
	if err != nil {
		return err
	}
	if len(head) >= maxCacheHeader {
		return errors.New("the bundle's URL and ETag are too long to cache")
	}
	tmp, err := os.CreateTemp(x.opts.CacheDir, ".rego-bundle-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename: not there any more
	var buf bytes.Buffer
	buf.WriteString(cacheMagic)
	buf.Write(head)
	buf.WriteByte('\n')
	buf.Write(raw)
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// touchCache records that the cached bundle was revalidated (a 304) now.
func (x *Executor) touchCache() error {
	p := x.cachePath()
	if p == "" {
		return nil
	}
	st, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	now := time.Now()
	return os.Chtimes(p, now, now)
}

// start gets the first bundle of a new executor: the cached one while it is younger than
// Poll; else a download (conditional on the cached ETag); when that fails, the cached one
// up to MaxStale old, with a warning naming its age.
func (x *Executor) start(ctx context.Context) error {
	c, err := x.readCache()
	if err != nil {
		x.log.Warn("rego bundle cache ignored; downloading the bundle", "hook", x.opts.HookID, "url", x.opts.BundleURL, "err", err)
	}
	if c != nil {
		if err := x.activate(ctx, c.raw, c.etag); err != nil {
			x.log.Warn("rego cached bundle ignored; downloading the bundle", "hook", x.opts.HookID, "url", x.opts.BundleURL, "file", x.cachePath(), "err", err)
			c = nil
		} else {
			x.etag = c.etag
		}
	}
	var age time.Duration
	if c != nil {
		// A modification time in the future is not "fresh": the bundle is revalidated.
		age = time.Since(c.fetched)
		if age >= 0 && age < x.opts.Poll {
			return nil
		}
	}
	err = x.download(ctx)
	if err == nil {
		return nil
	}
	if c != nil && age >= 0 && age <= x.opts.MaxStale {
		x.log.Warn("rego bundle service failed; deciding with the cached bundle", "hook", x.opts.HookID, "url", x.opts.BundleURL, "age", age.Round(time.Second), "revision", x.Revision(), "max_stale", x.opts.MaxStale, "err", err)
		return nil
	}
	if c != nil {
		return fmt.Errorf("%w (the cached bundle is %s old, more than %s)", err, age.Round(time.Second), x.opts.MaxStale)
	}
	return err
}

//go:build race

package match

// raceEnabled reports whether the race detector is on; it makes sync.Pool (and so regexp)
// drop items at random, so allocation counts of regex matching are not exact.
const raceEnabled = true

//go:build !race

package hookcore_test

// raceEnabled is true when the race detector is on; allocation counts are not meaningful then.
const raceEnabled = false

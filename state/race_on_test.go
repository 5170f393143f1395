//go:build race

package state_test

// raceEnabled is set under -race, which makes allocations of its own.
const raceEnabled = true

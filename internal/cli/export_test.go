package cli

// RegoLinked is regoLinked, for the external tests.
const RegoLinked = regoLinked

package text

// SkipJSONSpace returns the index of the first byte of data at or after i that is not JSON
// white space (space, tab, LF, CR: RFC 8259 section 2), or len(data). The hand-written JSON
// scanners of the hook input (package hook) and of Claude Code's transcript (package
// transcript) share it.
func SkipJSONSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

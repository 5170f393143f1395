package command

// DirectWords returns the words of the shell-form command script when Command runs it
// without a shell: a single simple command of literal words whose first word is not a
// reserved word or special builtin (the package doc, "direct execution"); its program is
// then looked up in PATH, `echo` included. ok is false when the shell (SystemShell, or bash for
// Shell "bash") runs script. A caller that must know what a hook starts reads it here
// (the CLI's `changes hook_program`, red team round 50).
func DirectWords(script string) (words []string, ok bool) { return directWords(script) }

// SystemShell is the shell that runs the shell form when Command.Shell is "" or "sh".
const SystemShell = shellPath

package llm

import "os"

func envLookup(k string) string { return os.Getenv(k) }

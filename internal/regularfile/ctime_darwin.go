package regularfile

import "syscall"

func ctimespec(s *syscall.Stat_t) syscall.Timespec { return s.Ctimespec }

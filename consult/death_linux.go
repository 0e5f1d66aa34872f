package consult

import "syscall"

// deathSignal asks Linux to send the child SIGTERM when its parent, elicit,
// dies, even by SIGKILL (which elicit cannot catch to stop it itself).
// SIGTERM rather than SIGKILL: the npm codex launcher forwards it to the
// codex it started, which SIGKILL would leave running.
func deathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }

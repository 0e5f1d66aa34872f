package responselog

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// readerMain is the test binary as a reader of the log in dir: it prints
// the submissions stats counts, whether the store is read-only, and the
// warnings.
func readerMain(dir string) int {
	l := Open(dir)
	var warnings []string
	l.Warn = func(w string) { warnings = append(warnings, w) }
	s, err := l.Read()
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer s.Close()
	st, err := s.Stats(false)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Printf("submissions %d read-only %v\n", st.Submissions, st.ReadOnly)
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	return 0
}

// TestReadOnlyHomeIsRead makes a log of 2,000 responses (and one more
// waiting in the journal) read-only, as a read-only home is, and reads it
// as a user who cannot write there (nobody, when the test runs as root):
// stats counts the 2,000, says the log is read-only, and warns that the
// record waiting could not be moved in.
func TestReadOnlyHomeIsRead(t *testing.T) {
	l, _ := testLog(t)
	f := mustForm(t, bigForm)
	for i := range 2000 {
		l.Append(responseRecord(t, f, fmt.Sprintf("r%04d", i), map[string]any{"a": "x"}))
	}
	mustRead(t, l).Close()
	l.Append(responseRecord(t, f, "waiting", map[string]any{"a": "x"}))
	entries, _ := os.ReadDir(l.Dir())
	for _, e := range entries {
		os.Chmod(filepath.Join(l.Dir(), e.Name()), 0o444)
	}
	for dir := l.Dir(); dir != os.TempDir() && dir != "/"; dir = filepath.Dir(dir) {
		os.Chmod(dir, 0o555) // t.TempDir's folders, for another user to enter
	}
	t.Cleanup(func() { os.Chmod(filepath.Dir(l.Dir()), 0o700); os.Chmod(l.Dir(), 0o700) })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^$")
	if os.Geteuid() == 0 { // root writes anywhere: read as nobody, from a copy of this binary nobody can run
		bin := filepath.Join(t.TempDir(), "reader")
		copyFile(t, self, bin)
		os.Chmod(filepath.Dir(bin), 0o755)
		for dir := filepath.Dir(filepath.Dir(bin)); dir != os.TempDir() && dir != "/"; dir = filepath.Dir(dir) {
			os.Chmod(dir, 0o755)
		}
		cmd = exec.Command(bin, "-test.run=^$")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	cmd.Env = append(os.Environ(), "ELICIT_TEST_READER="+l.Dir())
	out, err := cmd.CombinedOutput()
	got := string(out)
	if err != nil || !strings.Contains(got, "submissions 2000 read-only true") ||
		!strings.Contains(got, "cannot be written: read as it is; the records of 1 journal file(s) not yet in responses.db could not be moved in") {
		t.Errorf("reading the read-only log: %v\n%s", err, got)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

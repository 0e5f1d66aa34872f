package infile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
)

var testLimit = Limit{Max: 10, What: "a test input", Fix: "make it shorter"}

// fixture builds a directory with one of each kind of path.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("empty", "")
	write("small", "hello")
	write("at-cap", "0123456789")
	write("over-cap", "0123456789x")
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"zero-link": "/dev/zero", "small-link": "small", "dangling": "nowhere"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadFile(t *testing.T) {
	dir := fixture(t)
	tests := []struct {
		name    string
		path    string
		want    string
		wantErr string // a substring of the error
		is      error  // an error it must match, when not nil
	}{
		{"empty", "empty", "", "", nil},
		{"small", "small", "hello", "", nil},
		{"exactly the cap", "at-cap", "0123456789", "", nil},
		{"one byte over", "over-cap", "", "over-cap: more than 10 bytes, the cap for a test input (make it shorter)", ErrTooLarge},
		{"a link to a file", "small-link", "hello", "", nil},
		{"directory", "dir", "", "dir: a directory, not a regular file", ErrNotRegular},
		{"fifo refused without blocking", "fifo", "", "fifo: a named pipe (FIFO), not a regular file", ErrNotRegular},
		{"a link to /dev/zero", "zero-link", "", "zero-link: a character device, not a regular file", nil},
		{"missing", "missing", "", "no such file", fs.ErrNotExist},
		{"dangling link", "dangling", "", "no such file", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFile(filepath.Join(dir, tt.path), testLimit)
			checkResult(t, got, err, tt.want, tt.wantErr, tt.is)
		})
	}
}

func checkResult(t *testing.T, got []byte, err error, want, wantErr string, is error) {
	t.Helper()
	if wantErr == "" {
		if err != nil || string(got) != want {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Fatalf("got %q, %v; want an error containing %q", got, err, wantErr)
	}
	if is != nil && !errors.Is(err, is) {
		t.Fatalf("error %v is not %v", err, is)
	}
	if got != nil {
		t.Fatalf("got data %q with the error", got)
	}
}

// TestDevZeroDirect reads the device itself, which must be refused rather
// than read to the cap.
func TestDevZeroDirect(t *testing.T) {
	_, err := ReadFile("/dev/zero", Limit{Max: 1 << 40, What: "x"})
	var nr *NotRegularError
	if !errors.As(err, &nr) {
		t.Fatalf("got %v, want a *NotRegularError", err)
	}
}

// TestOpenStopsAtCap reads a file that grows past its cap after it was
// opened: the reader fails at the cap instead of returning more.
func TestOpenStopsAtCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "growing")
	if err := os.WriteFile(path, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path, testLimit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Name != path || len(data) != 10 {
		t.Fatalf("got %d bytes, %v; want 10 bytes and a *TooLargeError naming %s", len(data), err, path)
	}
	if f.Name() != path {
		t.Fatalf("Name() = %q", f.Name())
	}
}

func TestReadStream(t *testing.T) {
	tests := []struct {
		name, in, want, wantErr string
	}{
		{"empty", "", "", ""},
		{"under", "abc", "abc", ""},
		{"exactly the cap", "0123456789", "0123456789", ""},
		{"over: an error, not a cut", "0123456789x", "", "standard input: more than 10 bytes, the cap for a test input (make it shorter)"},
		{"far over", strings.Repeat("y", 1000), "", "more than 10 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte at a time, as a slow pipe delivers it.
			got, err := ReadStream(io.LimitReader(oneByte{strings.NewReader(tt.in)}, 1<<20), "standard input", testLimit)
			checkResult(t, got, err, tt.want, tt.wantErr, nil)
		})
	}
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

// stuck returns no data and no error, forever.
type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

func TestReadStreamNoProgress(t *testing.T) {
	r := io.MultiReader(strings.NewReader("0123456789"), stuck{})
	if _, err := ReadStream(r, "x", testLimit); !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("got %v, want io.ErrNoProgress", err)
	}
}

func TestReadFSDir(t *testing.T) {
	dir := Dir(fixture(t))
	tests := []struct {
		name, path, want, wantErr string
		is                        error
	}{
		{"small", "small", "hello", "", nil},
		{"over the cap, named inside the folder", "over-cap", "", "over-cap: more than 10 bytes", nil},
		{"fifo", "fifo", "", "fifo: a named pipe (FIFO), not a regular file", nil},
		{"directory", "dir", "", "dir: a directory", nil},
		{"device link", "zero-link", "", "zero-link: a character device", nil},
		{"missing", "missing", "", "open missing: no such file", fs.ErrNotExist},
		{"outside the folder", "../small", "", "invalid argument", fs.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFS(dir, tt.path, testLimit)
			checkResult(t, got, err, tt.want, tt.wantErr, tt.is)
		})
	}
	// Dir is a usable fs.FS: listing and opening work as with os.DirFS.
	entries, err := fs.ReadDir(dir, ".")
	if err != nil || len(entries) != 9 {
		t.Fatalf("ReadDir: %d entries, %v", len(entries), err)
	}
	if _, err := dir.Open("../x"); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("Open(../x) = %v", err)
	}
	if _, err := dir.Open("missing"); err == nil || err.Error() != "open missing: no such file or directory" {
		t.Fatalf("Open(missing) = %v", err)
	}
	// Links are seen as links, as with os.DirFS.
	if fi, err := fs.Lstat(dir, "dangling"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("Lstat(dangling) = %v, %v", fi, err)
	}
	if target, err := fs.ReadLink(dir, "small-link"); err != nil || target != "small" {
		t.Fatalf("ReadLink(small-link) = %q, %v", target, err)
	}
	if _, err := fs.ReadLink(dir, "small"); err == nil || !strings.HasPrefix(err.Error(), "readlink small:") {
		t.Fatalf("ReadLink(small) = %v", err)
	}
	if _, err := fs.Lstat(dir, "../x"); !errors.Is(err, fs.ErrInvalid) {
		t.Fatalf("Lstat(../x) = %v", err)
	}
}

func TestReadFSOther(t *testing.T) {
	fsys := fstest.MapFS{
		"small":    {Data: []byte("hello")},
		"over-cap": {Data: []byte("0123456789x")},
		"fifo":     {Mode: fs.ModeNamedPipe},
		"dir/x":    {Data: []byte("x")},
	}
	tests := []struct {
		name, path, want, wantErr string
		is                        error
	}{
		{"small", "small", "hello", "", nil},
		{"over the cap", "over-cap", "", "over-cap: more than 10 bytes", nil},
		{"fifo", "fifo", "", "fifo: a named pipe (FIFO)", nil},
		{"directory", "dir", "", "dir: a directory", nil},
		{"missing", "missing", "", "not exist", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFS(fsys, tt.path, testLimit)
			checkResult(t, got, err, tt.want, tt.wantErr, tt.is)
		})
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{1, "1 byte"}, {10, "10 bytes"}, {1000, "1000 bytes"}, {1024, "1 KiB"}, {64 << 10, "64 KiB"},
		{1 << 20, "1 MiB"}, {3 << 19, "1.5 MiB"}, {16 << 20, "16 MiB"}, {1 << 30, "1 GiB"}, {1<<20 + 1, "1048577 bytes"},
	}
	for _, tt := range tests {
		if got := Size(tt.n); got != tt.want {
			t.Errorf("Size(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestNotRegularKinds(t *testing.T) {
	tests := []struct {
		mode fs.FileMode
		want string
	}{
		{fs.ModeDir, "a directory"}, {fs.ModeNamedPipe, "a named pipe (FIFO)"}, {fs.ModeSocket, "a socket"},
		{fs.ModeDevice | fs.ModeCharDevice, "a character device"}, {fs.ModeDevice, "a device"}, {fs.ModeSymlink, "a symbolic link"}, {fs.ModeIrregular, "an irregular file"},
	}
	for _, tt := range tests {
		err := &NotRegularError{Name: "p", Mode: tt.mode}
		if want := "p: " + tt.want + ", not a regular file"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%v: %q, want prefix %q", tt.mode, err.Error(), want)
		}
	}
}

package widget

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/elicit/elicit/internal/formtest"
)

// BenchmarkRender renders the 6-field benchmark form and reports the
// fragment's size beside the time. With ATTUNE_FORMS_SRC set to the src
// folder of an attune-forms checkout (the peer, Python 3), the same run
// also renders the same form with the peer's widget renderer and reports
// its size, so docs/benchmarks.md's comparison comes from one run.
func BenchmarkRender(b *testing.B) {
	data := formtest.Bench(b)
	f := formtest.MustParse(b, data)
	size := len(Render(f, nil).HTML)
	b.ReportAllocs()
	for b.Loop() {
		Render(f, nil)
	}
	b.ReportMetric(float64(size), "html-bytes")
	if src := os.Getenv("ATTUNE_FORMS_SRC"); src != "" {
		peer := peerWidgetBytes(b, src, data)
		b.ReportMetric(float64(peer), "peer-html-bytes")
		b.ReportMetric(float64(size)/float64(peer), "ratio")
	}
}

// peerProgram renders a form read from stdin with the peer's documented
// entry points (form_from_dict, form_to_widget_html) and writes the HTML.
const peerProgram = `import json, sys
from attune_forms.bridge import form_from_dict
from attune_forms.widget import form_to_widget_html
sys.stdout.write(form_to_widget_html(form_from_dict(json.load(sys.stdin)), instance_id="bench"))
`

// peerWidgetBytes runs the peer's widget renderer on the form. The peer's
// package imports structlog for a module the widget does not use; when it
// is not installed a stand-in with a no-op get_logger is put on the path.
func peerWidgetBytes(b *testing.B, src string, form []byte) int {
	stub := b.TempDir()
	if err := os.WriteFile(filepath.Join(stub, "structlog.py"), []byte("def get_logger(*a, **k):\n    class L:\n        def __getattr__(self, n):\n            return lambda *a, **k: None\n    return L()\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("python3", "-c", peerProgram)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+src+string(os.PathListSeparator)+stub)
	cmd.Stdin = bytes.NewReader(form)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		b.Fatalf("the peer's renderer: %v\n%s", err, errb.Bytes())
	}
	return out.Len()
}

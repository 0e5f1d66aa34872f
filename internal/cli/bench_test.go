package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkFormCollectProcess runs `elicit form collect` as a whole process,
// start to exit (target ≤ 10 ms).
func BenchmarkFormCollectProcess(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "elicit")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/elicit")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	formFile := filepath.Join(dir, "form.json")
	answers := filepath.Join(dir, "answers.json")
	data, err := os.ReadFile("../../form/testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile(formFile, data, 0o644)
	os.WriteFile(answers, []byte(`{"track": "beta", "platforms": ["linux"], "budget": 3, "ship_date": "2026-12-01"}`), 0o644)
	for b.Loop() {
		if out, err := exec.Command(bin, "form", "collect", formFile, answers).CombinedOutput(); err != nil {
			b.Fatalf("collect: %v\n%s", err, out)
		}
	}
}

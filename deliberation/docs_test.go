package deliberation

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocsWorkedExample runs the worked example of docs/deliberation.md:
// its evaluation documents decode strictly and walk the deliberation to the
// synthesis the page shows.
func TestDocsWorkedExample(t *testing.T) {
	page, err := os.ReadFile("../docs/deliberation.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- evaluation example: [^>]*-->\n```json\n(.*?)```").FindAllSubmatch(page, -1)
	if len(blocks) != 3 {
		t.Fatalf("found %d evaluation examples, want 3", len(blocks))
	}
	answers := []string{
		"1. Honour Retry-After (client.py:88 parses it). EVIDENCE.\n2. Retry 5 times with exponential backoff. GUESS.",
		"Re C1: I concede C1; the cap is arbitrary.",
		"Nothing beyond client.py:88.",
	}
	s, err := New("Should the importer retry on HTTP 429?", &StartOptions{Facts: []string{"no new infrastructure"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range blocks {
		respond(t, s, answers[i])
		ev, err := DecodeEvaluation(b[1])
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if _, err := s.Evaluate(ev, t0); err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if i > 0 {
			continue
		}
		if tail := s.Next.Prompt[strings.Index(s.Next.Prompt, "Iteration"):]; !strings.Contains(string(page), tail) {
			t.Errorf("the page's Subsequent Call differs from the engine's:\n%s", tail)
		}
	}
	y, err := Synthesize(s)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimRight(y.Markdown()[:strings.Index(y.Markdown(), "## SURFACED")], "\n") + "\n"
	if !strings.Contains(string(page), head) {
		t.Errorf("the page's synthesis differs from the engine's:\n%s", head)
	}
}

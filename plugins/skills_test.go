package plugins

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/golden"
)

// TestSkills holds every skill to what hosts accept and the golden front
// matter (what a host shows the model to decide when to load a skill).
func TestSkills(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("elicit", "skills"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dirs {
		names = append(names, d.Name())
	}
	if !slices.Equal(slices.Sorted(slices.Values(skillNames)), names) {
		t.Errorf("skills on disk %v, SkillNames %v", names, skillNames)
	}
	var front []Skill
	for _, name := range skillNames {
		s, err := LoadSkill(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Name != name || s.Description == "" || len(s.Description) > 1024 || strings.ContainsAny(s.Description, "<>") {
			t.Errorf("%s: name %q, description %d bytes (1-1024, no angle brackets)", name, s.Name, len(s.Description))
		}
		if !strings.HasPrefix(s.Body, "# ") || len(s.Body) > 5000 {
			t.Errorf("%s: the body must start with a heading and stay short (%d bytes)", name, len(s.Body))
		}
		front = append(front, s)
	}
	golden.Check(t, "skills.json", golden.JSON(t, front))
}

func TestParseSkillErrors(t *testing.T) {
	for _, text := range []string{"# no front matter", "---\nname: x\n", "---\nname x\n---\n# b", "---\nmodel: y\n---\n# b"} {
		if _, err := parseSkill(text); err == nil {
			t.Errorf("parseSkill(%q) accepted", text)
		}
	}
	s, err := parseSkill("---\nname: x\ndescription: \"quoted: yes\"\n---\n\n# Body\n")
	if err != nil || s.Description != "quoted: yes" || s.Body != "# Body\n" {
		t.Errorf("got %+v, %v", s, err)
	}
}

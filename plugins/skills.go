package plugins

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed elicit/skills/*/SKILL.md
var skillFiles embed.FS

// Skill is one SKILL.md: its front matter and its body.
type Skill struct {
	Name         string `json:"name"`
	Description  string `json:"description"`
	ArgumentHint string `json:"argument-hint,omitempty"`
	Body         string `json:"-"`
}

// skillNames are the plugin's skills.
var skillNames = []string{"forms", "methods", "deliberate"}

// LoadSkill reads the skill of that name.
func LoadSkill(name string) (Skill, error) {
	data, err := skillFiles.ReadFile("elicit/skills/" + name + "/SKILL.md")
	if err != nil {
		return Skill{}, fmt.Errorf("skill %q: %w", name, err)
	}
	return parseSkill(string(data))
}

// parseSkill splits a SKILL.md into its front matter (one "key: value" per
// line, values optionally double-quoted) and its body.
func parseSkill(text string) (Skill, error) {
	rest, ok := strings.CutPrefix(text, "---\n")
	front, body, ok2 := strings.Cut(rest, "\n---\n")
	if !ok || !ok2 {
		return Skill{}, fmt.Errorf("SKILL.md must start with front matter between --- lines")
	}
	var s Skill
	for _, line := range strings.Split(front, "\n") {
		key, value, found := strings.Cut(line, ":")
		if !found {
			return Skill{}, fmt.Errorf("front matter line %q is not key: value", line)
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		switch key {
		case "name":
			s.Name = value
		case "description":
			s.Description = value
		case "argument-hint":
			s.ArgumentHint = value
		default:
			return Skill{}, fmt.Errorf("front matter key %q is not used by elicit's skills", key)
		}
	}
	s.Body = strings.TrimLeft(body, "\n")
	return s, nil
}

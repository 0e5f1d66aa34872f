package deliberation

import "strings"

// stances are the positions a council member may argue from, in the order
// Stances lists them: PAL's consensus stances, and seed 000's codex_role
// prompts word for word.
var stances = []struct{ name, text string }{
	{"for", "Stance: FOR. Make the strongest case in favour; concede only to evidence."},
	{"against", "Stance: AGAINST. Make the strongest case against; concede only to evidence."},
	{"neutral", "Stance: NEUTRAL. Weigh both sides; take neither by default."},
	{"red_team", "You are a RED TEAM security analyst. Find weaknesses, attack vectors, failure modes."},
	{"failure", "You are a pessimistic analyst conducting a PRE-MORTEM. Explain WHY the project failed."},
	{"critic", "You are a devil's advocate. Challenge every assumption."},
}

// Stances are the stance names, in order.
func Stances() []string {
	out := make([]string, len(stances))
	for i, s := range stances {
		out[i] = s.name
	}
	return out
}

// StanceText is the line a prompt states stance with, or "" when stance
// is not one of Stances.
func StanceText(stance string) string {
	for _, s := range stances {
		if s.name == stance {
			return s.text
		}
	}
	return ""
}

// WithStance is prompt with stance's line after the question, as a
// council member opening a session (the First Call, a Recovery prompt) is
// sent it; prompt itself without a stance, or without a question.
func WithStance(prompt, stance string) string {
	t := StanceText(stance)
	const end = "</user_question>\n"
	i := strings.Index(prompt, end)
	if t == "" || i < 0 {
		return prompt
	}
	i += len(end)
	return prompt[:i] + "\n" + t + " The rules above still apply." + "\n" + prompt[i:]
}

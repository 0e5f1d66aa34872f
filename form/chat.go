package form

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/elicit/elicit/internal/spelling"
	"github.com/elicit/elicit/problem"
)

// How the chat tools that ask one choice at a time (Claude Code's
// AskUserQuestion, Codex's request_user_input) offer a field and read its
// answer back, in one place so that the two surfaces cannot disagree: the
// options in asking order and their labels, the two-tier picker's groups,
// and ChatAnswers, which maps the labels back, keeps a two-tier picker's
// tiers together and reports a question answered differently twice.

// badges are the suffixes the chat surfaces add to option labels.
var badges = []string{RecommendedSuffix, SuggestedSuffix, userPositionSuffix, optionSuffix}

// Badges returns the suffixes the chat surfaces add to option labels, a
// copy of the list StripBadges strips: changing it changes nothing.
func Badges() []string { return slices.Clone(badges) }

// stripBadges drops the badges s ends with, in any case and any order
// ("X (Recommended) (your approach)" is "X").
func stripBadges(s string) string {
	for {
		cut := false
		for _, b := range badges {
			if len(s) > len(b) && strings.EqualFold(s[len(s)-len(b):], b) {
				s, cut = s[:len(s)-len(b)], true
			}
		}
		if !cut {
			return s
		}
	}
}

// ChatLabel is how the chat surfaces label option o of f: with badge when o
// is the recommendation of a single choice (a multi-select recommends
// nothing), and with UserPositionSuffix when o is the user's own position.
// A badge that would make the label another option's text ("Keep" and
// "Keep (Recommended)") is left off, so that every label stays distinct and
// maps back to its own option.
func (f *Field) ChatLabel(o, badge string) string {
	label := o
	if o != "" && o == f.Recommendation() && f.Type != MultiSelect {
		label = f.badged(o, label, badge)
	}
	if o != "" && o == f.UserPosition {
		label = f.badged(o, label, userPositionSuffix)
	}
	return label
}

// badged is label with badge, unless that is the text of an option of f
// other than o.
func (f *Field) badged(o, label, badge string) string {
	for _, other := range f.Choices() {
		if other != o && strings.EqualFold(other, label+badge) {
			return label
		}
	}
	return label + badge
}

// Followup is the second tier of a two-tier picker on a chat tool whose
// questions are of type Q: after the first tier's question (After) is
// answered with a group's label, ask that group's question (for a
// multi-select, the questions of every chosen group).
type Followup[Q any] struct {
	QuestionID string             `json:"question_id"`
	After      string             `json:"after"`
	Groups     []FollowupGroup[Q] `json:"groups"`
}

// FollowupGroup is the question to ask when the first tier's answer is
// Label.
type FollowupGroup[Q any] struct {
	Label    string `json:"label"`
	Question Q      `json:"question"`
}

// GroupLabel names group k (from 1) of a two-tier picker when its options
// cannot name it: "Group 2". Answers naming a group so are read too.
func GroupLabel(k int) string { return "Group " + strconv.Itoa(k) }

// labelWords is the most words the chat tools take in an option label
// (hosts.md: 1-5 words, the badges counted).
const labelWords = 5

// words counts the words of s as the hosts count them: runs of non-space.
func words(s string) int {
	n, in := 0, false
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

// cutWords is s cut to its first n words (at least one) without the small
// words a cut would leave dangling ("Explore and" is "Explore"), the last
// ending in "…", or s when it has no more.
func cutWords(s string, n int) string {
	w := strings.Fields(s)
	n = max(n, 1)
	if len(w) <= n {
		return s
	}
	kept := w[:n]
	for len(kept) > 1 && dangling[strings.ToLower(kept[len(kept)-1])] {
		kept = kept[:len(kept)-1]
	}
	return strings.Join(kept, " ") + "…"
}

// dangling are the words a cut label does not end on.
var dangling = map[string]bool{"a": true, "an": true, "and": true, "at": true, "by": true, "for": true,
	"in": true, "of": true, "on": true, "or": true, "the": true, "to": true, "with": true}

// cutMiddle is s as n words (at least two): its first n-1, the last of
// them ending in "…", and its last word ("Deploy to… evening"), or s when
// it has no more.
func cutMiddle(s string, n int) string {
	w := strings.Fields(s)
	n = max(n, 2)
	if len(w) <= n {
		return s
	}
	return strings.Join(w[:n-1], " ") + "… " + w[len(w)-1]
}

// groupName names a two-tier group by its first and last options, within
// the label limit, the first given the more room: "Alpha – Delta", "Explore
// and learn – Review…".
func groupName(first, last string) string {
	a, b := words(first), words(last)
	if a+b+1 <= labelWords {
		return first + " – " + last
	}
	head := cutWords(first, min(a, labelWords-2))
	return head + " – " + cutWords(last, labelWords-1-words(head))
}

// NotNowNote describes the NotNow choice beside the single option of a
// progress pick: in a task report, leaving the blocked item blocked; in the
// neutral report style (no blocked items, a topic to go deeper on), going
// no deeper.
func (f *Field) NotNowNote() string {
	if f.ProgressStyle == "report" {
		return "Go no deeper for now; nothing more is pulled."
	}
	return "Leave it blocked for now; nothing is tackled next."
}

// NoPreference is what Claude Code's AskUserQuestion gives back for a
// question the person skipped.
const NoPreference = "[No preference]"

// SkipLabel is the choice the chat tools add to leave an optional question
// unanswered, where the question has room for it; SkipNote describes it.
const (
	SkipLabel = "Skip"
	SkipNote  = "Leave this question unanswered."
)

// Skippable reports whether a chat tool may offer f's question a Skip
// choice: f is optional with no default (a default is what leaving it
// keeps), has no Not now, and no option of its own reads "Skip".
func (c *ChatChoice) Skippable() bool {
	f := c.Field
	if f.Required || f.Default != nil || f.NeedsNotNow() || f.DisplayOnly() {
		return false
	}
	for _, o := range c.Options {
		if strings.EqualFold(strings.TrimSpace(o), SkipLabel) {
			return false
		}
	}
	return true
}

// ChatChoice is one field as a chat tool asks it.
type ChatChoice struct {
	Field *Field
	// Options are the choices in asking order: Choices, then NotNow where
	// the tool needs a second choice beside a single blocked item.
	Options []string
	// Badge marks the recommendation: RecommendedSuffix, or
	// SuggestedSuffix on the questions a construct expands into.
	Badge string
	// Skip says the question (a two-tier picker's first tier) offers
	// SkipLabel: choosing it is no answer.
	Skip bool
	// Groups are the sizes of a two-tier picker's groups (Groups(n, size)),
	// or nil when the options fit one question.
	Groups []int
	// GroupNames name the groups, as the first tier offers them (SetGroups).
	GroupNames []string
	// Followups name each group's follow-up question in problems (its id),
	// or are nil: "the follow-up question for it".
	Followups []string
	labels    map[string]int    // label -> first option with it, for many options
	anyCase   map[string]int    // option or label, lower-cased -> first option with it
	shown     map[string]string // option -> its label, cut to the hosts' limit
	confirm   *Form             // the all-guessed form this confirms (NewConfirmChoice), or nil
}

// NewChatChoice plans f's options for a chat tool, its recommendation
// marked with badge.
func NewChatChoice(f *Field, badge string) *ChatChoice {
	opts := f.Choices()
	if f.NeedsNotNow() {
		opts = append(slices.Clip(opts), NotNow)
	}
	return &ChatChoice{Field: f, Options: opts, Badge: badge}
}

// Label is how the tool shows option o. An option named "Other" is
// "Other (option)", told apart from the free-text "Other" the host adds.
// A label over the hosts' 1-5 words (its badges counted) is cut to them
// ("Exponential backoff with jitter… (Recommended)"), unless the cut would
// read as another option: Shortened says so, and the option's description
// then holds its whole text. Either label maps back to the option.
func (c *ChatChoice) Label(o string) string {
	if c.shown == nil {
		c.shorten()
	}
	if l, ok := c.shown[o]; ok {
		return l
	}
	return c.fullLabel(o)
}

// Shortened reports whether option o's label is cut from its text.
func (c *ChatChoice) Shortened(o string) bool { return c.Label(o) != c.fullLabel(o) }

// fullLabel is option o's label before it is cut to the hosts' limit.
func (c *ChatChoice) fullLabel(o string) string {
	label := c.Field.ChatLabel(o, c.Badge)
	if strings.EqualFold(strings.TrimSpace(o), "other") {
		label = o + optionSuffix + label[len(o):]
	}
	return label
}

// shorten labels every option within labelWords: the first words of a
// long option, else its first and last words, where that reads as no other
// option's label or text (in any case, without badges); else the whole
// text.
func (c *ChatChoice) shorten() {
	c.shown = map[string]string{} // only the long ones: most forms have none
	var long []string
	for _, o := range c.Options {
		if words(c.fullLabel(o)) > labelWords {
			long = append(long, o)
		}
	}
	if len(long) == 0 {
		return
	}
	taken := make(map[string]bool, 2*len(c.Options))
	for _, o := range c.Options {
		full := c.fullLabel(o)
		taken[strings.ToLower(o)] = true
		taken[strings.ToLower(stripBadges(full))] = true
	}
	for _, o := range long {
		c.shown[o] = c.fullLabel(o)
	}
	for _, cut := range []func(string, int) string{cutWords, cutMiddle} {
		tried := make(map[string]int, len(long)) // short text -> how many options cut to it
		short := make(map[string]string, len(long))
		for _, o := range long {
			full := c.shown[o]
			suffix := full[len(o):]
			if !strings.HasPrefix(full, o) {
				continue
			}
			t := cut(o, labelWords-words(suffix))
			short[o] = t + suffix
			tried[strings.ToLower(t)]++
		}
		var left []string
		for _, o := range long {
			l, ok := short[o]
			if !ok {
				continue
			}
			if t := strings.ToLower(stripBadges(l)); tried[t] == 1 && !taken[t] {
				c.shown[o] = l
				taken[t] = true
				continue
			}
			left = append(left, o)
		}
		long = left
	}
}

// SetGroups splits the options into a two-tier picker's groups of the
// given sizes (Groups) and names each by its first and last options
// ("Alpha – Delta"); where two names would read alike, or like an option,
// the groups are "Group 1", "Group 2", ...
func (c *ChatChoice) SetGroups(sizes []int) {
	c.Groups = sizes
	c.GroupNames = make([]string, len(sizes))
	seen := map[string]bool{}
	for _, o := range c.Options {
		seen[strings.ToLower(o)] = true
	}
	start := 0
	for k, n := range sizes {
		name := groupName(c.Options[start], c.Options[start+n-1])
		start += n
		t := strings.ToLower(name)
		if seen[t] || c.Field.Type == MultiSelect && strings.Contains(name, ",") {
			for k := range c.GroupNames {
				c.GroupNames[k] = GroupLabel(k + 1)
			}
			return
		}
		seen[t] = true
		c.GroupNames[k] = name
	}
}

// groupName is group k's (from 1) name.
func (c *ChatChoice) groupName(k int) string {
	if k <= len(c.GroupNames) {
		return c.GroupNames[k-1]
	}
	return GroupLabel(k)
}

// unlabel maps an answer the tool gave back to an option: a label as
// shown (or trimmed, or without its badges), or the option itself. NotNow
// is "" (no answer: nothing is tackled now); anything else is the person's
// own "Other" text, returned trimmed and without badges for collect to
// judge.
func (c *ChatChoice) unlabel(s string) string {
	t := strings.TrimSpace(s)
	if c.Field.NeedsNotNow() && strings.EqualFold(t, NotNow) || c.Skip && strings.EqualFold(t, SkipLabel) {
		return ""
	}
	if i, ok := c.optionOf(s, t); ok {
		return c.Options[i]
	}
	u := stripBadges(t)
	if i, ok := c.optionOf(u, u); ok {
		return c.Options[i]
	}
	// Typed as "Other" in another case: the option, as markdown forgives
	// case too (an index built once, so that many labels stay linear).
	if c.anyCase == nil {
		c.anyCase = make(map[string]int, len(c.Options))
		add := func(k string, i int) {
			if _, seen := c.anyCase[k]; !seen {
				c.anyCase[k] = i
			}
		}
		for i, o := range c.Options {
			k := strings.ToLower(o)
			add(k, i)
			if l := strings.ToLower(stripBadges(c.Label(o))); l != k {
				add(l, i)
			}
		}
	}
	if i, ok := c.anyCase[strings.ToLower(u)]; ok {
		return c.Options[i]
	}
	return u
}

// optionOf is the index of the first option whose label is s or t. Past a
// few options it looks the labels up in an index built once, so that a
// long answer against many options stays linear.
func (c *ChatChoice) optionOf(s, t string) (int, bool) {
	if len(c.Options) <= 16 {
		for i, o := range c.Options {
			if l := c.Label(o); l == s || l == t || o == t {
				return i, true
			}
		}
		return 0, false
	}
	if c.labels == nil {
		c.labels = make(map[string]int, len(c.Options))
		for i, o := range c.Options {
			for _, l := range []string{c.Label(o), o} {
				if _, seen := c.labels[l]; !seen {
					c.labels[l] = i
				}
			}
		}
	}
	i, okS := c.labels[s]
	j, okT := c.labels[t]
	switch {
	case okS && okT:
		return min(i, j), true
	case okS:
		return i, true
	}
	return j, okT
}

// group is the group (from 1) a first-tier label names, in any case, or 0.
func (c *ChatChoice) group(label string) int {
	t := strings.TrimSpace(label)
	for k := 1; k <= len(c.Groups); k++ {
		if strings.EqualFold(t, c.groupName(k)) {
			return k
		}
	}
	for k := 1; k <= len(c.Groups); k++ {
		if strings.EqualFold(t, GroupLabel(k)) {
			return k
		}
	}
	return 0
}

// groupsNamed reads a first-tier answer: the groups it names (several,
// comma-joined, for a multi-select), or false when it is "Other" text.
func (c *ChatChoice) groupsNamed(answer string) ([]int, bool) {
	parts := []string{answer}
	if c.Field.Type == MultiSelect {
		parts = strings.Split(answer, ",")
	}
	ks := make([]int, 0, len(parts))
	for _, p := range parts {
		if c.Skip && len(parts) > 1 && strings.EqualFold(strings.TrimSpace(p), SkipLabel) {
			continue // Skip beside groups: the groups
		}
		k := c.group(p)
		if k == 0 {
			return nil, false
		}
		ks = append(ks, k)
	}
	return ks, true
}

// ChatQuestion is what one question a chat tool answered stands for.
type ChatQuestion struct {
	Choice *ChatChoice
	// Group is 0 for the field's own question (the first tier of a
	// two-tier picker), k for the follow-up of group k, and -1 for the
	// field's plain text asked as a question of its own.
	Group int
	// Edit says free text is the corrected assumption (EditAnswer).
	Edit bool
}

// ChatAnswers gathers the answers chat tools gave back, question by
// question and call by call, into answers keyed by field id (the dotted
// keys of the rows and rank slots included). A question answered twice
// with different answers, or a field answered differently by two of its
// questions, is a problem naming both places; a two-tier picker whose
// first tier chose a group whose follow-up was not answered is a problem.
type ChatAnswers struct {
	out     map[string]any
	given   map[string]chatGiven // field id, or field id and group for a multi-select
	tiers   map[*ChatChoice]*chatTier
	changes []chatChange // confirms answered with anything but Keep all (confirmall.go)
	probs   problem.List
	pending map[string][]string // field id -> groups chosen whose follow-up was not answered
}

type chatGiven struct {
	path  string
	value any
}

type chatTier struct {
	chosen   []int
	answered map[int]bool
}

// NewChatAnswers starts gathering answers.
func NewChatAnswers() *ChatAnswers {
	return &ChatAnswers{out: map[string]any{}, given: map[string]chatGiven{}, tiers: map[*ChatChoice]*chatTier{}}
}

// Problem reports a problem with an answer at path.
func (r *ChatAnswers) Problem(path, format string, args ...any) {
	r.probs.Add(path, format, args...)
}

// Each calls read with every member of one tool output's answers object,
// in key order, and its path for problems: prefix + `answers["<key>"]`.
func (r *ChatAnswers) Each(prefix string, answers map[string]any, read func(path, key string, v any)) {
	for _, k := range slices.Sorted(maps.Keys(answers)) {
		read(fmt.Sprintf("%sanswers[%q]", prefix, k), k, answers[k])
	}
}

// Add reads answer, the text the tool gave back for question q at path
// (where problems put it, e.g. `answers["Which region?"]`).
func (r *ChatAnswers) Add(path string, q ChatQuestion, answer string) {
	c := q.Choice
	if strings.TrimSpace(answer) == NoPreference {
		// Claude Code's answer to a question the person skipped: no answer
		// to an optional field; a required one is asked again.
		if c.Field.Required {
			r.probs.Add("answers."+c.Field.ID, "skipped (%s), but it is required: ask it again", NoPreference)
		}
		return
	}
	if c.confirm != nil {
		r.addConfirm(path, c, answer)
		return
	}
	if q.Group == 0 && len(c.Groups) > 0 {
		if ks, ok := c.groupsNamed(answer); ok {
			t := r.tier(c)
			t.chosen = append(t.chosen, ks...)
			return
		}
	}
	if q.Group > 0 {
		r.tier(c).answered[q.Group] = true
	}
	f := c.Field
	if f.Type == MultiSelect {
		r.addMulti(path, c, q.Group, answer)
		return
	}
	v := c.unlabel(answer)
	if prev, seen := r.given[f.ID]; seen && !q.Edit && prev.path != path && !f.Accepts(prev.value) {
		// A later call's answer (the re-ask's) replaces a wrong one.
		delete(r.given, f.ID)
	}
	if !r.first(f.ID, path, v) {
		return
	}
	if q.Edit {
		EditAnswer(r.out, f.ID, v)
		return
	}
	r.out[f.ID] = v
}

func (r *ChatAnswers) tier(c *ChatChoice) *chatTier {
	t := r.tiers[c]
	if t == nil {
		t = &chatTier{answered: map[int]bool{}}
		r.tiers[c] = t
	}
	return t
}

// first records value as key's answer from path and reports whether it is
// the first; a different later one is a problem.
func (r *ChatAnswers) first(key, path string, value any) bool {
	prev, seen := r.given[key]
	if !seen {
		r.given[key] = chatGiven{path, value}
		return true
	}
	if sameChat(prev.value, value) {
		return false
	}
	id, _, _ := strings.Cut(key, "\x00")
	if prev.path == path {
		r.probs.Add("answers."+id, "answered twice at %s (%s, then %s); give one answer", path, showChat(prev.value), showChat(value))
		return false
	}
	r.probs.Add("answers."+id, "answered in both %s (%s) and %s (%s); give one answer", prev.path, showChat(prev.value), path, showChat(value))
	return false
}

// sameChat compares two answers: strings, or choices as sets.
func sameChat(a, b any) bool {
	la, okA := a.([]string)
	lb, okB := b.([]string)
	if !okA || !okB {
		return a == b
	}
	set := func(l []string) []string { return slices.Compact(slices.Sorted(slices.Values(l))) }
	return slices.Equal(set(la), set(lb))
}

func showChat(v any) string {
	if list, ok := v.([]string); ok {
		return fmt.Sprintf("%q", list)
	}
	return strconv.Quote(fmt.Sprint(v))
}

// addMulti merges the labels of a multi-select answer (comma-joined; a
// two-tier picker answers in several questions), in option order, free
// text after the options for collect to report.
func (r *ChatAnswers) addMulti(path string, c *ChatChoice, group int, answer string) {
	var chosen []string
	for _, part := range splitLabels(answer) {
		if o := c.unlabel(part); o != "" { // Skip beside choices: the choices
			chosen = append(chosen, o)
		}
	}
	f := c.Field
	key := f.ID + "\x00" + strconv.Itoa(group)
	if !r.first(key, path, chosen) {
		return
	}
	prev, _ := r.out[f.ID].([]string)
	all := append(slices.Clone(prev), chosen...)
	picked := make(map[string]bool, len(all))
	for _, o := range all {
		picked[o] = true
	}
	isOption := make(map[string]bool, len(f.Options))
	var ordered []string
	for _, o := range f.Options {
		isOption[o] = true
		if picked[o] {
			ordered = append(ordered, o)
			picked[o] = false // once, however often it was picked
		}
	}
	for _, o := range all {
		if !isOption[o] {
			ordered = append(ordered, o)
		}
	}
	r.out[f.ID] = ordered
}

// splitLabels splits a multi-select answer into its labels: separated by
// commas, a label that holds a comma or a quote JSON-quoted, as Claude Code
// joins them ("a, \"b, c\", d" is a, "b, c" and d). A quote that does not
// start a JSON string is part of the label.
func splitLabels(answer string) []string {
	var out []string
	for rest := answer; rest != ""; {
		rest = strings.TrimLeft(rest, " ")
		if strings.HasPrefix(rest, `"`) {
			var label string
			dec := json.NewDecoder(strings.NewReader(rest))
			if err := dec.Decode(&label); err == nil {
				after := strings.TrimLeft(rest[dec.InputOffset():], " ")
				if after == "" || after[0] == ',' {
					if label != "" {
						out = append(out, label)
					}
					rest = strings.TrimPrefix(after, ",")
					continue
				}
			}
		}
		part, next, _ := strings.Cut(rest, ",")
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
		rest = next
	}
	return out
}

// Pending names, by field id, the groups a two-tier picker's first tier
// chose whose follow-up question was not answered (after Result): a re-ask
// asks only those follow-ups, never the first tier again.
func (r *ChatAnswers) Pending() map[string][]string { return r.pending }

// ClosestQuestion names, for a key no question of the form has (a
// question's text or id), the one it most likely meant: ` (closest: "...")`,
// or "" when none is near. known are the form's question keys.
func ClosestQuestion(key string, known []string) string {
	folded := make([]string, len(known))
	for i, k := range known {
		folded[i] = Fold(k)
	}
	best := spelling.Closest(Fold(key), folded, len(key)/3+1)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (closest: %q)", known[slices.Index(folded, best)])
}

// Result returns the answers read and, as a problem.List, every problem
// found: an answer that could not be read leaves out its field, never the
// others (collect keeps them and re-asks only what is missing or wrong).
func (r *ChatAnswers) Result() (map[string]any, error) {
	r.changeProblems()
	choices := make([]*ChatChoice, 0, len(r.tiers))
	for c := range r.tiers {
		choices = append(choices, c)
	}
	slices.SortFunc(choices, func(a, b *ChatChoice) int { return strings.Compare(a.Field.ID, b.Field.ID) })
	for _, c := range choices {
		t := r.tiers[c]
		var missing, names []string
		for _, k := range slices.Compact(slices.Sorted(slices.Values(t.chosen))) {
			if !t.answered[k] {
				missing = append(missing, strconv.Quote(c.groupName(k)))
				if k <= len(c.Followups) {
					names = append(names, c.Followups[k-1])
				}
			}
		}
		if len(missing) > 0 {
			if r.pending == nil {
				r.pending = map[string][]string{}
			}
			for _, k := range slices.Compact(slices.Sorted(slices.Values(t.chosen))) {
				if !t.answered[k] {
					r.pending[c.Field.ID] = append(r.pending[c.Field.ID], c.groupName(k))
				}
			}
		}
		switch {
		case len(missing) == 0:
		case len(names) == len(missing):
			r.probs.Add("answers."+c.Field.ID, "the first tier chose %s but its follow-up question (%s) was not answered", strings.Join(missing, ", "), strings.Join(names, ", "))
		default:
			r.probs.Add("answers."+c.Field.ID, "the first tier chose %s but the follow-up question for it was not answered", strings.Join(missing, ", "))
		}
	}
	return r.out, r.probs.Err()
}

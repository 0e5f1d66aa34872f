// Package markdown is the plain-chat surface: it renders a validated form
// as a short numbered questionnaire a person answers in one chat reply
// (options numbered, defaults, guesses and recommendations marked,
// constructs summarised, a reply skeleton of `id:` lines to fill in) and
// reads that reply back, forgiving case, spacing and the ways people
// write numbers, dates and yes/no. Every field type can be asked this way,
// so it is also the follow-up for whatever another surface cannot carry
// (NewFollowup) and the re-ask for answers that failed (Options.Problems).
package markdown

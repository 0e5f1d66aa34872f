// Package method is elicit's registry of structured-reasoning methods: prompt
// modifiers that ask an agent to shape its output as, say, a pre-mortem or a
// tree of thoughts.
//
// # Registry
//
// A registry is a CSV file with the header
//
//	num,category,method_name,description,output_pattern,tier,phases,agents,topics,auto_suggest,codex_role
//
// [Default] returns the embedded registry of 24 methods (16 tier 1, 8 tier 2);
// [Parse] and [Load] read other files and [Registry.Merge] overlays extra
// methods. Parsing never fails: a bad row is skipped and reported in
// [Registry.Warnings], worded as the Rune elicitation skill words them, and a
// registry without methods carries [WarnUnavailable].
//
// # Selection
//
// [Registry.Select] runs the pipeline phase filter, agent filter, tier filter,
// topic scoring and top N. A method scores
//
//	overlap(topics, keywords) / len(topics)  (+ 0.3 when its name is in the title)
//
// where keywords come from [Keywords]. Scores are compared exactly (as
// fractions), and ties go to the lower num, so a selection is the same on
// every run.
//
// # Prompt injection
//
// [Expand] turns an output pattern such as "failure->causes->prevention" into
// numbered steps, and [Inject] renders the block appended to an agent's
// prompt. Field values are display text only: nothing here builds a shell
// command or a code block from them.
package method

// The collect loop as an agent drives it through the official TypeScript
// SDK client over stdio: render, ask, collect; on problems ask only the
// re-ask, in the client's own surface, and continue with just the new
// answers. No answer the person gave is lost or asked twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectStdio, call } from "./lib.mjs";

const form = {
  title: "Deploy",
  fields: [
    { id: "region", text: "Which region?", type: "single_select", options: ["eu-west", "eu-north", "us-east", "us-west", "ap-south"] },
    { id: "backups", text: "Enable backups?", type: "boolean" },
    { id: "replicas", text: "How many replicas?", type: "number", minimum: 1 },
  ],
};
const whole = { region: "us-east", backups: "Yes", replicas: 3 };

const questions = (calls) => calls.flatMap((c) => c.questions);
const groupQuestion = (r, label) => r.followups.flatMap((f) => f.groups).find((g) => g.label === label).question;

test("Claude Code: two tiers and a wrong number, then only the re-ask", async () => {
  const c = await connectStdio(new Client({ name: "claude-code", version: "2.1.332" }));
  const [r] = await call(c, "elicitation_render_form", { form });
  assert.equal(r.surface, "ask");
  const [tier1] = questions(r.ask_user_question);
  const group = tier1.options.find((o) => o.description.includes("us-east")).label;
  // Round 1: the first call's result (tier 1 and the boolean; the second
  // tier not asked yet) and a markdown reply with a wrong number.
  const text = `The user answered: "${tier1.question}"="${group}", "Enable backups?"="Yes". You can now continue with the user's answers in mind.`;
  const [r1, err1] = await call(c, "elicitation_collect_response", { form, reply: [text, "replicas: 0"] });
  assert.equal(err1, true);
  assert.deepEqual(r1.kept, { backups: "Yes" });
  assert.deepEqual(r1.reask.field_ids, ["region", "replicas"]);
  assert.equal(r1.reask.surface, "ask");
  assert.equal(r1.reask.markdown, undefined, "one payload per field: no markdown beside AskUserQuestion");
  assert.ok(!questions(r1.reask.ask_user_question).some((q) => q.question === "Enable backups?"), "backups is not asked again");
  assert.deepEqual(r1.reask.markdown_followup.field_ids, ["replicas"]);
  // The re-ask asks the chosen group's second tier itself, not tier 1.
  const asked = questions(r1.reask.ask_user_question);
  assert.ok(!asked.some((q) => q.question === tier1.question), "the answered first tier is not asked again");
  const tier2 = asked.find((q) => q.question.startsWith("Which region? ("));
  assert.deepEqual(tier2, groupQuestion(r, group));
  // Round 2: the re-ask's second tier and number only.
  const [r2, err2] = await call(c, "elicitation_collect_response", {
    continue: r1.collect_id,
    reply: [`Your questions have been answered: "${tier2.question}"="us-east".`, "replicas: 3"],
  });
  assert.equal(err2, false, JSON.stringify(r2));
  assert.deepEqual(r2.responses, whole);
  await c.close();
});

test("Codex: a render without surface and the re-ask are request_user_input", async () => {
  const c = await connectStdio(new Client({ name: "codex-mcp-client", version: "0.171.0" }));
  const [r] = await call(c, "elicitation_render_form", { form });
  assert.equal(r.surface, "codex");
  assert.ok(r.request_user_input.length > 0 && r.ask_user_question === undefined);
  const [r1, err1] = await call(c, "elicitation_collect_response", {
    form,
    answers: { answers: { backups: { answers: ["Yes"] }, regoin: { answers: ["us-east"] } } },
    reply: "replicas: 3",
  });
  assert.equal(err1, true);
  assert.match(r1.problems.join("\n"), /closest: "region"/);
  assert.deepEqual(r1.kept, { backups: "Yes", replicas: 3 });
  assert.equal(r1.reask.surface, "codex");
  assert.ok(r1.reask.request_user_input.length > 0 && r1.reask.ask_user_question === undefined);
  const tier2 = groupQuestion(r1.reask, r1.reask.request_user_input[0].questions[0].options.find((o) => o.description.includes("us-east")).label);
  const [r2, err2] = await call(c, "elicitation_collect_response", {
    form,
    continue: r1,
    answers: { answers: { [tier2.id]: { answers: ["us-east"] } } },
  });
  assert.equal(err2, false, JSON.stringify(r2));
  assert.deepEqual(r2.responses, whole);
  await c.close();
});

test("plain chat: markdown in, markdown re-ask, markdown continue", async () => {
  const c = await connectStdio(new Client({ name: "some-chat", version: "1" }));
  const [r] = await call(c, "elicitation_render_form", { form, surface: "markdown" });
  assert.equal(r.surface, "markdown");
  const [r1, err1] = await call(c, "elicitation_collect_response", { form, reply: "region: 3\nbackups: yes\nreplicas: -1" });
  assert.equal(err1, true);
  assert.equal(r1.reask.surface, "markdown");
  assert.deepEqual(r1.reask.field_ids, ["replicas"]);
  const [r2, err2] = await call(c, "elicitation_collect_response", { continue: r1.collect_id, reply: "replicas: 3" });
  assert.equal(err2, false, JSON.stringify(r2));
  assert.deepEqual(r2.responses, whole);
  await c.close();
});

// The form surfaces through the official TypeScript SDK client: native
// elicitation in the form's order, the fallback a cancel or a known host
// gets, and collect merging AskUserQuestion's output with a markdown reply.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { formsDir, newClient, connectStdio, call } from "./lib.mjs";

const form = (name) => JSON.parse(readFileSync(path.join(formsDir, `${name}.json`), "utf8"));
const six = form("six");
const contract = { template: "session-contract", slots: { project: "demo" } };

// A client that names itself as a host does and answers every elicitation
// with action, counting them.
function hostClient(name, version, action) {
  const c = new Client({ name, version }, { capabilities: { elicitation: { form: {} } } });
  c.elicitations = [];
  c.setRequestHandler(ElicitRequestSchema, async (req) => {
    c.elicitations.push(req.params);
    return { action };
  });
  return c;
}

test("native elicitation lists the fields in the form's order", async () => {
  const c = await connectStdio(newClient("order", () => ({ action: "accept", content: { track: "beta", platforms: ["linux"], budget: 2, ship_date: "2026-12-24" } })));
  const [r] = await call(c, "elicitation_ask", { form: six });
  assert.equal(r.success, true);
  const props = Object.keys(c.elicitations[0].requestedSchema.properties);
  assert.deepEqual(props, six.fields.map((f) => f.id));
  assert.notDeepEqual(props, [...props].sort(), "the form's order is not the sorted order");
  await c.close();
});

test("a cancel comes back with the fallback payloads and a hint", async () => {
  const c = await connectStdio(newClient("cancels", () => ({ action: "cancel" })));
  const [r, isErr] = await call(c, "elicitation_ask", contract);
  assert.equal(isErr, false);
  assert.equal(c.elicitations.length, 1);
  assert.equal(r.success, false);
  assert.equal(r.action, "cancel");
  assert.equal(r.fallback, "ask");
  assert.equal(r.ask_user_question.length, 1);
  assert.deepEqual(r.markdown_followup.field_ids, ["outcome", "done_when"]);
  assert.match(r.hint, /faster than anyone reads a form/);
  assert.match(r.hint, /elicitation_collect_response/);
  await c.close();
});

for (const [name, version, fallback, key] of [["claude-code", "2.1.332", "ask", "ask_user_question"], ["codex-mcp-client", "0.171.0", "codex", "request_user_input"]]) {
  test(`${name} ${version} gets the ${fallback} fallback without a dialog`, async () => {
    const c = await connectStdio(hostClient(name, version, "decline"));
    const [r] = await call(c, "elicitation_ask", contract);
    assert.equal(c.elicitations.length, 0, "no dialog is sent to a host that dismisses it unseen");
    assert.equal(r.action, "unsupported");
    assert.equal(r.host, `${name} ${version}`);
    assert.equal(r.fallback, fallback);
    assert.ok(r[key].length > 0);
    assert.match(r.hint, /without showing anything/);
    await c.close();
  });
}

test("collect merges AskUserQuestion's output with a markdown reply", async () => {
  const c = await connectStdio(newClient("mixed"));
  let [r] = await call(c, "elicitation_render_form", contract);
  const questions = r.ask_user_question[0].questions;
  assert.deepEqual(questions.map((q) => q.header), ["Mode", "Effort cap"]);
  const answers = { questions, answers: { [questions[0].question]: "Explore and learn", [questions[1].question]: "Half a day" } };
  const reply = "Outcome: a tagged release\ndone when:\n- make test passes\n- the tag is pushed\n";
  let isErr;
  [r, isErr] = await call(c, "elicitation_collect_response", { ...contract, answers, reply });
  assert.equal(isErr, false);
  assert.deepEqual(r.responses, { mode: "Explore and learn", effort_cap: "Half a day", outcome: "a tagged release", done_when: "- make test passes\n- the tag is pushed" });
  [r, isErr] = await call(c, "elicitation_collect_response", { ...contract, answers, reply: "outcome: x" });
  assert.equal(isErr, true);
  assert.deepEqual(r.reask.field_ids, ["done_when"]);
  await c.close();
});

test("render_form renders markdown and Codex questions", async () => {
  const c = await connectStdio(newClient("render"));
  let [r] = await call(c, "elicitation_render_form", { ...contract, surface: "markdown" });
  assert.match(r.markdown, /^\*\*Session contract: demo\*\*/);
  assert.deepEqual(r.field_ids, ["mode", "outcome", "done_when", "effort_cap"]);
  [r] = await call(c, "elicitation_render_form", { ...contract, surface: "codex" });
  for (const input of r.request_user_input) {
    assert.ok(input.questions.length >= 1 && input.questions.length <= 3);
    for (const q of input.questions) {
      assert.deepEqual(Object.keys(q).sort(), ["header", "id", "options", "question"]);
      assert.match(q.id, /^[a-z][a-z0-9_]*$/);
      assert.ok(q.header.length <= 12);
      assert.ok(q.options.length >= 2 && q.options.length <= 3);
    }
  }
  await c.close();
});

// The router over MCP knows the client from initialize: the widget only
// for one that advertised MCP Apps, else its own question tool.
test("the surface follows the client", async () => {
  const scope = form("scope");
  const apps = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };
  for (const [name, version, capabilities, want] of [
    ["claude-code", "2.1.332", {}, "ask"],
    ["codex-mcp-client", "0.171.0", {}, "codex"],
    ["some-client", "1.0.0", {}, "ask"],
    ["some-client", "1.0.0", apps, "widget"],
  ]) {
    const c = await connectStdio(new Client({ name, version }, { capabilities }));
    let [r] = await call(c, "elicitation_select_surface", { form: scope });
    assert.equal(r.surface, want, `${name} ${JSON.stringify(capabilities)}: ${r.reason}`);
    // render_form renders the client's question tool (surface: what its
    // payloads are for) and names the router's pick when it differs.
    [r] = await call(c, "elicitation_render_form", contract);
    assert.equal(r.suggested_surface ?? r.surface, want, `${name} render_form: ${r.surface_reason}`);
    assert.equal(r.surface, name === "codex-mcp-client" ? "codex" : "ask", `${name} render_form payloads`);
    await c.close();
  }
});

// reply takes text as the agent got it: the widget's chat message and the
// sentence Claude Code shows the model after AskUserQuestion.
test("collect takes the widget's message and AskUserQuestion's text as reply", async () => {
  const scope = form("scope");
  const c = await connectStdio(newClient("reply-as-given"));
  let [r] = await call(c, "elicitation_render_widget", { form: scope });
  const id = r.html.match(/data-form="([^"]+)"/)[1];
  const postback = JSON.stringify({ __elicitation_response__: true, form_id: id, title: "Scope this work", answers: { goal: "Refactor", focus: ["correctness", "tests"] } });
  for (const reply of [
    "I answered the form.\n\n```json\n" + postback + "\n```",
    postback,
    'Your questions have been answered: "What are you trying to accomplish?"="Refactor", "Which areas matter here?"="correctness, tests". You can now continue with these answers in mind.',
  ]) {
    const [r, isErr] = await call(c, "elicitation_collect_response", { form: scope, reply });
    assert.equal(isErr, false, JSON.stringify(r));
    assert.deepEqual(r.responses, { goal: "Refactor", focus: ["correctness", "tests"] });
  }
  await c.close();
});

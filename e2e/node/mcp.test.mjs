// The MCP server driven by the official TypeScript SDK over stdio and
// Streamable HTTP, and linted by the MCP Inspector CLI.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { bin, formsDir, newClient, connectStdio, startHTTP, connectHTTP, call, inspected } from "./lib.mjs";

const run = promisify(execFile);
const form = (name) => JSON.parse(readFileSync(path.join(formsDir, `${name}.json`), "utf8"));
const scope = form("scope");
const six = form("six");

const toolNames = [
  "deliberation_cancel", "deliberation_evaluate", "deliberation_list", "deliberation_recover", "deliberation_respond",
  "deliberation_send", "deliberation_start", "deliberation_status", "deliberation_synthesize", "deliberation_wait",
  "elicitation_ask", "elicitation_collect_response", "elicitation_cross_model", "elicitation_form_summary",
  "elicitation_inject_method", "elicitation_list_methods", "elicitation_list_templates", "elicitation_recall", "elicitation_render_form", "elicitation_render_widget",
  "elicitation_select_methods", "elicitation_select_surface", "elicitation_stats", "elicitation_widget_validate",
];

// suite runs the same checks over any connected client factory.
function suite(label, connect) {
  describe(label, () => {
    test("lists every tool with portable schemas", async () => {
      const c = await connect(newClient("list"));
      const { tools } = await c.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), toolNames);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, "object", t.name);
        assert.ok(!JSON.stringify(t.inputSchema).includes('"null"'), `${t.name} has a null union`);
        assert.ok(t.description.length > 40, `${t.name} needs a description`);
      }
      assert.equal(c.getServerVersion().name, "elicit");
      await c.close();
    });

    test("calls every tool", async () => {
      const c = await connect(newClient("tools"));
      let [r, isErr] = await call(c, "elicitation_render_form", { form: scope });
      assert.equal(isErr, false);
      assert.equal(r.success, true);
      assert.equal(r.ask_user_question[0].questions.length, 2);
      assert.equal(r.ask_user_question[0].metadata.source, "elicit-form");
      assert.equal(r.surface, "ask", "a client without MCP Apps cannot show the widget");

      [r, isErr] = await call(c, "elicitation_render_form", { form: { title: "T", fields: [] }, template: "x" });
      assert.equal(isErr, true);
      assert.equal(r.success, false);
      assert.match(r.problems[0], /exactly one of 'form'/);

      const toolOutput = { questions: [], answers: { "What are you trying to accomplish?": "Refactor (Recommended)", "Which areas matter here?": "tests, security" } };
      [r, isErr] = await call(c, "elicitation_collect_response", { form: scope, answers: toolOutput });
      assert.equal(isErr, false);
      assert.deepEqual(r.responses, { goal: "Refactor", focus: ["security", "tests"] });
      const response = r;

      [r, isErr] = await call(c, "elicitation_collect_response", { form: scope, answers: { goal: "Nope", extra: 1 } });
      assert.equal(isErr, true);
      assert.equal(r.problems.length, 3);

      [r, isErr] = await call(c, "elicitation_stats", {});
      assert.equal(isErr, false);
      assert.ok(r.submissions >= 1 && r.rejected >= 1 && r.rendered.ask >= 1, JSON.stringify(r));
      assert.ok(r.submissions_by_host.tools >= 1, "the client's name from initialize is the host");

      // The answer just collected is a decision: found by a word of its question.
      const word = scope.fields[0].text.split(/\W+/).filter((w) => w.length > 3)[0];
      [r, isErr] = await call(c, "elicitation_recall", { query: word });
      assert.equal(isErr, false);
      assert.ok(r.decisions.length >= 1 && r.decisions[0].said.startsWith("decided on "), JSON.stringify(r));

      [r] = await call(c, "elicitation_form_summary", { form: scope, response });
      assert.match(r.summary, /^\*\*Scope this work\*\* — answered \(resp-/);

      [r] = await call(c, "elicitation_select_surface", { form: scope, widget_capable: false });
      assert.deepEqual(r, { surface: "ask", reason: "the client cannot render widgets",
        how: "elicitation_render_form, then one AskUserQuestion call per ask_user_question entry" });

      [r] = await call(c, "elicitation_list_templates", {});
      assert.equal(r.templates[0].name, "session-contract");

      [r] = await call(c, "elicitation_list_methods", { phase: "forge:3" });
      assert.ok(r.methods.length > 0);

      [r] = await call(c, "elicitation_select_methods", { phase: "forge:3", title: "Architecture Design", text: "security threat model tradeoffs" });
      assert.equal(r.status, "OK");
      assert.ok(r.methods[0].score > 0);

      [r] = await call(c, "elicitation_inject_method", { method: r.methods[0].method_name });
      assert.match(r.block, /^### Structured Reasoning: /);
      await c.close();
    });

    for (const [action, content] of [["accept", { track: "nightly", platforms: ["linux"], budget: 3, ship_date: "2026-12-24", notify: true }], ["decline"], ["cancel"]]) {
      test(`elicitation_ask answered with ${action}`, async () => {
        const c = await connect(newClient(`ask-${action}`, () => (content ? { action, content } : { action })));
        const [r, isErr] = await call(c, "elicitation_ask", { form: six });
        assert.equal(isErr, false);
        assert.equal(r.action, action);
        assert.equal(r.success, action === "accept");
        assert.equal(c.elicitations.length, 1);
        const schema = c.elicitations[0].requestedSchema;
        assert.equal(schema.properties.ship_date.format, "date");
        assert.equal(schema.properties.budget.maximum, 40);
        if (action === "accept") assert.deepEqual(r.responses, { track: "nightly", platforms: ["linux"], budget: 3, ship_date: "2026-12-24", notify: "Yes" });
        await c.close();
      });
    }

    test("elicitation_ask re-validates accepted content", async () => {
      const c = await connect(newClient("ask-bad", () => ({ action: "accept", content: { track: "beta", platforms: ["linux", "linux"], budget: 3, ship_date: "2026-02-30" } })));
      const [r] = await call(c, "elicitation_ask", { form: six });
      assert.equal(r.success, false);
      assert.equal(r.action, "accept");
      assert.deepEqual(r.problems, ['answers.platforms: "linux" chosen more than once', 'answers.ship_date: "2026-02-30" is not a real calendar date']);
      await c.close();
    });

    test("elicitation_ask judges content outside the requested schema with collect", async () => {
      const c = await connect(newClient("ask-out-of-schema", () => ({ action: "accept", content: { track: "zzz", platforms: ["linux"], budget: 500, ship_date: "2026-12-01" } })));
      const [r, isErr] = await call(c, "elicitation_ask", { form: six });
      assert.equal(isErr, true, "answers with problems are an error result");
      assert.equal(r.success, false);
      assert.equal(r.action, "accept");
      assert.deepEqual(r.problems, ['answers.track: "zzz" is not one of the options ("stable", "beta", "nightly")', "answers.budget: 500 is above the maximum 40"]);
      assert.deepEqual(r.kept, { platforms: ["linux"], ship_date: "2026-12-01" });
      assert.deepEqual(r.reask.field_ids, ["track", "budget"]);
      const [done, doneErr] = await call(c, "elicitation_collect_response", { continue: r.collect_id, answers: { track: "beta", budget: 30 } });
      assert.equal(doneErr, false, JSON.stringify(done));
      assert.deepEqual(done.responses.platforms, ["linux"]);
      await c.close();
    });

    test("elicitation_ask without the capability falls back to AskUserQuestion", async () => {
      const c = await connect(newClient("no-elicitation"));
      const [r] = await call(c, "elicitation_ask", { form: scope });
      assert.equal(r.action, "unsupported");
      assert.equal(r.success, false);
      assert.equal(r.ask_user_question[0].questions[0].header, "Goal");
      await c.close();
    });
  });
}

suite("stdio", (c) => connectStdio(c));

test("stdio: a deliberation is started, listed and answered through the tools", async () => {
  const home = mkdtempSync(path.join(tmpdir(), "elicit-home-"));
  const c = await connectStdio(newClient("deliberation"), { ELICIT_HOME: home });
  let [r, isErr] = await call(c, "deliberation_start", { question: "Should the importer retry on HTTP 429?", facts: ["no new infrastructure"] });
  assert.equal(isErr, false);
  assert.match(r.prompt, /F1 \[user\]: no new infrastructure/);
  assert.ok(r.state_file.startsWith(home));
  const id = r.id;
  [r] = await call(c, "deliberation_respond", { id, response: "1. Honour Retry-After. EVIDENCE.\n2. Retry 5 times. GUESS." });
  assert.equal(r.awaiting, "evaluation");
  [r, isErr] = await call(c, "deliberation_evaluate", { id, evaluation: { iteration: 2 } });
  assert.equal(isErr, true);
  assert.ok(r.problems.some((p) => p.startsWith("iteration: ")));
  [r] = await call(c, "deliberation_list", {});
  assert.deepEqual(r.deliberations.map((d) => d.id), [id]);
  [r] = await call(c, "deliberation_status", { id });
  assert.equal(r.status, "active");
  await c.close();
});

describe("streamable HTTP", () => {
  let server;
  const connect = async (c) => {
    server ??= await startHTTP();
    return connectHTTP(c, server.url, server.token);
  };
  after(() => server?.stop());
  suite("one client at a time", connect);

  test("50 concurrent clients get their own answers", async () => {
    server ??= await startHTTP();
    const clients = await Promise.all(Array.from({ length: 50 }, (_, i) => connectHTTP(newClient(`c${i}`), server.url, server.token)));
    const goals = scope.fields[0].options;
    const results = await Promise.all(clients.map(async (c, i) => {
      const answers = { goal: goals[i % goals.length], focus: [scope.fields[1].options[i % 4]] };
      const [r, isErr] = await call(c, "elicitation_collect_response", { form: scope, answers, template_id: `client-${i}` });
      return { i, r, isErr, answers };
    }));
    for (const { i, r, isErr, answers } of results) {
      assert.equal(isErr, false, `client ${i}`);
      assert.deepEqual(r.responses, answers, `client ${i} got someone else's answer`);
      assert.equal(r.template_id, `client-${i}`);
    }
    await Promise.all(clients.map((c) => c.close()));
  });
});

describe("streamable HTTP with a token", () => {
  test("a non-loopback address needs a token", async () => {
    await assert.rejects(run(bin, ["serve", "--http", "0.0.0.0:0"]), (err) => err.code === 2 && /--token/.test(err.stderr));
  });
  test("every request must carry the bearer token", async () => {
    const server = await startHTTP(["--token", "s3cret"]);
    try {
      const res = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
      assert.equal(res.status, 401);
      await assert.rejects(connectHTTP(newClient("wrong"), server.url, "wrong"));
      const c = await connectHTTP(newClient("right"), server.url, "s3cret");
      const [r] = await call(c, "elicitation_list_templates", {});
      assert.equal(r.templates.length, 1);
      await c.close();
    } finally {
      await server.stop();
    }
  });
});

describe("streamable HTTP safety", () => {
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "fetch", version: "0" } } });
  const post = (url, headers = {}) => fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: initialize });

  test("a browser page of a foreign origin is refused; loopback and allowed origins are served", async () => {
    const server = await startHTTP(["--allow-origin", "https://app.example"]);
    try {
      const auth = { authorization: `Bearer ${server.token}` };
      assert.equal((await post(server.url, { origin: "http://evil.example", ...auth })).status, 403);
      assert.equal((await post(server.url, { origin: "http://localhost:6274", ...auth })).status, 200);
      assert.equal((await post(server.url, { origin: "https://app.example", ...auth })).status, 200);
      assert.equal((await post(server.url, auth)).status, 200);
      assert.equal((await post(server.url)).status, 401);
    } finally {
      await server.stop();
    }
  });

  test("--token-file: the SDK client with the token is served, without it refused", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "elicit-token-"));
    const file = path.join(dir, "token");
    writeFileSync(file, "s3cret\n", { mode: 0o600 });
    const server = await startHTTP(["--token-file", file]);
    try {
      assert.equal((await post(server.url)).status, 401);
      await assert.rejects(connectHTTP(newClient("no-token"), server.url));
      const c = await connectHTTP(newClient("token"), server.url, "s3cret");
      const [r, isErr] = await call(c, "elicitation_list_templates", {});
      assert.equal(isErr, false);
      assert.ok(r.templates.length >= 1);
      await c.close();
    } finally {
      await server.stop();
    }
  });
});

describe("MCP Inspector CLI", () => {
  const inspector = path.join(path.dirname(new URL(import.meta.url).pathname), "node_modules", ".bin", "mcp-inspector");
  const env = { ...process.env, HOME: mkdtempSync(path.join(tmpdir(), "inspector-home-")), npm_config_update_notifier: "false" };
  const inspect = (...args) => run(inspector, ["--cli", bin, "serve", ...args], { env, maxBuffer: 16 << 20 });

  test("tools/list passes --strict", async () => {
    const { stdout } = await inspect("--method", "tools/list", "--strict");
    assert.equal(JSON.parse(stdout).tools.length, toolNames.length);
  });
  test("tools/call renders a form", async () => {
    const { stdout } = await inspect("--method", "tools/call", "--tool-name", "elicitation_render_form", "--tool-args-json", JSON.stringify({ form: scope }));
    assert.equal(inspected(stdout).success, true);
  });
  test("elicitation_ask without elicitation returns the fallback", async () => {
    const { stdout } = await inspect("--method", "tools/call", "--tool-name", "elicitation_ask", "--tool-args-json", JSON.stringify({ template: "session-contract", slots: { project: "x" } }));
    assert.equal(inspected(stdout).action, "unsupported");
  });
});

// MCP Apps end to end: the real elicit server, driven by the official MCP
// client with the io.modelcontextprotocol/ui extension, and its app page in
// a test host page built on the official ext-apps host bridge, in Chromium.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import * as esbuild from "esbuild";
import { bin, launch, root, watch } from "./lib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const appMime = "text/html;profile=mcp-app";
let browser, client, plain, hostJS;

async function connect(capabilities) {
  const c = new Client({ name: "elicit-apps-test", version: "1.0.0" }, { capabilities });
  // The whole environment, ELICIT_HOME with it (lib.mjs gives one): the SDK passes only HOME, PATH and a few more by default.
  await c.connect(new StdioClientTransport({ command: bin, args: ["serve"], env: { ...process.env }, stderr: "pipe" }));
  return c;
}

before(async () => {
  browser = await launch();
  client = await connect({ extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [appMime] } } });
  plain = await connect({});
  const out = await esbuild.build({ entryPoints: [path.join(here, "host", "host.js")], bundle: true, format: "iife", write: false, logLevel: "error" });
  hostJS = out.outputFiles[0].text;
});
after(async () => {
  await client?.close();
  await plain?.close();
  await browser?.close();
});

const form = {
  title: "Scope this work",
  fields: [
    { id: "goal", text: "What are you trying to accomplish?", type: "single_select", options: ["Fix a bug", "Add a feature", "Refactor"] },
    { id: "focus", text: "Which areas matter here?", type: "multi_select", options: ["correctness", "security", "tests"] },
    { id: "hours", text: "How many hours?", type: "number", minimum: 1, maximum: 8 },
  ],
};

test("tools/list: every client gets one list, the form tools pointing at the app", async () => {
  const withApps = (await client.listTools()).tools;
  const without = (await plain.listTools()).tools;
  assert.deepEqual(without, withApps, "tools/list does not vary by client");
  for (const name of ["elicitation_render_form", "elicitation_render_widget"]) {
    const t = withApps.find((x) => x.name === name);
    assert.equal(t._meta?.ui?.resourceUri, "ui://elicit/form.html", name);
    assert.equal(t._meta.ui.visibility, undefined, "visible to the model and the app, the default");
  }
  const validate = withApps.find((x) => x.name === "elicitation_widget_validate");
  assert.deepEqual(validate._meta.ui.visibility, ["app"]);
  assert.equal(validate.annotations.readOnlyHint, true);
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "ui://elicit/form.html" && r.mimeType === appMime));
});

// runApp shows the app for one tool call in the test host and returns the
// page and the app's frame.
async function runApp(toolName, args) {
  const appHTML = (await client.readResource({ uri: "ui://elicit/form.html" })).contents[0].text;
  const result = await client.callTool({ name: toolName, arguments: args });
  const page = await browser.context.newPage();
  const seen = watch(page);
  await page.exposeFunction("callTool", async (params) => JSON.stringify(await client.callTool(JSON.parse(params))));
  await page.setContent(`<!doctype html><html lang="en"><meta charset="utf-8"><title>test host</title><body><script>${hostJS}</script></body></html>`);
  await page.evaluate(([html, a, r]) => window.startApp(html, a, r), [appHTML, args, result]);
  const frame = page.frameLocator("iframe");
  await frame.locator("form.el").waitFor();
  return { page, frame, seen };
}

test("an MCP Apps round trip from elicitation_render_form: problems beside the field, then the answer to the model", async () => {
  const { page, frame, seen } = await runApp("elicitation_render_form", { form });
  assert.equal(await page.evaluate(() => window.__host.initialized), true);
  await frame.getByLabel("What are you trying to accomplish?").selectOption("Refactor");
  await frame.getByRole("checkbox", { name: "tests" }).check();
  await frame.getByLabel(/How many hours/).fill("3");
  // The page no longer matches the form (as if edited): the server refuses
  // the answer, and only that field shows the problem.
  await frame.locator('option[value="Fix a bug"]').evaluate((o) => { o.value = "Rewrite it"; });
  await frame.getByLabel("What are you trying to accomplish?").selectOption("Rewrite it");
  await frame.getByRole("button", { name: "Submit" }).click();
  const goalErr = frame.locator('.f[data-id="goal"] .x');
  await goalErr.filter({ hasText: "not one of the options" }).waitFor();
  assert.equal(await goalErr.textContent(), '"Rewrite it" is not one of the options ("Fix a bug", "Add a feature", "Refactor")');
  assert.equal(await frame.locator('.f[data-id="focus"] .x').textContent(), "");
  assert.equal(await frame.locator('.f[data-id="hours"] .x').textContent(), "");
  assert.deepEqual(await page.evaluate(() => window.__host.modelContext), [], "nothing reaches the model before collect accepts");

  await frame.getByLabel("What are you trying to accomplish?").selectOption("Refactor");
  await frame.getByRole("button", { name: "Submit" }).click();
  await frame.getByText("Thank you: your answers were sent.").waitFor();
  const host = await page.evaluate(() => window.__host);
  assert.deepEqual(host.toolCalls, ["elicitation_render_widget", "elicitation_widget_validate", "elicitation_widget_validate"]);
  assert.equal(host.modelContext.length, 1);
  const ctx = host.modelContext[0].structuredContent;
  assert.equal(ctx.success, true);
  assert.deepEqual(ctx.responses, { goal: "Refactor", focus: ["tests"], hours: 3 });
  assert.deepEqual(JSON.parse(host.modelContext[0].content[0].text), ctx);
  assert.equal(host.messages.length, 1);
  const msg = host.messages[0];
  assert.equal(msg.role, "user");
  assert.match(msg.content[0].text, /^I answered the form "Scope this work" \(resp-[0-9-a-f]+\); the validated answers are in your context\.$/);
  assert.deepEqual(seen.errors, []);
  assert.deepEqual(seen.requests, [], "neither the host page nor the app makes a network request");
  await page.close();
});

test("an MCP Apps round trip from elicitation_render_widget, a template cast", async () => {
  const args = { template: "session-contract", slots: { project: "<img src=x onerror=alert(1)>" } };
  const { page, frame, seen } = await runApp("elicitation_render_widget", args);
  await frame.getByRole("heading", { name: "Session contract: <img src=x onerror=alert(1)>" }).waitFor();
  await frame.getByLabel(/What kind of session is this for/).selectOption("Fix what is broken");
  await frame.getByLabel(/What should exist when the session ends/).fill("A green build");
  await frame.getByLabel(/How will we both know it is done/).fill("make test passes");
  await frame.getByRole("button", { name: "Submit" }).click();
  await frame.getByText("Thank you: your answers were sent.").waitFor();
  const host = await page.evaluate(() => window.__host);
  assert.deepEqual(host.toolCalls, ["elicitation_widget_validate"], "the widget came in the tool result");
  assert.equal(host.modelContext[0].structuredContent.template_id, "session-contract");
  assert.deepEqual(seen.dialogs, []);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

// The widget in real headless Chromium: every type filled by a person's
// clicks and keys, posted back through sendPrompt and accepted by collect;
// collect's own messages on the page; a whole form by keyboard alone; XSS
// payloads in every text a form can carry; no network request at all.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { benchForm, collect, errorOf, launch, loadWidget, render, root, run, sent, tmpdir, watch, widgetForms } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const form = (name) => path.join(widgetForms, name + ".json");
const group = (page, name) => page.getByRole("group", { name });

// One case per field type: how a person fills the type's test form, and
// the responses collect must return for the postback.
const cases = {
  single_select: {
    fill: async (p) => {
      await p.getByLabel("Which release track?").selectOption("beta");
      await group(p, "Which region?").getByRole("radio", { name: "ap-south" }).check();
    },
    want: { track: "beta", region: "ap-south" },
  },
  multi_select: {
    fill: async (p) => {
      const g = group(p, "Which platforms ship?");
      await g.getByRole("checkbox", { name: "linux" }).check();
      await g.getByRole("checkbox", { name: "windows" }).check();
      await group(p, /Which checks run\?/).getByRole("checkbox", { name: "unit" }).uncheck();
    },
    want: { platforms: ["linux", "windows"], checks: ["lint"] },
  },
  boolean: {
    fill: async (p) => {
      await group(p, "Ship it today?").getByRole("radio", { name: "No" }).check();
      await group(p, /Announce it\?/).getByRole("radio", { name: "Yes" }).check();
    },
    want: { ship: "No", notify: "Yes" },
  },
  text_input: {
    fill: async (p) => {
      await p.getByLabel(/What codename should it have\?/).fill("bluebird");
      await p.getByLabel("Where should it focus?").fill("tests/");
    },
    want: { codename: "bluebird", scope: "tests/" },
  },
  number: {
    fill: async (p) => {
      await p.getByLabel(/How many hours\?/).fill("12");
      await p.getByLabel(/Which sampling ratio\?/).fill("0.5");
    },
    want: { hours: 12, ratio: 0.5, budget: 1500 },
  },
  date: {
    fill: async (p) => { await p.getByLabel("When should it ship?").fill("2026-05-04"); },
    want: { ship_date: "2026-05-04", freeze: "2026-03-01" },
  },
  textarea: {
    fill: async (p) => { await p.getByLabel(/Release notes\?/).fill("Line one\nline 2 — ünïcode"); },
    want: { notes: "Line one\nline 2 — ünïcode" },
  },
  decision: {
    fill: async (p) => { await p.getByRole("radio", { name: /Non-LLM backlog/ }).check(); },
    want: { approach: "Non-LLM backlog" },
  },
  pushback: {
    fill: async (p) => { await p.getByRole("radio", { name: /Fixed 3x retry/ }).check(); },
    want: { retries: "Fixed 3x retry" },
  },
  progress: {
    fill: async (p) => {
      await group(p, "Where execution stands").getByRole("radio", { name: /T6 consumer wiring/ }).check();
      await group(p, /Pull more on a topic\?/).getByRole("radio", { name: /Memory architecture/ }).check();
    },
    want: { exec: "T6 consumer wiring", digest: "Memory architecture" },
  },
  deliberation: {
    fill: async (p) => { await p.getByRole("radio", { name: /^SQLite/ }).check(); },
    want: { store: "SQLite" },
  },
  confirm: {
    fill: async (p) => { await p.getByRole("radio", { name: "Approve" }).check(); },
    want: { go: "Approve" },
  },
  triage: {
    fill: async (p) => {
      await group(p, /^Counter updated without a lock/).getByRole("radio", { name: "defer" }).check();
      await group(p, /^Unused import/).getByRole("radio", { name: "dismiss" }).check();
    },
    want: { findings: { sqli: "fix now", race: "defer", "Unused import": "dismiss" } },
  },
  ranking: {
    fill: async (p) => {
      const g = group(p, /Which roles should we hire first\?/);
      await g.getByLabel("Rank 1 of 2").selectOption("SRE");
      await g.getByLabel("Rank 2 of 2").selectOption("Backend");
    },
    want: { themes: ["Reliability", "Performance", "Onboarding"], hires: ["SRE", "Backend"] },
  },
  assumption_review: {
    fill: async (p) => {
      const db = group(p, /^PostgreSQL is the only database/);
      await db.getByRole("radio", { name: "Edit" }).check();
      await db.getByLabel(/^Corrected:/).fill("PostgreSQL and Redis");
      await group(p, /^Deploys go through the CI pipeline/).getByRole("radio", { name: "Reject" }).check();
    },
    want: { assumed: { go: "accept", db: { edit: "PostgreSQL and Redis" }, ci: "reject" } },
  },
};

// postback submits the widget and returns the one message it sent.
async function postback(page) {
  await page.getByRole("button", { name: /Submit|Confirm/ }).click();
  const msgs = await sent(page);
  assert.equal(msgs.length, 1, "the widget sends one message");
  assert.match(msgs[0], /^Elicitation form submitted — parse and validate this response:\n```json\n\{"__elicitation_response__":true,"form_id":"[0-9a-f]{16}",/);
  return msgs[0];
}

describe("every type", () => {
  test("has a case", () => {
    const types = JSON.parse(fs.readFileSync(path.join(root, "form", "testdata", "golden", "form.schema.json"), "utf8"))
      .$defs?.field?.properties?.type?.enum;
    assert.ok(Array.isArray(types) && types.length >= 10, "the schema lists the types");
    for (const t of types) assert.ok(cases[t], `no browser case for type ${t}`);
  });
  for (const [type, c] of Object.entries(cases)) {
    test(`${type}: filled, posted back, collected`, async () => {
      const page = await browser.context.newPage();
      const seen = watch(page);
      await loadWidget(page, await render(form(type)));
      await c.fill(page);
      const msg = await postback(page);
      const r = await collect(form(type), msg);
      assert.equal(r.code, 0, JSON.stringify(r.out));
      assert.deepEqual(r.out.responses, c.want);
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(seen.dialogs, []);
      assert.deepEqual(seen.requests, [], "the widget makes no network request");
      await page.close();
    });
  }
});

describe("collect's messages on the page", () => {
  // For each form, submitting it empty shows, beside every field collect
  // refuses empty, what to do in the person's words (never collect's
  // notation for the agent), and sends nothing.
  for (const type of Object.keys(cases)) {
    test(`${type}: required fields left empty`, async () => {
      const page = await browser.context.newPage();
      const seen = watch(page);
      await loadWidget(page, await render(form(type)));
      // Fields the page shows answered (a suggestion preselected) are not
      // empty; the partial-answer test covers them.
      const answered = await page.evaluate(() => [...document.querySelectorAll(".f[data-id]")]
        .filter((d) => d.querySelector(":checked:not(option), option:checked:not([value=''])")).map((d) => d.dataset.id));
      const r = await collect(form(type), "{}");
      const required = (r.out.problems || []).map((p) => p.match(/^answers\.([^:]+): (.*)$/)).filter((m) => m && !answered.includes(m[1]));
      if (required.length === 0) return page.close(); // every field optional, defaulted or suggested
      await page.getByRole("button", { name: /Submit|Confirm/ }).click();
      for (const [, id, msg] of required) {
        const shown = await errorOf(page, id);
        assert.match(msg, /^required, but not answered/, `collect's problem for ${id}`);
        assert.equal(shown, await page.locator(`.f[data-id="${id}"]`).getAttribute("data-r"), `field ${id}`);
        assert.match(shown, /^(Choose|Enter|Pick|Write|Give) [^{}]+\.$/, `field ${id} in a person's words`);
      }
      assert.deepEqual(await sent(page), [], "nothing is sent while a field fails");
      assert.equal(await page.locator(".st").textContent(), "Fix the marked answers.");
      const focused = await page.evaluate(() => document.activeElement.closest(".f")?.dataset.id);
      assert.equal(focused, required[0][1], "the focus moves to the first failing field");
      const invalid = await page.locator(`.f[data-id="${required[0][1]}"] [aria-invalid=true]`).count();
      assert.ok(invalid > 0, "the failing control is marked aria-invalid");
      assert.deepEqual(seen.errors, []);
      await page.close();
    });
  }

  test("range, length and every message match collect's, in the person's words", async () => {
    const page = await browser.context.newPage();
    await loadWidget(page, await render(form("number")));
    const checks = [["hours", /How many hours/, "50", 50], ["hours", /How many hours/, "0.5", 0.5], ["budget", /Budget in euros/, "3000000", 3e6],
      ["ratio", /sampling ratio/, "0.0000001", 1e-7]];
    for (const [id, label, typed, value] of checks) {
      await page.getByLabel(label).fill(typed);
      await page.getByRole("button", { name: "Submit" }).click();
      const r = await collect(form("number"), JSON.stringify({ hours: 5, [id]: value }));
      const want = r.out.problems.find((p) => p.startsWith(`answers.${id}: `)).slice(`answers.${id}: `.length);
      assert.equal(await errorOf(page, id), want, `${id} = ${typed}`);
      await page.getByLabel(label).fill(id === "hours" ? "5" : "");
    }
    await loadWidget(page, await render(form("textarea")));
    const long = "😀".repeat(41); // 41 characters, 82 UTF-16 units
    await page.getByLabel(/Release notes/).fill(long);
    await page.getByRole("button", { name: "Submit" }).click();
    const r = await collect(form("textarea"), JSON.stringify({ notes: long }));
    assert.equal(await errorOf(page, "notes"), r.out.problems[0].replace("answers.notes: ", "").replace("over max_length", "over the limit of"));
    await page.getByLabel(/Release notes/).fill("😀".repeat(40)); // 40 characters pass
    await page.getByRole("button", { name: "Submit" }).click();
    assert.equal((await sent(page)).length, 1);
    await page.close();
  });
});

test("a number with more digits than it keeps gets collect's message, a half-typed date a person's", async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  await loadWidget(page, await render(form("number")));
  for (const typed of ["123456789012345678901234567890", "9007199254740993", "0.1000000000000000000001"]) {
    await page.getByLabel(/How many hours\?/).fill("5");
    await page.getByLabel(/Which sampling ratio\?/).fill(typed);
    await page.getByRole("button", { name: "Submit" }).click();
    const r = await collect(form("number"), `{"hours": 5, "ratio": ${typed}}`);
    assert.equal(r.code, 1);
    const want = r.out.problems.find((p) => p.startsWith("answers.ratio: ")).slice("answers.ratio: ".length);
    assert.match(want, /has more digits than a number keeps exactly/);
    assert.equal(await errorOf(page, "ratio"), want, typed);
    assert.deepEqual(await sent(page), [], "nothing is sent");
  }
  await page.getByLabel(/Which sampling ratio\?/).fill("0.50"); // kept exactly
  await page.getByRole("button", { name: "Submit" }).click();
  assert.equal(await errorOf(page, "ratio"), "");
  const r = await collect(form("number"), (await sent(page))[0]);
  assert.equal(r.out.responses.ratio, 0.5);
  await loadWidget(page, await render(form("date")));
  await page.getByLabel("When should it ship?").click();
  await page.keyboard.type("0504"); // month and day, no year
  await page.getByRole("button", { name: "Submit" }).click();
  assert.equal(await errorOf(page, "ship_date"), "enter a complete date");
  assert.deepEqual(await sent(page), []);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test("rows and ranks: partial answers get collect's messages, rows named by their labels", async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  const check = async (type, fill, answers, id, reword = (m) => m) => {
    await loadWidget(page, await render(form(type)));
    await fill(page);
    await page.getByRole("button", { name: "Submit" }).click();
    const r = await collect(form(type), JSON.stringify(answers));
    const want = r.out.problems.filter((p) => p.startsWith(`answers.${id}`))
      .map((p) => p.slice(`answers.${id}`.length)).map((p) => p.startsWith(": ") ? p.slice(2) : p).map(reword).join("; ");
    assert.equal(await errorOf(page, id), want, type);
    assert.deepEqual(await sent(page), []);
  };
  // collect names the row by its key for the agent; the person sees its label.
  await check("triage", (p) => group(p, /^Counter updated/).getByRole("radio", { name: "defer" }).check(),
    { findings: { sqli: "fix now", race: "defer" } }, "findings",
    (m) => m.replace('no ruling for "Unused import" (every row needs one)', "Give a ruling for \u201cUnused import\u201d."));
  // A blank edit gets a person's message, not collect's JSON wording.
  await loadWidget(page, await render(form("assumption_review")));
  await group(page, /^PostgreSQL/).getByRole("radio", { name: "Edit" }).check();
  await group(page, /^Deploys go through the CI pipeline/).getByRole("radio", { name: "Reject" }).check();
  await page.getByRole("button", { name: "Submit" }).click();
  assert.equal(await errorOf(page, "assumed"), "type the corrected assumption for \u201cPostgreSQL is the only database\u201d, or pick Accept or Reject");
  assert.deepEqual(await sent(page), []);
  await check("ranking", async (p) => {
    await p.getByLabel("Rank 2 of 3").selectOption("Reliability");
    await p.getByLabel("Rank 3 of 3").selectOption("");
  }, { themes: ["Reliability", "Reliability"] }, "themes");
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test("a text box's suggestions are in view as buttons that fill it, by mouse or keyboard", async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  await loadWidget(page, await render(form("text_input")));
  const box = page.getByLabel("Where should it focus?");
  const suggestions = page.getByRole("group", { name: "Suggestions" });
  assert.deepEqual(await suggestions.getByRole("button").allTextContents(), ["src/", "tests/", "whole project"]);
  assert.ok(await suggestions.getByRole("button", { name: "whole project" }).isVisible(), "seen without focusing the box");
  await suggestions.getByRole("button", { name: "tests/" }).click();
  assert.equal(await box.inputValue(), "tests/");
  assert.equal(await page.evaluate(() => document.activeElement.id), await box.getAttribute("id"), "the focus goes back to the box");
  await box.press("Tab"); // the first suggestion
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab"); // whole project
  await page.keyboard.press("Enter");
  assert.equal(await box.inputValue(), "whole project");
  await page.getByLabel(/What codename should it have\?/).fill("bluebird");
  const r = await collect(form("text_input"), (await postback(page)));
  assert.deepEqual(r.out.responses, { codename: "bluebird", scope: "whole project" });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test("a whole form completed with the keyboard alone", async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  await loadWidget(page, await render(benchForm));
  const k = page.keyboard;
  await k.press("Tab"); // the release track dropdown
  await k.press("ArrowDown");
  await k.press("ArrowDown"); // stable, then beta
  await k.press("Tab"); // linux
  await k.press("Space");
  await k.press("Tab"); // macos
  await k.press("Tab"); // windows
  await k.press("Space");
  await k.press("Tab"); // the Announce it? group
  await k.press("ArrowDown"); // No, checked
  await k.press("Tab"); // hours
  await k.type("12");
  await k.press("Tab"); // the ship date: month, day, year
  await k.type("05042026");
  // Chromium's date input may keep the focus for its picker button: Tab
  // until the notes, as a person would.
  for (let i = 0; i < 3 && await page.evaluate(() => document.activeElement.tagName) !== "TEXTAREA"; i++) await k.press("Tab");
  await k.type("Typed, not clicked.");
  await k.press("Tab"); // Submit
  const focused = await page.evaluate(() => document.activeElement.outerHTML);
  assert.match(focused, /^<button type=("submit"|submit)>Submit<\/button>$/, "Tab order reaches Submit last");
  await k.press("Enter");
  const msgs = await sent(page);
  assert.equal(msgs.length, 1, "Enter on Submit sends the form");
  const r = await collect(benchForm, msgs[0]);
  assert.equal(r.code, 0, JSON.stringify(r.out));
  assert.deepEqual(r.out.responses, { track: "beta", platforms: ["linux", "windows"], notify: "No", budget: 12, ship_date: "2026-05-04", notes: "Typed, not clicked." });
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test("every control has an accessible name", async () => {
  const page = await browser.context.newPage();
  for (const name of [...Object.keys(cases), "guessed", "xss"]) {
    await loadWidget(page, await render(form(name)));
    const unnamed = await page.evaluate(() => [...document.querySelectorAll("form.el input, form.el select, form.el textarea, form.el button")]
      .filter((e) => !(e.labels?.length || e.getAttribute("aria-label") || (e.tagName === "BUTTON" && e.textContent.trim())))
      .map((e) => e.outerHTML));
    assert.deepEqual(unnamed, [], `${name}: controls without a label`);
    const groups = await page.evaluate(() => [...document.querySelectorAll("form.el fieldset")].filter((f) => !f.querySelector(":scope > legend")).length);
    assert.equal(groups, 0, `${name}: a group without a legend`);
  }
  await page.close();
});

test("guessed defaults are shown and confirmed with one tap", async () => {
  const page = await browser.context.newPage();
  await loadWidget(page, await render(form("guessed")));
  await page.getByText("Guessed from you mentioned a failing test.").waitFor();
  assert.equal(await page.getByLabel("What are you trying to accomplish?").inputValue(), "Fix a bug");
  await page.getByRole("button", { name: "Confirm" }).click();
  const r = await collect(form("guessed"), (await sent(page))[0]);
  assert.deepEqual(r.out.responses, { goal: "Fix a bug", tests: "Yes" });
  await page.close();
});

test("without sendPrompt the person gets the message to paste into the chat", async () => {
  const page = await browser.context.newPage();
  const seen = watch(page);
  await page.setContent(`<!doctype html><html lang="en"><meta charset="utf-8"><title>bare</title><body>${await render(form("decision"))}</body></html>`);
  await page.getByRole("radio", { name: /Non-LLM backlog/ }).check();
  await page.getByRole("button", { name: "Submit" }).click();
  assert.equal(await page.locator(".st").evaluate((e) => e.firstChild.textContent), "Paste this into the chat:");
  const box = page.getByRole("textbox", { name: "Your answers" });
  const msg = await box.inputValue();
  assert.match(msg, /^Elicitation form submitted — parse and validate this response:\n```json\n/);
  assert.equal(await box.evaluate((e) => e.readOnly && document.activeElement === e && e.selectionEnd - e.selectionStart), msg.length, "selected, ready to copy");
  const r = await collect(form("decision"), msg);
  assert.equal(r.code, 0, JSON.stringify(r.out));
  assert.deepEqual(r.out.responses, { approach: "Non-LLM backlog" });
  assert.doesNotMatch(await page.locator("form.el").innerText(), /AskUserQuestion|sendPrompt/);
  assert.deepEqual(seen.errors, []);
  await page.close();
});

test("a postback is refused for another form", async () => {
  const page = await browser.context.newPage();
  await loadWidget(page, await render(form("decision")));
  await page.getByRole("radio", { name: /Non-LLM backlog/ }).check();
  const msg = await postback(page);
  const r = await collect(form("pushback"), msg);
  assert.equal(r.code, 1);
  assert.match(r.out.problems.join("\n"), /^form_id: "[0-9a-f]{16}" is another form's id/m);
  await page.close();
});

// A path field (attune-forms' path_kind and path_options): a text box with
// a picker over the suggested paths beside it, which fills the box and
// narrows as the person types; collect's kind check on the page.
describe("a path field", () => {
  const pathForm = form("path");
  const options = (p, id) => p.locator(`.f[data-id="${id}"] .po:visible`);

  test("picked from the suggestions, narrowed by typing, posted back with its form_id", async () => {
    const page = await browser.context.newPage();
    const seen = watch(page);
    await loadWidget(page, await render(pathForm));
    const box = page.getByLabel(/Which file should the audit start from\?/);
    assert.equal(await options(page, "target").count(), 4, "every suggestion is shown at once");
    await box.fill("CONFIG");
    assert.deepEqual(await options(page, "target").allTextContents(), ["src/app/config.go"], "typing narrows, whatever the case");
    await options(page, "target").first().click();
    assert.equal(await box.inputValue(), "src/app/config.go");
    assert.equal(await page.locator('.f[data-id="target"] .po[aria-pressed=true]').textContent(), "src/app/config.go");
    assert.equal(await options(page, "target").count(), 4, "after a pick every suggestion is back");
    // A typed path that is no suggestion is an answer too.
    await page.getByLabel(/Anything else to include\?/).fill(" /srv/shared/ ");
    const r = await collect(pathForm, await postback(page));
    assert.equal(r.code, 0, JSON.stringify(r.out));
    assert.deepEqual(r.out.responses, { target: "src/app/config.go", out: "reports/", extra: "/srv/shared/" });
    assert.equal(r.out.form_id, "audit-scope");
    assert.equal(await page.evaluate(() => window.__xss), undefined, "a suggested path is shown, never run");
    assert.ok((await page.evaluate(() => document.body.innerText)).includes('docs/<img src=x onerror="window.__xss=6">.md'));
    assert.deepEqual(seen.errors, []);
    assert.deepEqual(seen.requests, []);
    await page.close();
  });

  test("a directory for a file gets collect's message", async () => {
    const page = await browser.context.newPage();
    await loadWidget(page, await render(pathForm));
    await page.getByLabel(/Which file should the audit start from\?/).fill("src/app/");
    await page.getByRole("button", { name: "Submit" }).click();
    const r = await collect(pathForm, JSON.stringify({ target: "src/app/" }));
    const want = r.out.problems.find((p) => p.startsWith("answers.target: ")).slice("answers.target: ".length);
    assert.equal(await errorOf(page, "target"), want);
    assert.deepEqual(await sent(page), [], "nothing is sent while a field fails");
    await page.close();
  });

  test("picked with the keyboard alone", async () => {
    const page = await browser.context.newPage();
    await loadWidget(page, await render(pathForm));
    await page.getByLabel(/Which file should the audit start from\?/).focus();
    await page.keyboard.press("Tab"); // the first suggestion
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    assert.equal(await page.getByLabel(/Which file should the audit start from\?/).inputValue(), "src/app/config.go");
    const focused = await page.evaluate(() => document.activeElement.id);
    assert.equal(focused, await page.getByLabel(/Which file should the audit start from\?/).getAttribute("id"), "the focus returns to the box");
    await page.close();
  });
});

describe("XSS", () => {
  const payloads = ["<script>window.__xss=1</script>", '<img src=x onerror="window.__xss=2">', "javascript:window.__xss=3",
    "</script><script>window.__xss=4</script>", `"'><svg onload=window.__xss=5>`];

  async function check(page, seen, texts) {
    assert.equal(await page.evaluate(() => window.__xss), undefined, "no payload ran");
    assert.deepEqual(seen.dialogs, []);
    assert.deepEqual(seen.requests, [], "no payload loaded anything");
    const shown = await page.evaluate(() => document.body.innerText);
    for (const t of texts) assert.ok(shown.includes(t), `shown literally: ${t}`);
  }

  test("in every text of a form", async () => {
    const file = form("xss");
    const def = JSON.parse(fs.readFileSync(file, "utf8"));
    const texts = [def.title, def.description];
    for (const f of def.fields) {
      texts.push(f.text);
      for (const k of ["help_text", "rationale"]) if (f[k]) texts.push(f[k]);
      if (f.type !== "text_input") for (const o of f.options || []) texts.push(o);
      for (const n of Object.values(f.option_notes || {})) texts.push(n);
      for (const it of f.progress_items || []) texts.push(it.label, it.detail);
    }
    assert.ok(payloads.every((p) => texts.some((t) => t.includes(p))), "every payload is used");
    const page = await browser.context.newPage();
    const seen = watch(page);
    await loadWidget(page, await render(file));
    await check(page, seen, texts);
    // The payloads go back as plain answers, and collect takes them.
    await page.getByRole("checkbox", { name: def.fields[1].options[1] }).check();
    await page.getByRole("radio", { name: new RegExp("^" + def.fields[4].options[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).check();
    await page.getByRole("radio", { name: new RegExp("^" + def.fields[5].options[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).check();
    await page.getByRole("radio", { name: new RegExp("^" + def.fields[6].options[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) }).check();
    const r = await collect(file, await postback(page));
    assert.equal(r.code, 0, JSON.stringify(r.out));
    assert.deepEqual(r.out.responses.multi, [def.fields[1].options[1]]);
    assert.equal(r.out.responses.txt, def.fields[2].default);
    assert.equal(r.out.responses.sel, def.fields[0].default);
    await check(page, seen, texts);
    await page.close();
  });

  test("in template slot values", async () => {
    const dir = tmpdir("elicit-templates-");
    fs.writeFileSync(path.join(dir, "probe.json"), JSON.stringify({
      title: "{t}", description: "{d}", slots: ["t", "d", "o", "h"],
      fields: [{ id: "a", text: "Pick {o}?", type: "single_select", options: ["{o}", "other"], help_text: "{h}" }],
    }));
    const slots = { t: payloads[0], d: payloads[1], o: payloads[4], h: payloads[3] };
    const args = ["--templates", dir, "form", "render", "--template", "probe", "--surface", "widget", "--html"];
    for (const [k, v] of Object.entries(slots)) args.push("--slot", `${k}=${v}`);
    const r = await run(args);
    assert.equal(r.code, 0, r.stderr);
    const page = await browser.context.newPage();
    const seen = watch(page);
    await loadWidget(page, r.stdout);
    await check(page, seen, Object.values(slots));
    await page.close();
  });
});

// The README's screenshots: the same run, light and dark. `make
// screenshots` sets SCREENSHOT_DIR=docs; otherwise they go to a temporary
// folder, so the step is always exercised.
test("screenshots, light and dark", async () => {
  const dir = process.env.SCREENSHOT_DIR || tmpdir("elicit-shots-");
  const html = await render(path.join(root, "docs", "widget-example.json"));
  for (const scheme of ["light", "dark"]) {
    const page = await browser.context.newPage();
    await page.emulateMedia({ colorScheme: scheme });
    await loadWidget(page, html);
    await page.evaluate((s) => { document.body.style.background = s === "dark" ? "#010409" : "#f6f8fa"; }, scheme);
    const box = await page.locator("form.el").boundingBox();
    const file = path.join(dir, `widget-${scheme}.png`);
    await page.screenshot({ path: file, clip: { x: 0, y: 0, width: Math.ceil(box.x + box.width + 16), height: Math.ceil(box.y + box.height + 16) } });
    assert.ok(fs.statSync(file).size > 10000, "a real picture");
    const bg = await page.locator("form.el").evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.equal(bg, scheme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)", `the ${scheme} colours`);
    await page.close();
  }
});

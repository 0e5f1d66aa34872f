// `elicit form open` end to end in Chromium: the one-time address leading to
// the page (the token never printed), the 403s, a submission the server
// refuses shown beside its field, a corrected one ending the command with
// collect's JSON, and Cancel ending it with exit 3.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { benchForm, launch, startOpen, watch, widgetForms } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("form open: a one-time address, 403 without the token, problems beside the field, the answer on stdout", async () => {
  const open = startOpen([benchForm, "--timeout", "2m"]);
  const printed = await open.url;
  assert.match(printed, /^http:\/\/127\.0\.0\.1:\d+\/open\/[A-Za-z0-9_-]{43}$/);
  const page = await browser.context.newPage();
  const seen = watch(page);

  // The printed address leads to the page, whose address carries the
  // token; a second use of it is refused.
  const first = await page.goto(printed);
  assert.equal(first.status(), 200);
  const url = page.url();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/$/);
  assert.ok(!printed.includes(new URL(url).pathname.slice(1, -1)), "the printed address does not carry the token");
  const again = await page.goto(printed);
  assert.equal(again.status(), 403, "a one-time address works once");
  assert.match(await page.textContent("body"), /already used/);

  const wrong = await page.goto(url.replace(/\/[A-Za-z0-9_-]{43}\/$/, "/0123456789abcdefghijklmnopqrstuvwxyzABCDEFG/"));
  assert.equal(wrong.status(), 403, "a wrong token is refused");
  const none = await page.goto(new URL(url).origin + "/");
  assert.equal(none.status(), 403, "no token is refused");
  seen.requests.length = 0;

  const resp = await page.goto(url);
  assert.equal(resp.status(), 200, "the page reloads");
  await page.getByLabel("Which release track?").selectOption("beta");
  await page.getByRole("checkbox", { name: "linux" }).check();
  await page.getByLabel(/How many hours/).fill("12");
  await page.getByLabel("When should it ship?").fill("2026-05-04");
  // The page on the screen no longer matches the form elicit holds (as if
  // it were edited): the server's collect refuses the answer and the page
  // shows why beside the field.
  await page.locator('select option[value="nightly"]').evaluate((o) => { o.value = "alpha"; });
  await page.getByLabel("Which release track?").selectOption("alpha");
  await page.getByRole("button", { name: "Submit" }).click();
  const err = page.locator('.f[data-id="track"] .x');
  await err.filter({ hasText: "not one of the options" }).waitFor();
  assert.equal(await err.textContent(), '"alpha" is not one of the options ("stable", "beta", "nightly")');
  assert.equal(await page.locator('.f[data-id="budget"] .x').textContent(), "", "only the failing field shows a problem");
  // The person fixes it and submits again.
  await page.getByLabel("Which release track?").selectOption("beta");
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("heading", { name: "Thank you" }).waitFor();

  const r = await open.exited;
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.success, true);
  assert.deepEqual(out.responses, { track: "beta", platforms: ["linux"], budget: 12, ship_date: "2026-05-04" });
  assert.match(out.response_id, /^resp-\d{8}-\d{6}-[0-9a-f]{8}$/);
  assert.equal(r.stderr, `open ${printed}\n`);

  const page1 = new URL(url);
  const own = seen.requests.filter((q) => q.startsWith(`GET ${url}`) || q === `POST ${page1.href}submit`);
  assert.deepEqual(seen.requests, own, "the page requests nothing but itself and its own postback");
  assert.equal(seen.requests.filter((q) => q.startsWith("POST")).length, 2);
  assert.deepEqual(seen.errors.filter((e) => !/status of 4\d\d/.test(e)), []);
  await page.close();
});

test("form open: Cancel prints the cancel answer and exits 3", async () => {
  const open = startOpen([path.join(widgetForms, "decision.json")]);
  const page = await browser.context.newPage();
  await page.goto(await open.url);
  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("heading", { name: "Cancelled" }).waitFor();
  const r = await open.exited;
  assert.equal(r.code, 3);
  assert.deepEqual(JSON.parse(r.stdout), { success: false, action: "cancel" });
  await page.close();
});

test("form open: the whole form by keyboard, XSS shown as text", async () => {
  const open = startOpen([path.join(widgetForms, "xss.json")]);
  const page = await browser.context.newPage();
  const seen = watch(page);
  await page.goto(await open.url);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.match(await page.title(), /^T <script>window\.__xss=1<\/script>$/);
  // Tab to the first multi-select box and tick it, then the decision and
  // the pushback and the progress picker by arrow keys, then Submit.
  const k = page.keyboard;
  const focus = async (sel) => { for (let i = 0; i < 30 && !(await page.evaluate((s) => document.activeElement.matches(s), sel)); i++) await k.press("Tab"); };
  await focus('input[type=checkbox]');
  await k.press("Space");
  for (const id of ["dec", "push", "prog"]) {
    await focus(`.f[data-id="${id}"] input`);
    await k.press("Space");
  }
  await focus("button[type=submit]");
  await k.press("Enter");
  await page.getByRole("heading", { name: "Thank you" }).waitFor();
  const r = await open.exited;
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out.responses).sort(), ["area", "dec", "multi", "prog", "push", "sel", "txt"]);
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(seen.dialogs, []);
  await page.close();
});

// elicit's MCP App (io.modelcontextprotocol/ui): it shows the widget of the
// form the tool was called with, validates answers with the app-only tool
// elicitation_widget_validate (collect, on the server), shows problems
// beside the failing fields, and hands the validated response to the model
// (ui/update-model-context) with a one-line ui/message. It talks only to
// the host, with postMessage JSON-RPC.
(function () {
  "use strict";
  var app = document.getElementById("app");
  var nextID = 0, pending = {}, args = null, shown = false;

  function send(msg) { window.parent.postMessage(msg, "*"); }
  function request(method, params) {
    return new Promise(function (resolve, reject) {
      var id = ++nextID;
      pending[id] = { resolve: resolve, reject: reject };
      send({ jsonrpc: "2.0", id: id, method: method, params: params });
    });
  }
  function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params }); }
  function status(text) {
    var p = document.createElement("p");
    p.className = "wait";
    p.setAttribute("role", "status");
    p.textContent = text;
    app.replaceChildren(p);
  }

  // formArgs keeps the arguments that name the form: form, or template
  // and slots.
  function formArgs() {
    var out = {};
    ["form", "template", "slots"].forEach(function (k) { if (args && args[k] !== undefined) out[k] = args[k]; });
    return out;
  }
  // structured reads a tool result's JSON: structuredContent, or its text.
  function structured(result) {
    if (result && result.structuredContent) return result.structuredContent;
    try { return JSON.parse(result.content[0].text); } catch (e) { return null; }
  }
  function callTool(name, extra) {
    return request("tools/call", { name: name, arguments: Object.assign(formArgs(), extra || {}) }).then(structured);
  }

  // show puts the widget's HTML on the page and runs its script (scripts
  // set through innerHTML do not run by themselves).
  function show(html) {
    shown = true;
    app.innerHTML = html;
    app.querySelectorAll("script").forEach(function (old) {
      var s = document.createElement("script");
      s.textContent = old.textContent;
      old.replaceWith(s);
    });
    var form = app.querySelector("form.el");
    form.addEventListener("elicit-submit", function (e) {
      e.preventDefault();
      form.querySelector(".st").textContent = "Checking…";
      callTool("elicitation_widget_validate", { answers: e.detail }).then(function (r) {
        if (!r || !r.success) {
          form.dispatchEvent(new CustomEvent("elicit-problems", { detail: (r && r.fields) || { "": "elicit could not check the answers." } }));
          return;
        }
        var text = JSON.stringify(r);
        return request("ui/update-model-context", { content: [{ type: "text", text: text }], structuredContent: r })
          .then(function () {
            return request("ui/message", { role: "user", content: [{ type: "text",
              text: "I answered the form \"" + form.dataset.title + "\" (" + r.response_id + "); the validated answers are in your context." }] });
          })
          .then(function () { status("Thank you: your answers were sent."); });
      }).catch(function (err) {
        form.querySelector(".st").textContent = "The host could not send the answers: " + ((err && err.message) || err);
      });
    });
  }

  // A tool result: the widget's own (elicitation_render_widget), or any
  // other form tool's, for which the app renders the form it was called
  // with.
  function onResult(result) {
    var r = structured(result);
    if (r && typeof r.html === "string") return show(r.html);
    if (!args) return status("No form to show.");
    callTool("elicitation_render_widget").then(function (w) {
      if (w && typeof w.html === "string") show(w.html);
      else status("The form could not be shown: " + ((w && w.problems) || []).join("; "));
    });
  }

  window.addEventListener("message", function (e) {
    if (e.source !== window.parent) return;
    var m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && !m.method) {
      var p = pending[m.id];
      if (!p) return;
      delete pending[m.id];
      if (m.error) p.reject(m.error); else p.resolve(m.result);
      return;
    }
    switch (m.method) {
      case "ui/notifications/tool-input":
        args = (m.params && m.params.arguments) || {};
        break;
      case "ui/notifications/tool-result":
        if (!shown) onResult(m.params);
        break;
      default:
        if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, result: {} }); // ping, teardown
    }
  });

  request("ui/initialize", { appInfo: { name: "elicit-form", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" })
    .then(function () {
      notify("ui/notifications/initialized", {});
      if (window.ResizeObserver) {
        new ResizeObserver(function () {
          notify("ui/notifications/size-changed", { height: Math.ceil(document.documentElement.scrollHeight) });
        }).observe(document.body);
      }
    });
})();

// The local page's script: it sends the widget's answers to elicit (the
// server that served the page) instead of a chat host, shows collect's
// problems beside the fields, and ends with a confirmation or "cancelled".
(function () {
  var form = document.querySelector("form.el");
  // post sends body to this page's own address plus what, and hands the
  // JSON answer to done.
  function post(what, body, done) {
    fetch(what, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "omit" })
      .then(function (r) { return r.json(); })
      .then(done)
      .catch(function () { say("elicit is no longer waiting for this form. You can close this tab."); });
  }
  // end replaces the form with a message.
  function end(title, text) {
    var box = document.createElement("div"), h = document.createElement("h2"), p = document.createElement("p");
    box.className = "el";
    box.setAttribute("role", "status");
    h.textContent = title;
    p.textContent = text;
    box.append(h, p);
    form.replaceWith(box);
  }
  function say(text) { form.querySelector(".st").textContent = text; }
  form.addEventListener("elicit-submit", function (e) {
    e.preventDefault();
    say("Sending…");
    post("submit", e.detail, function (r) {
      if (r.success) return end("Thank you", "Your answers were sent to elicit. You can close this tab.");
      if (r.fields) return form.dispatchEvent(new CustomEvent("elicit-problems", { detail: r.fields }));
      say((r.problems || []).join("; "));
    });
  });
  form.addEventListener("elicit-cancel", function () {
    post("cancel", {}, function (r) {
      if (r.problems) return say(r.problems.join("; "));
      end("Cancelled", "Nothing was sent. You can close this tab.");
    });
  });
})();

// pbem pages, progressively enhanced: everything works without this file.
// 1. The order form shows only the fields of the chosen action.
// 2. The live part of a game page sends its ETag (If-None-Match): the server answers 304 while
//    nothing changed, and htmx (configured in base.html) swaps nothing on a 304.
// 3. A click (or Enter) on a locale or piece of the board puts its id into the order field used last.
(function () {
  "use strict";
  var lastField = null;

  function showKind(form) {
    var select = form.querySelector("select[name=kind]");
    if (!select) { return; }
    form.querySelectorAll("fieldset.kind").forEach(function (fs) {
      fs.hidden = select.value !== "" && fs.dataset.kind !== select.value;
    });
  }

  function enhance(root) {
    root.querySelectorAll("#order-form").forEach(function (form) {
      showKind(form);
      form.addEventListener("change", function (e) {
        if (e.target.name === "kind") { showKind(form); }
      });
      form.addEventListener("focusin", function (e) {
        if (e.target.matches("input[type=text], textarea")) { lastField = e.target; }
      });
    });
    root.querySelectorAll("#board [data-locale], #board [data-piece]").forEach(function (el) {
      if (!el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "0"); }
    });
  }

  function pick(el) {
    var value = el.dataset.piece || el.dataset.locale;
    var field = lastField || document.querySelector("#order-text");
    if (!value || !field) { return; }
    field.value = field.value ? field.value + " " + value : value;
    field.focus();
  }

  document.addEventListener("click", function (e) {
    var el = e.target.closest && e.target.closest("#board [data-piece], #board [data-locale]");
    if (el) { pick(el); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") { return; }
    var el = e.target.closest && e.target.closest("#board [data-piece], #board [data-locale]");
    if (el) { e.preventDefault(); pick(el); }
  });
  document.addEventListener("htmx:configRequest", function (e) {
    var el = e.detail.elt;
    if (el && el.id === "live" && el.dataset.etag) {
      e.detail.headers["If-None-Match"] = el.dataset.etag;
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var el = e.detail.elt, xhr = e.detail.xhr;
    if (el && el.id === "live" && xhr) {
      var tag = xhr.getResponseHeader("ETag");
      if (tag) { el.dataset.etag = tag; }
    }
  });
  document.addEventListener("htmx:afterSwap", function (e) { enhance(e.detail.target || document); });
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
})();

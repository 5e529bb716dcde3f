// pbem pages, progressively enhanced: everything works without this file.
// 1. The order form shows only the fields of the chosen action.
// 2. The live part of a game page sends its ETag (If-None-Match): the server answers 304 while
//    nothing changed, and htmx (configured in base.html) swaps nothing on a 304.
// 3. A click (or Enter) on a locale or piece of the board puts its id into the order field used last.
// 4. A refresh of the live part (the polling, after the game changed) keeps what the player was
//    typing in the text box and the action chosen, while it is still offered; an order sent
//    replaces them with the server's answer.
// 5. The board zooms (buttons -, +, fit); the zoom survives the refreshes.
(function () {
  "use strict";
  var lastField = null;
  var draft = null;
  var zoom = 1;
  var ZOOMS = [1, 1.5, 2, 3, 4];

  function applyZoom(root) {
    root.querySelectorAll("#board svg").forEach(function (svg) {
      svg.style.width = (100 * zoom) + "%";
    });
    root.querySelectorAll("#board-zoom [data-zoom-level]").forEach(function (out) {
      out.textContent = Math.round(zoom * 100) + " %";
    });
  }

  function zoomBy(step) {
    var i = ZOOMS.indexOf(zoom) + step;
    zoom = step === 0 ? 1 : ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, i))];
    applyZoom(document);
  }

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
    root.querySelectorAll("#board-zoom").forEach(function (group) { group.hidden = false; });
    applyZoom(root);
  }

  function keepDraft() {
    var box = document.querySelector("#order-text");
    var kind = document.querySelector("#order-form select[name=kind]");
    if (!box || (!box.value && !(kind && kind.value))) { return null; }
    return {
      text: box.value,
      kind: kind ? kind.value : "",
      focused: document.activeElement === box,
      start: box.selectionStart,
      end: box.selectionEnd
    };
  }

  function restoreDraft(saved) {
    var box = document.querySelector("#order-text");
    if (box && saved.text && !box.value) {
      box.value = saved.text;
      if (saved.focused) { box.focus(); box.setSelectionRange(saved.start, saved.end); }
    }
    var kind = document.querySelector("#order-form select[name=kind]");
    if (kind && saved.kind && !kind.value &&
        kind.querySelector("option[value='" + CSS.escape(saved.kind) + "']")) {
      kind.value = saved.kind;
      showKind(kind.form);
    }
  }

  function pick(el) {
    var value = el.dataset.piece || el.dataset.locale;
    var field = lastField || document.querySelector("#order-text");
    if (!value || !field) { return; }
    field.value = field.value ? field.value + " " + value : value;
    field.focus();
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("#board-zoom button[data-zoom]");
    if (button) { zoomBy(Number(button.dataset.zoom)); return; }
    var el = e.target.closest && e.target.closest("#board [data-piece], #board [data-locale]");
    if (el) { pick(el); }
  });
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") { return; }
    var el = e.target.closest && e.target.closest("#board [data-piece], #board [data-locale]");
    if (el) { e.preventDefault(); pick(el); }
  });
  // The polling is a GET issued by #live itself; an order is a POST by its form. htmx names the
  // event's target in `detail.elt` (for a swap, #live either way), so tell them apart by the
  // request that was sent.
  function polled(config) {
    return !!config && !!config.elt && config.elt.id === "live" && config.verb === "get";
  }
  document.addEventListener("htmx:configRequest", function (e) {
    var el = e.detail.elt;
    if (polled(e.detail) && el.dataset.etag) {
      e.detail.headers["If-None-Match"] = el.dataset.etag;
    }
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var config = e.detail.requestConfig, xhr = e.detail.xhr;
    if (polled(config) && xhr) {
      var tag = xhr.getResponseHeader("ETag");
      if (tag) { config.elt.dataset.etag = tag; }
    }
  });
  document.addEventListener("htmx:beforeSwap", function (e) {
    draft = polled(e.detail.requestConfig) ? keepDraft() : null;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    enhance(e.detail.target || document);
    if (draft) { restoreDraft(draft); draft = null; }
  });
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
})();

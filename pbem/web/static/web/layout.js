// The layout editor (templates/web/layout_edit.html, pbem/web/layout_views.py).
// 1. Each locale's handle moves by dragging (pointer events) or, focused, by the arrow keys
//    (Shift: ten units); the approaches are drawn as lines between the handles while they move.
// 2. A photo from the owner's disk lies over the map (FileReader: it never leaves the browser),
//    with opacity, scale and shift controls.
// 3. "Check and download" posts the points as JSON; the answer's figures and problems are shown,
//    the map is redrawn with the recomputed cells and the layout file is downloaded.
(function () {
  "use strict";
  var dataNode = document.getElementById("layout-editor");
  var overlay = document.getElementById("layout-overlay");
  if (!dataNode || !overlay) { return; }
  var editor = JSON.parse(dataNode.textContent);
  var handles = {};
  var links = [];
  var status = document.getElementById("layout-status");
  var downloadUrl = null;

  overlay.querySelectorAll(".handle").forEach(function (el) {
    var p = { el: el, x: parseFloat(el.dataset.x), y: parseFloat(el.dataset.y) };
    p.x0 = p.x; p.y0 = p.y;
    p.label = el.getAttribute("aria-label") || "";
    handles[el.dataset.locale] = p;
  });

  function fmt(v) { return String(Math.round(v * 10) / 10); }
  function clamp(v, hi) { return Math.min(hi, Math.max(0, v)); }

  function drawLinks() {
    var group = document.getElementById("layout-links");
    var ns = "http://www.w3.org/2000/svg";
    editor.approaches.forEach(function (ab) {
      var line = document.createElementNS(ns, "line");
      line.setAttribute("class", "link");
      group.appendChild(line);
      links.push({ line: line, a: handles[String(ab[0])], b: handles[String(ab[1])] });
    });
    links.forEach(placeLink);
  }

  function placeLink(link) {
    if (!link.a || !link.b) { return; }
    link.line.setAttribute("x1", link.a.x); link.line.setAttribute("y1", link.a.y);
    link.line.setAttribute("x2", link.b.x); link.line.setAttribute("y2", link.b.y);
  }

  function place(p, x, y, announce) {
    p.x = Math.round(clamp(x, editor.width) * 10) / 10;
    p.y = Math.round(clamp(y, editor.height) * 10) / 10;
    p.el.setAttribute("transform", "translate(" + p.x + " " + p.y + ")");
    p.el.classList.toggle("moved", p.x !== p.x0 || p.y !== p.y0);
    var where = p.label.replace(/[-\d.]+, [-\d.]+$/, fmt(p.x) + ", " + fmt(p.y));
    p.el.setAttribute("aria-label", where);
    links.forEach(function (link) { if (link.a === p || link.b === p) { placeLink(link); } });
    if (announce && status) { status.textContent = where; }
  }

  function toMap(evt) {
    var m = overlay.getScreenCTM();
    if (!m) { return null; }
    var pt = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(m.inverse());
    return { x: pt.x, y: pt.y };
  }

  var dragging = null;
  overlay.addEventListener("pointerdown", function (evt) {
    var el = evt.target.closest(".handle");
    if (!el) { return; }
    var p = handles[el.dataset.locale];
    var at = toMap(evt);
    if (!p || !at) { return; }
    evt.preventDefault();
    el.focus();
    el.setPointerCapture(evt.pointerId);
    el.classList.add("dragging");
    dragging = { p: p, dx: p.x - at.x, dy: p.y - at.y, id: evt.pointerId };
  });
  overlay.addEventListener("pointermove", function (evt) {
    if (!dragging || evt.pointerId !== dragging.id) { return; }
    var at = toMap(evt);
    if (at) { place(dragging.p, at.x + dragging.dx, at.y + dragging.dy, false); }
  });
  function stop(evt) {
    if (!dragging || evt.pointerId !== dragging.id) { return; }
    dragging.p.el.classList.remove("dragging");
    place(dragging.p, dragging.p.x, dragging.p.y, true);
    dragging = null;
  }
  overlay.addEventListener("pointerup", stop);
  overlay.addEventListener("pointercancel", stop);

  var STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  overlay.addEventListener("keydown", function (evt) {
    var el = evt.target.closest && evt.target.closest(".handle");
    var step = STEPS[evt.key];
    if (!el || !step) { return; }
    var p = handles[el.dataset.locale];
    var k = evt.shiftKey ? 10 : 1;
    evt.preventDefault();
    place(p, p.x + step[0] * k, p.y + step[1] * k, true);
  });

  // -- the photo: read in the browser, never sent ---------------------------------------------
  var photo = document.getElementById("layout-photo");
  var photoFile = document.getElementById("layout-photo-file");
  var opacity = document.getElementById("layout-photo-opacity");
  var scale = document.getElementById("layout-photo-scale");
  var shiftX = document.getElementById("layout-photo-x");
  var shiftY = document.getElementById("layout-photo-y");

  function placePhoto() {
    var s = parseFloat(scale.value) || 1;
    photo.setAttribute("opacity", opacity.value);
    photo.setAttribute("width", editor.width * s);
    photo.setAttribute("height", editor.height * s);
    photo.setAttribute("x", parseFloat(shiftX.value) || 0);
    photo.setAttribute("y", parseFloat(shiftY.value) || 0);
  }
  photoFile.addEventListener("change", function () {
    var file = photoFile.files && photoFile.files[0];
    if (!file || !/^image\//.test(file.type)) { return; }
    var reader = new FileReader();
    reader.addEventListener("load", function () {
      photo.setAttribute("href", reader.result);
      photo.setAttribute("visibility", "visible");
      placePhoto();
    });
    reader.readAsDataURL(file);
  });
  [opacity, scale, shiftX, shiftY].forEach(function (input) {
    input.addEventListener("input", placePhoto);
  });
  document.getElementById("layout-photo-clear").addEventListener("click", function () {
    photo.removeAttribute("href");
    photo.setAttribute("visibility", "hidden");
    photoFile.value = "";
  });
  document.querySelectorAll("#layout-photo-form, #layout-form").forEach(function (form) {
    form.addEventListener("submit", function (evt) { evt.preventDefault(); });
  });

  // -- check and download -----------------------------------------------------------------------
  var result = document.getElementById("layout-result");
  var errorBox = document.getElementById("layout-error");
  var problemsList = document.getElementById("layout-problems");
  var okBox = document.getElementById("layout-ok");
  var download = document.getElementById("layout-download");
  var yamlBox = document.getElementById("layout-yaml");
  var checkButton = document.getElementById("layout-check");

  function showError(message) {
    result.hidden = false;
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  function show(answer) {
    result.hidden = false;
    errorBox.hidden = true;
    Object.keys(answer.figures).forEach(function (name) {
      var dd = result.querySelector('[data-figure="' + name + '"]');
      if (dd) { dd.textContent = String(answer.figures[name]); }
    });
    problemsList.textContent = "";
    answer.problems.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      problemsList.appendChild(li);
    });
    okBox.hidden = answer.problems.length > 0;
    yamlBox.textContent = answer.yaml;
    if (answer.svg) { document.getElementById("layout-map").innerHTML = answer.svg; }
    if (downloadUrl) { URL.revokeObjectURL(downloadUrl); }
    downloadUrl = URL.createObjectURL(new Blob([answer.yaml], { type: "application/x-yaml" }));
    download.href = downloadUrl;
    download.hidden = false;
    download.click();
  }

  checkButton.addEventListener("click", function () {
    var points = {};
    Object.keys(handles).forEach(function (lid) { points[lid] = [handles[lid].x, handles[lid].y]; });
    var token = document.querySelector("#layout-form [name=csrfmiddlewaretoken]").value;
    checkButton.disabled = true;
    fetch(editor.check_url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token },
      body: JSON.stringify({ points: points })
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) { show(body); } else { showError(body.error || response.statusText); }
      }, function () { showError(response.status + " " + response.statusText); });
    }, function (err) { showError(String(err)); }).then(function () {
      checkButton.disabled = false;
    });
  });

  document.getElementById("layout-reset").addEventListener("click", function () {
    Object.keys(handles).forEach(function (lid) {
      var p = handles[lid];
      place(p, p.x0, p.y0, false);
    });
  });

  drawLinks();
}());

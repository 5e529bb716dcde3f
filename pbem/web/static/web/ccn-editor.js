// The Commands & Colors scenario editor, progressively enhanced: every edit works without this
// file (each button posts the form). With it, a click on a hex of the board (or Enter/Space on a
// focused hex, or a click on a unit or leader) chooses that hex: its row and column go into the
// form, and the terrain, unit and leader fields are filled from what stands there now.
(function () {
  "use strict";
  var contents = {};

  function byId(id) { return document.getElementById(id); }

  function setValue(id, value) {
    var el = byId(id);
    if (!el) { return; }
    if (el.type === "checkbox") { el.checked = !!value; } else { el.value = value == null ? "" : String(value); }
  }

  function fillTerrain(t) {
    setValue("id_terrain_type", t ? t.type : "clear");
    setValue("id_bridge", t && t.bridge === true);
    setValue("id_terrain_name", t ? t.name : "");
    setValue("id_group_name", t ? t.group_name : "");
    var works = (t && Array.isArray(t.field_works)) ? t.field_works : [];
    document.querySelectorAll("input[name=field_works]").forEach(function (box) {
      box.checked = works.indexOf(box.value) >= 0;
    });
  }

  function fillUnit(u) {
    if (!u) { return; }
    setValue("id_unit_id", u.id);
    setValue("id_unit_side", u.side);
    setValue("id_unit_nation", u.nation);
    setValue("id_unit_type", u.type);
    setValue("id_unit_blocks", u.blocks);
    setValue("id_unit_square", u.in_square);
  }

  function fillLeader(l) {
    if (!l) { return; }
    setValue("id_leader_id", l.id);
    setValue("id_leader_side", l.side);
    setValue("id_leader_nation", l.nation);
    setValue("id_leader_name", l.name);
  }

  function choose(key) {
    var parts = key.split(",");
    if (parts.length !== 2) { return; }
    setValue("id_row", parts[0]);
    setValue("id_col", parts[1]);
    document.querySelectorAll("#board .hex.selected").forEach(function (el) {
      el.classList.remove("selected");
    });
    var hex = document.querySelector('#board [data-locale="' + key + '"]');
    if (hex) { hex.classList.add("selected"); }
    var here = contents[key] || {};
    fillTerrain(here.terrain);
    fillUnit(here.unit);
    fillLeader(here.leader);
    var words = ["Hex " + key + ":", here.terrain ? here.terrain.type : "clear"];
    if (here.unit) { words.push("unit " + here.unit.id); }
    if (here.leader) { words.push("leader " + here.leader.id); }
    var status = byId("ccn-chosen");
    if (status) { status.textContent = words.join(" "); }
  }

  function keyOf(target) {
    var el = target.closest && target.closest("#board [data-hex], #board [data-locale]");
    if (!el) { return null; }
    return el.getAttribute("data-hex") || el.getAttribute("data-locale");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var data = byId("ccn-hexes");
    if (data) {
      try { contents = JSON.parse(data.textContent) || {}; } catch (e) { contents = {}; }
    }
    var board = byId("board");
    if (!board) { return; }
    board.addEventListener("click", function (e) {
      var key = keyOf(e.target);
      if (key) { choose(key); }
    });
    board.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" && e.key !== " ") { return; }
      var key = keyOf(e.target);
      if (key) { e.preventDefault(); choose(key); }
    });
    var row = byId("id_row"), col = byId("id_col");
    if (row && col && row.value !== "" && col.value !== "") {
      var hex = document.querySelector('#board [data-locale="' + row.value + "," + col.value + '"]');
      if (hex) { hex.classList.add("selected"); }
    }
  });
}());

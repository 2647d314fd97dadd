// The preparation pages' script (served from /prepare/assets/prep.js, an ES module, so the pages
// need no inline script). It renders PDFs with PDF.js and lets the user place fields by clicking.
//
// Coordinates: the engine reads a field's x, y, w, h in PDF points from the page's top-left corner
// (y grows downwards; see evidence.ts). PDF.js renders a page at `scale` CSS pixels per point with
// the same top-left origin, so a click at (px, py) on the page is the point (px / scale, py / scale).
//
// The fields are kept in their wire shape (template fields with editor_roles and data_flow_tag, or
// Bundle fields with editors and a `doc` index), so members the page does not edit (v_pattern,
// default_value, ...) survive an edit. On submit they go in the hidden `fields` input as JSON.
// The server checks everything; this script only helps.
export const PREP_JS = String.raw`
import * as pdfjs from './pdf.mjs';
var ASSETS = new URL('./', import.meta.url).href;
pdfjs.GlobalWorkerOptions.workerSrc = ASSETS + 'pdf.worker.mjs';

var data = JSON.parse(document.getElementById('prep-data').textContent);
var main = document.querySelector('main[data-session-url]');
if (main && history.replaceState) { try { history.replaceState(null, '', main.getAttribute('data-session-url')); } catch (e) {} }
var form = document.getElementById('prep-form');

var SIZES = { sig: [160, 30], ini: [60, 30], snm: [160, 20], inp: [160, 20], txt: [220, 60], dat: [100, 20], tms: [140, 20], chk: [14, 14], att: [160, 20], stp: [120, 60] };
var KIND_NAMES = data.kinds || {};
var ASSIGN = data.assign; // 'editor_roles' (template) or 'editors' (Bundle)

function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) { if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]); }
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- Repeated rows (roles, signers): add and remove. ----
document.querySelectorAll('[data-add-row]').forEach(function (btn) {
  btn.addEventListener('click', function () {
    var box = document.getElementById(btn.getAttribute('data-add-row'));
    var tpl = document.getElementById(btn.getAttribute('data-add-row') + '-template');
    var row = tpl.content.firstElementChild.cloneNode(true);
    var n = box.querySelectorAll('.row').length + 1;
    row.querySelectorAll('input[data-default]').forEach(function (i) { i.value = i.getAttribute('data-default').replace('#', String(nextNumber(box, i.name, i.getAttribute('data-default')))); });
    box.appendChild(row);
    var first = row.querySelector('input');
    if (first) first.focus();
    refreshAssignees();
  });
});
function nextNumber(box, name, pattern) {
  var used = {};
  box.querySelectorAll('input[name="' + name + '"]').forEach(function (i) { used[i.value] = true; });
  for (var n = 1; ; n++) if (!used[pattern.replace('#', String(n))]) return n;
}
document.addEventListener('click', function (ev) {
  var btn = ev.target.closest && ev.target.closest('.remove-row');
  if (!btn) return;
  btn.closest('.row').remove();
  refreshAssignees();
});

// ---- Who fields and template roles can be given to: role keys, or signer keys. ----
function assignees() {
  var out = [];
  var keyName = data.mode === 'template' ? 'role_key' : 'signer_key';
  var labelName = data.mode === 'template' ? 'role_label' : 'signer_name';
  document.querySelectorAll('.row').forEach(function (row) {
    var k = row.querySelector('input[name="' + keyName + '"]');
    var l = row.querySelector('input[name="' + labelName + '"]');
    if (k && k.value.trim()) out.push({ key: k.value.trim(), label: (l && l.value.trim()) || k.value.trim() });
  });
  return out;
}
function fillSelect(sel, list, value, emptyText) {
  sel.textContent = '';
  if (emptyText !== null) sel.appendChild(el('option', { value: '' }, emptyText));
  list.forEach(function (a) { sel.appendChild(el('option', { value: a.key }, a.label === a.key ? a.key : a.label + ' (' + a.key + ')')); });
  if (value && !list.some(function (a) { return a.key === value; })) sel.appendChild(el('option', { value: value }, value + ' (not in the list)'));
  sel.value = value || '';
}
function refreshAssignees() {
  var list = assignees();
  document.querySelectorAll('select[data-assign]').forEach(function (sel) { fillSelect(sel, list, sel.value || sel.getAttribute('data-value'), 'Choose a signer'); });
  renderList();
}
document.addEventListener('input', function (ev) {
  if (ev.target.matches && ev.target.matches('input[name=role_key],input[name=role_label],input[name=signer_key],input[name=signer_name]')) refreshAssignees();
});

// ---- Signer search (Bundle sessions with allow_search_signers). ----
var search = document.getElementById('signer-search');
if (search) {
  var results = document.getElementById('signer-results');
  var timer;
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var q = search.value.trim();
      if (!q) { results.textContent = ''; return; }
      fetch(data.session + '/persons?q=' + encodeURIComponent(q), { headers: { accept: 'application/json' } })
        .then(function (r) { return r.ok ? r.json() : []; })
        .then(function (list) {
          results.textContent = '';
          if (!list.length) results.appendChild(el('li', { class: 'hint' }, 'No saved person matches.'));
          list.forEach(function (p) {
            var li = el('li');
            var b = el('button', { type: 'button', class: 'link person' }, p.name + ' <' + p.email + '>');
            b.addEventListener('click', function () { addSigner(p.name, p.email); results.textContent = ''; search.value = ''; });
            li.appendChild(b);
            results.appendChild(li);
          });
        });
    }, 200);
  });
}
function addSigner(name, email) {
  var box = document.getElementById('signers');
  var empty = Array.prototype.find.call(box.querySelectorAll('.row'), function (r) {
    return !r.querySelector('input[name=signer_name]').value && !r.querySelector('input[name=signer_email]').value;
  });
  if (!empty) { document.querySelector('[data-add-row=signers]').click(); empty = box.lastElementChild; }
  empty.querySelector('input[name=signer_name]').value = name;
  empty.querySelector('input[name=signer_email]').value = email;
  refreshAssignees();
}

// ---- Template choice (Bundle sessions): show a chosen template's role assignments. ----
function syncTemplates() {
  document.querySelectorAll('input[name=template]').forEach(function (box) {
    var assign = document.getElementById('assign-' + box.value);
    if (!assign) return;
    assign.hidden = !box.checked;
    assign.querySelectorAll('select').forEach(function (s) { s.disabled = !box.checked; });
  });
}
document.querySelectorAll('input[name=template]').forEach(function (b) { b.addEventListener('change', syncTemplates); });
syncTemplates();

// ---- The field placer. ----
var placer = document.getElementById('placer');
var fields = data.fields || [];
var pages = [];
var selected = -1;
var fieldErrors = data.fieldErrors || {};

function assigneeOf(f) { return (f[ASSIGN] && f[ASSIGN][0]) || ''; }

function renderPdf(src) {
  var box = document.getElementById('pages');
  var status = document.getElementById('pdf-status');
  box.textContent = '';
  box.removeAttribute('data-pages');
  pages = [];
  status.textContent = 'Loading the PDF…';
  var params = { isEvalSupported: false, useWasm: false, standardFontDataUrl: ASSETS + 'standard_fonts/', cMapUrl: ASSETS + 'cmaps/', cMapPacked: true };
  for (var k in src) params[k] = src[k];
  return pdfjs.getDocument(params).promise.then(function (pdf) {
    var chain = Promise.resolve();
    for (var i = 1; i <= pdf.numPages; i++) chain = chain.then(renderPage.bind(null, pdf, i, box));
    return chain.then(function () {
      status.textContent = pdf.numPages + (pdf.numPages === 1 ? ' page' : ' pages') + '. Click on a page to place a field.';
      box.setAttribute('data-pages', String(pdf.numPages));
      drawFields();
    });
  }).catch(function (e) {
    status.textContent = 'The PDF could not be shown: ' + (e && e.message ? e.message : e);
  });
}

function renderPage(pdf, n, box) {
  return pdf.getPage(n).then(function (page) {
    var base = page.getViewport({ scale: 1 });
    var width = Math.min(box.clientWidth || 760, 900);
    var scale = width / base.width;
    var vp = page.getViewport({ scale: scale });
    var ratio = window.devicePixelRatio || 1;
    var wrap = el('div', { class: 'page', 'data-page': String(n) });
    wrap.style.width = vp.width + 'px';
    wrap.style.height = vp.height + 'px';
    var canvas = el('canvas', { 'aria-label': 'Page ' + n });
    canvas.width = Math.floor(vp.width * ratio);
    canvas.height = Math.floor(vp.height * ratio);
    canvas.style.width = vp.width + 'px';
    canvas.style.height = vp.height + 'px';
    var overlay = el('div', { class: 'overlay', title: 'Click to place a field' });
    wrap.appendChild(canvas);
    wrap.appendChild(overlay);
    box.appendChild(wrap);
    var info = { n: n, scale: scale, w: base.width, h: base.height, overlay: overlay };
    pages.push(info);
    overlay.addEventListener('click', function (ev) {
      if (ev.target !== overlay) return;
      var r = overlay.getBoundingClientRect();
      place(info, (ev.clientX - r.left) / scale, (ev.clientY - r.top) / scale);
    });
    var transform = ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined;
    return page.render({ canvas: canvas, viewport: vp, transform: transform }).promise;
  });
}

function uniqueKey(kind) {
  var used = {};
  fields.forEach(function (f) { used[f.key] = true; });
  for (var n = 1; ; n++) if (!used[kind + '-' + n]) return kind + '-' + n;
}

function place(info, x, y) {
  var kind = document.getElementById('tool-kind').value;
  var size = SIZES[kind] || [160, 20];
  var f = { key: uniqueKey(kind), kind: kind, page: info.n,
    x: round(clamp(x, 0, info.w - size[0])), y: round(clamp(y, 0, info.h - size[1])), w: size[0], h: size[1], required: kind === 'sig' || kind === 'ini' };
  var who = assignees();
  if (who.length) f[ASSIGN] = [who[0].key];
  if (data.mode === 'bundle') f.doc = 0;
  fields.push(f);
  selected = fields.length - 1;
  drawFields();
  var row = document.querySelector('#field-list [data-index="' + selected + '"] input[data-prop=label]');
  if (row) row.focus();
}
function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }
function round(v) { return Math.round(v * 10) / 10; }

function drawFields() {
  pages.forEach(function (p) { p.overlay.textContent = ''; });
  fields.forEach(function (f, i) {
    var p = pages.find(function (x) { return x.n === f.page; });
    if (!p) return;
    var b = el('div', { class: 'box' + (i === selected ? ' selected' : '') + (fieldErrors[i] ? ' invalid' : ''), 'data-index': String(i), 'data-field': f.key, title: (f.label || f.key) + ' (' + (KIND_NAMES[f.kind] || f.kind) + ')' }, f.label || f.key);
    b.style.left = (f.x || 0) * p.scale + 'px';
    b.style.top = (f.y || 0) * p.scale + 'px';
    b.style.width = (f.w || 160) * p.scale + 'px';
    b.style.height = (f.h || 20) * p.scale + 'px';
    drag(b, f, p);
    p.overlay.appendChild(b);
  });
  renderList();
}

function drag(b, f, p) {
  b.addEventListener('pointerdown', function (ev) {
    ev.preventDefault();
    selected = Number(b.getAttribute('data-index'));
    var sx = ev.clientX, sy = ev.clientY, ox = f.x || 0, oy = f.y || 0, moved = false;
    b.setPointerCapture(ev.pointerId);
    function move(e) {
      moved = true;
      f.x = round(clamp(ox + (e.clientX - sx) / p.scale, 0, p.w - (f.w || 0)));
      f.y = round(clamp(oy + (e.clientY - sy) / p.scale, 0, p.h - (f.h || 0)));
      b.style.left = f.x * p.scale + 'px';
      b.style.top = f.y * p.scale + 'px';
    }
    function up() {
      b.removeEventListener('pointermove', move);
      b.removeEventListener('pointerup', up);
      drawFields();
    }
    b.addEventListener('pointermove', move);
    b.addEventListener('pointerup', up);
  });
}

function renderList() {
  var list = document.getElementById('field-list');
  if (!list) return;
  list.textContent = '';
  if (!fields.length) { list.appendChild(el('p', { class: 'hint' }, 'No fields yet.')); return; }
  var who = assignees();
  fields.forEach(function (f, i) {
    var row = el('div', { class: 'field-row' + (i === selected ? ' selected' : '') + (fieldErrors[i] ? ' invalid' : ''), 'data-index': String(i) });
    var head = el('div', { class: 'field-head' });
    head.appendChild(el('strong', {}, (f.label || f.key) + ' '));
    head.appendChild(el('span', { class: 'hint' }, 'page ' + f.page + ', x ' + Math.round(f.x) + ', y ' + Math.round(f.y)));
    var rm = el('button', { type: 'button', class: 'link remove-field' }, 'Remove');
    rm.addEventListener('click', function () { fields.splice(i, 1); selected = -1; fieldErrors = {}; drawFields(); });
    head.appendChild(rm);
    row.appendChild(head);
    var kind = el('select', { 'data-prop': 'kind', 'aria-label': 'Kind' });
    Object.keys(KIND_NAMES).forEach(function (k) { kind.appendChild(el('option', { value: k }, KIND_NAMES[k])); });
    if (!KIND_NAMES[f.kind]) kind.appendChild(el('option', { value: f.kind }, f.kind));
    kind.value = f.kind;
    kind.addEventListener('change', function () { f.kind = kind.value; drawFields(); });
    row.appendChild(labelled('Kind', kind));
    row.appendChild(labelled('Key', input(f, 'key')));
    row.appendChild(labelled('Label', input(f, 'label')));
    var req = el('input', { type: 'checkbox', 'data-prop': 'required' });
    req.checked = f.required === true;
    req.addEventListener('change', function () { f.required = req.checked; });
    row.appendChild(labelled('Required', req));
    var role = el('select', { 'data-prop': 'assignee', 'aria-label': data.mode === 'template' ? 'Role' : 'Signer' });
    fillSelect(role, who, assigneeOf(f), data.mode === 'template' ? 'Any role' : 'Any signer');
    role.addEventListener('change', function () { if (role.value) f[ASSIGN] = [role.value]; else delete f[ASSIGN]; });
    row.appendChild(labelled(data.mode === 'template' ? 'Role' : 'Signer', role));
    if (data.mode === 'template') row.appendChild(labelled('Data Flow Tag', input(f, 'data_flow_tag', 'optional')));
    (fieldErrors[i] || []).forEach(function (m) { row.appendChild(el('p', { class: 'error', role: 'alert' }, m)); });
    row.addEventListener('focusin', function () { if (selected !== i) { selected = i; highlight(); } });
    list.appendChild(row);
  });
}
function highlight() {
  document.querySelectorAll('.box, .field-row').forEach(function (e) { e.classList.toggle('selected', Number(e.getAttribute('data-index')) === selected); });
}
function input(f, prop, placeholder) {
  var i = el('input', { type: 'text', 'data-prop': prop, placeholder: placeholder });
  i.value = f[prop] === undefined ? '' : String(f[prop]);
  i.addEventListener('input', function () {
    if (i.value === '' && prop !== 'key') delete f[prop]; else f[prop] = i.value;
    var b = document.querySelector('.box[data-index="' + fields.indexOf(f) + '"]');
    if (b && (prop === 'label' || prop === 'key')) b.textContent = f.label || f.key;
  });
  return i;
}
function labelled(text, control) {
  var l = el('label', { class: 'prop' });
  l.appendChild(el('span', {}, text));
  l.appendChild(control);
  return l;
}

if (placer) {
  var file = document.getElementById('pdf');
  if (data.pdfUrl) renderPdf({ url: data.pdfUrl });
  if (file) file.addEventListener('change', function () {
    var f = file.files && file.files[0];
    if (!f) return;
    f.arrayBuffer().then(function (buf) { renderPdf({ data: new Uint8Array(buf) }); });
  });
  if (file && file.files && file.files[0]) file.dispatchEvent(new Event('change'));
}

refreshAssignees();

if (form) form.addEventListener('submit', function (ev) {
  var hidden = document.getElementById('fields-json');
  if (hidden) hidden.value = JSON.stringify(fields);
  var btn = ev.submitter;
  setTimeout(function () { form.querySelectorAll('button[type=submit]').forEach(function (b) { b.disabled = true; }); if (btn) btn.textContent = 'Working…'; }, 0);
});
`;

// The preparation pages' script (served as /prepare/assets/prep.js, beside PDF.js). It renders
// PDFs with PDF.js and lets the user place fields by clicking.
//
// Coordinates: the engine reads a field's x, y, w, h in PDF points from the page's top-left corner
// (y grows downwards; see evidence.ts). PDF.js renders a page at `scale` CSS pixels per point with
// the same top-left origin, so a click at (px, py) on the page is the point (px / scale, py / scale).
//
// The fields are kept in their wire shape, so members the page does not edit survive an edit. On
// submit they go in the hidden `fields` input as JSON. The server checks everything; this only helps.
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { visibleControls } from '../../../app/sanitize.js';
import type { PlacedField, PrepData } from '../preparation/data.js';
import { moveToSessionUrl } from './session.js';

// The build maps the pdfjs-dist import to ./pdf.mjs beside this script: its siblings are here too.
const ASSETS = new URL('./', import.meta.url).href;
pdfjs.GlobalWorkerOptions.workerSrc = `${ASSETS}pdf.worker.mjs`;

moveToSessionUrl();
const main = document.querySelector<HTMLElement>('main[data-prep]');
const data = JSON.parse(main?.dataset.prep ?? '{"mode":"draft","session":"","fields":[]}') as PrepData;
const form = document.getElementById('prep-form') as HTMLFormElement | null;

const SIZES: Record<string, [number, number]> = {
  sig: [160, 30],
  ini: [60, 30],
  snm: [160, 20],
  inp: [160, 20],
  txt: [220, 60],
  dat: [100, 20],
  tms: [140, 20],
  chk: [14, 14],
  att: [160, 20],
  stp: [120, 60],
};
const KIND_NAMES = data.kinds ?? {};
const ASSIGN = data.assign ?? 'editors';
const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T | null;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = visibleControls(text);
  return e;
}

// ---- Repeated rows (roles, signers): add and remove. ----
document.querySelectorAll<HTMLElement>('[data-add-row]').forEach((btn) => {
  btn.addEventListener('click', () => {
    const which = btn.getAttribute('data-add-row')!;
    const box = byId(which)!;
    const tpl = byId<HTMLTemplateElement>(`${which}-template`)!;
    const row = tpl.content.firstElementChild!.cloneNode(true) as HTMLElement;
    row.querySelectorAll<HTMLInputElement>('input[data-default]').forEach((i) => {
      const pattern = i.getAttribute('data-default')!;
      i.value = pattern.replace('#', String(nextNumber(box, i.name, pattern)));
    });
    box.appendChild(row);
    row.querySelector('input')?.focus();
    refreshAssignees();
  });
});
function nextNumber(box: HTMLElement, name: string, pattern: string): number {
  const used = new Set<string>();
  box.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`).forEach((i) => used.add(i.value));
  for (let n = 1; ; n++) if (!used.has(pattern.replace('#', String(n)))) return n;
}
document.addEventListener('click', (ev) => {
  const btn = ev.target instanceof Element ? ev.target.closest('.remove-row') : null;
  if (!btn) return;
  btn.closest('.row')?.remove();
  refreshAssignees();
});

// ---- Who fields and template roles can be given to: role keys, or signer keys. ----
interface Assignee {
  key: string;
  label: string;
}
function assignees(): Assignee[] {
  const out: Assignee[] = [];
  const keyName = data.mode === 'template' ? 'role_key' : 'signer_key';
  const labelName = data.mode === 'template' ? 'role_label' : 'signer_name';
  document.querySelectorAll('.row').forEach((row) => {
    const k = row.querySelector<HTMLInputElement>(`input[name="${keyName}"]`);
    const l = row.querySelector<HTMLInputElement>(`input[name="${labelName}"]`);
    if (k?.value.trim()) out.push({ key: k.value.trim(), label: l?.value.trim() || k.value.trim() });
  });
  return out;
}
function fillSelect(sel: HTMLSelectElement, list: Assignee[], value: string | null, emptyText: string | null): void {
  sel.textContent = '';
  if (emptyText !== null) sel.appendChild(el('option', { value: '' }, emptyText));
  for (const a of list)
    sel.appendChild(el('option', { value: a.key }, a.label === a.key ? a.key : `${a.label} (${a.key})`));
  if (value && !list.some((a) => a.key === value))
    sel.appendChild(el('option', { value }, `${value} (not in the list)`));
  sel.value = value || '';
}
function refreshAssignees(): void {
  const list = assignees();
  document
    .querySelectorAll<HTMLSelectElement>('select[data-assign]')
    .forEach((sel) => fillSelect(sel, list, sel.value || sel.getAttribute('data-value'), 'Choose a signer'));
  renderList();
}
document.addEventListener('input', (ev) => {
  if (
    ev.target instanceof Element &&
    ev.target.matches('input[name=role_key],input[name=role_label],input[name=signer_key],input[name=signer_name]')
  )
    refreshAssignees();
});

// ---- Signer search (Bundle sessions with allow_search_signers). ----
const search = byId<HTMLInputElement>('signer-search');
const results = byId('signer-results');
if (search && results) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = search.value.trim();
      if (!q) {
        results.textContent = '';
        return;
      }
      const r = await fetch(`${data.session}/persons?q=${encodeURIComponent(q)}`, {
        headers: { accept: 'application/json' },
      });
      const list = (r.ok ? await r.json() : []) as { name: string; email: string }[];
      results.textContent = '';
      if (!list.length) results.appendChild(el('li', { class: 'hint' }, 'No saved person matches.'));
      for (const p of list) {
        const li = el('li');
        const b = el('button', { type: 'button', class: 'link person' }, `${p.name} <${p.email}>`);
        b.addEventListener('click', () => {
          addSigner(p.name, p.email);
          results.textContent = '';
          search.value = '';
        });
        li.appendChild(b);
        results.appendChild(li);
      }
    }, 200);
  });
}
function addSigner(name: string, email: string): void {
  const box = byId('signers')!;
  const input = (row: Element, n: string) => row.querySelector<HTMLInputElement>(`input[name=${n}]`)!;
  let row = [...box.querySelectorAll('.row')].find(
    (r) => !input(r, 'signer_name').value && !input(r, 'signer_email').value,
  );
  if (!row) {
    document.querySelector<HTMLElement>('[data-add-row=signers]')!.click();
    row = box.lastElementChild!;
  }
  input(row, 'signer_name').value = name;
  input(row, 'signer_email').value = email;
  refreshAssignees();
}

// ---- Template choice (Bundle sessions): show a chosen template's role assignments. ----
const templateBoxes = document.querySelectorAll<HTMLInputElement>('input[name=template]');
function syncTemplates(): void {
  templateBoxes.forEach((box) => {
    const assign = byId(`assign-${box.value}`);
    if (!assign) return;
    assign.hidden = !box.checked;
    assign.querySelectorAll('select').forEach((s) => {
      s.disabled = !box.checked;
    });
  });
}
templateBoxes.forEach((b) => b.addEventListener('change', syncTemplates));
syncTemplates();

// ---- The field placer. ----
interface PageInfo {
  n: number;
  scale: number;
  w: number;
  h: number;
  overlay: HTMLElement;
}
const fields: PlacedField[] = data.fields ?? [];
let pages: PageInfo[] = [];
let selected = -1;
let fieldErrors: Record<number, string[]> = data.fieldErrors ?? {};

const assigneeOf = (f: PlacedField) => f[ASSIGN]?.[0] ?? '';

async function renderPdf(src: { url: string } | { data: Uint8Array }): Promise<void> {
  const box = byId('pages')!;
  const status = byId('pdf-status')!;
  box.textContent = '';
  box.removeAttribute('data-pages');
  pages = [];
  status.textContent = 'Loading the PDF…';
  try {
    const pdf = await pdfjs.getDocument({
      isEvalSupported: false,
      useWasm: false,
      standardFontDataUrl: `${ASSETS}standard_fonts/`,
      cMapUrl: `${ASSETS}cmaps/`,
      cMapPacked: true,
      ...src,
    }).promise;
    for (let i = 1; i <= pdf.numPages; i++) await renderPage(pdf, i, box);
    status.textContent = `${pdf.numPages}${pdf.numPages === 1 ? ' page' : ' pages'}. Click on a page to place a field.`;
    box.setAttribute('data-pages', String(pdf.numPages));
    drawFields();
  } catch (e) {
    status.textContent = `The PDF could not be shown: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function renderPage(pdf: PDFDocumentProxy, n: number, box: HTMLElement): Promise<void> {
  const page = await pdf.getPage(n);
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(box.clientWidth || 760, 900) / base.width;
  const vp = page.getViewport({ scale });
  const ratio = window.devicePixelRatio || 1;
  const wrap = el('div', { class: 'page', 'data-page': String(n) });
  wrap.style.width = `${vp.width}px`;
  wrap.style.height = `${vp.height}px`;
  const canvas = el('canvas', { 'aria-label': `Page ${n}` });
  canvas.width = Math.floor(vp.width * ratio);
  canvas.height = Math.floor(vp.height * ratio);
  canvas.style.width = `${vp.width}px`;
  canvas.style.height = `${vp.height}px`;
  const overlay = el('div', { class: 'overlay', title: 'Click to place a field' });
  wrap.append(canvas, overlay);
  box.appendChild(wrap);
  const info: PageInfo = { n, scale, w: base.width, h: base.height, overlay };
  pages.push(info);
  overlay.addEventListener('click', (ev) => {
    if (ev.target !== overlay) return;
    const r = overlay.getBoundingClientRect();
    place(info, (ev.clientX - r.left) / scale, (ev.clientY - r.top) / scale);
  });
  const transform = ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined;
  await page.render({ canvas, viewport: vp, transform }).promise;
}

function uniqueKey(kind: string): string {
  const used = new Set(fields.map((f) => f.key));
  for (let n = 1; ; n++) if (!used.has(`${kind}-${n}`)) return `${kind}-${n}`;
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const round = (v: number) => Math.round(v * 10) / 10;

function place(info: PageInfo, x: number, y: number): void {
  const kind = byId<HTMLSelectElement>('tool-kind')!.value;
  const [w, h] = SIZES[kind] ?? [160, 20];
  const f: PlacedField = {
    key: uniqueKey(kind),
    kind,
    page: info.n,
    x: round(clamp(x, 0, info.w - w)),
    y: round(clamp(y, 0, info.h - h)),
    w,
    h,
    required: kind === 'sig' || kind === 'ini',
  };
  const who = assignees();
  if (who.length) f[ASSIGN] = [who[0]!.key];
  if (data.mode === 'bundle') f.doc = 0;
  fields.push(f);
  selected = fields.length - 1;
  drawFields();
  document.querySelector<HTMLInputElement>(`#field-list [data-index="${selected}"] input[data-prop=label]`)?.focus();
}

function drawFields(): void {
  for (const p of pages) p.overlay.textContent = '';
  fields.forEach((f, i) => {
    const p = pages.find((x) => x.n === f.page);
    if (!p) return;
    const b = el(
      'div',
      {
        class: `box${i === selected ? ' selected' : ''}${fieldErrors[i] ? ' invalid' : ''}`,
        'data-index': String(i),
        'data-field': f.key,
        title: `${f.label || f.key} (${KIND_NAMES[f.kind] || f.kind})`,
      },
      f.label || f.key,
    );
    b.style.left = `${(f.x || 0) * p.scale}px`;
    b.style.top = `${(f.y || 0) * p.scale}px`;
    b.style.width = `${(f.w || 160) * p.scale}px`;
    b.style.height = `${(f.h || 20) * p.scale}px`;
    drag(b, f, p);
    p.overlay.appendChild(b);
  });
  renderList();
}

function drag(b: HTMLElement, f: PlacedField, p: PageInfo): void {
  b.addEventListener('pointerdown', (ev) => {
    ev.preventDefault();
    selected = Number(b.getAttribute('data-index'));
    const sx = ev.clientX,
      sy = ev.clientY,
      ox = f.x || 0,
      oy = f.y || 0;
    b.setPointerCapture(ev.pointerId);
    const move = (e: PointerEvent) => {
      f.x = round(clamp(ox + (e.clientX - sx) / p.scale, 0, p.w - (f.w || 0)));
      f.y = round(clamp(oy + (e.clientY - sy) / p.scale, 0, p.h - (f.h || 0)));
      b.style.left = `${f.x * p.scale}px`;
      b.style.top = `${f.y * p.scale}px`;
    };
    const up = () => {
      b.removeEventListener('pointermove', move);
      b.removeEventListener('pointerup', up);
      drawFields();
    };
    b.addEventListener('pointermove', move);
    b.addEventListener('pointerup', up);
  });
}

function renderList(): void {
  const list = byId('field-list');
  if (!list) return;
  list.textContent = '';
  if (!fields.length) {
    list.appendChild(el('p', { class: 'hint' }, 'No fields yet.'));
    return;
  }
  const who = assignees();
  const template = data.mode === 'template';
  fields.forEach((f, i) => {
    const row = el('div', {
      class: `field-row${i === selected ? ' selected' : ''}${fieldErrors[i] ? ' invalid' : ''}`,
      'data-index': String(i),
    });
    const head = el('div', { class: 'field-head' });
    head.appendChild(el('strong', {}, `${f.label || f.key} `));
    head.appendChild(el('span', { class: 'hint' }, `page ${f.page}, x ${Math.round(f.x)}, y ${Math.round(f.y)}`));
    const rm = el('button', { type: 'button', class: 'link remove-field' }, 'Remove');
    rm.addEventListener('click', () => {
      fields.splice(i, 1);
      selected = -1;
      fieldErrors = {};
      drawFields();
    });
    head.appendChild(rm);
    row.appendChild(head);
    const kind = el('select', { 'data-prop': 'kind', 'aria-label': 'Kind' });
    for (const [k, name] of Object.entries(KIND_NAMES)) kind.appendChild(el('option', { value: k }, name));
    if (!KIND_NAMES[f.kind]) kind.appendChild(el('option', { value: f.kind }, f.kind));
    kind.value = f.kind;
    kind.addEventListener('change', () => {
      f.kind = kind.value;
      drawFields();
    });
    row.appendChild(labelled('Kind', kind));
    row.appendChild(labelled('Key', input(f, 'key')));
    row.appendChild(labelled('Label', input(f, 'label')));
    const req = el('input', { type: 'checkbox', 'data-prop': 'required' });
    req.checked = f.required === true;
    req.addEventListener('change', () => {
      f.required = req.checked;
    });
    row.appendChild(labelled('Required', req));
    const role = el('select', { 'data-prop': 'assignee', 'aria-label': template ? 'Role' : 'Signer' });
    fillSelect(role, who, assigneeOf(f), template ? 'Any role' : 'Any signer');
    role.addEventListener('change', () => {
      if (role.value) f[ASSIGN] = [role.value];
      else delete f[ASSIGN];
    });
    row.appendChild(labelled(template ? 'Role' : 'Signer', role));
    if (template) row.appendChild(labelled('Data Flow Tag', input(f, 'data_flow_tag', 'optional')));
    for (const m of fieldErrors[i] ?? []) row.appendChild(el('p', { class: 'error', role: 'alert' }, m));
    row.addEventListener('focusin', () => {
      if (selected !== i) {
        selected = i;
        highlight();
      }
    });
    list.appendChild(row);
  });
}
function highlight(): void {
  document
    .querySelectorAll('.box, .field-row')
    .forEach((e) => e.classList.toggle('selected', Number(e.getAttribute('data-index')) === selected));
}
function input(f: PlacedField, prop: 'key' | 'label' | 'data_flow_tag', placeholder?: string): HTMLInputElement {
  const i = el('input', { type: 'text', 'data-prop': prop, placeholder });
  i.value = f[prop] === undefined ? '' : String(f[prop]);
  i.addEventListener('input', () => {
    if (i.value === '' && prop !== 'key') delete f[prop];
    else f[prop] = i.value;
    const b = document.querySelector(`.box[data-index="${fields.indexOf(f)}"]`);
    if (b && (prop === 'label' || prop === 'key')) b.textContent = f.label || f.key;
  });
  return i;
}
function labelled(text: string, control: HTMLElement): HTMLLabelElement {
  const l = el('label', { class: 'prop' });
  l.appendChild(el('span', {}, text));
  l.appendChild(control);
  return l;
}

if (byId('placer')) {
  const file = byId<HTMLInputElement>('pdf');
  if (data.pdfUrl) void renderPdf({ url: data.pdfUrl });
  if (file) {
    file.addEventListener('change', async () => {
      const f = file.files?.[0];
      if (f) await renderPdf({ data: new Uint8Array(await f.arrayBuffer()) });
    });
    // A browser may keep a chosen file across a reload.
    if (file.files?.[0]) file.dispatchEvent(new Event('change'));
  }
}

refreshAssignees();

form?.addEventListener('submit', (ev) => {
  const hidden = byId<HTMLInputElement>('fields-json');
  if (hidden) hidden.value = JSON.stringify(fields);
  const btn = ev.submitter;
  // After the submission has started: a disabled button would not submit.
  setTimeout(() => {
    form.querySelectorAll<HTMLButtonElement>('button[type=submit]').forEach((b) => {
      b.disabled = true;
    });
    if (btn) btn.textContent = 'Working…';
  }, 0);
});

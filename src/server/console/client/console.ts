// The console's script (served as /console/assets/console.js, beside PDF.js). Pages work without
// it; it adds the live Bundle page, the PDF preview, in-browser hashing for verify and copy buttons.
// Every piece of HTML it puts in the page was rendered (and escaped) by the server.
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { clockTime, exactTime, type TimeStyle, timeIn, timelineStyle, zoneName } from '../../../app/timeWords.js';

const ASSETS = new URL('./', import.meta.url).href;

/** PDF.js, loaded the first time a preview is asked for (the build maps it to ./pdf.mjs beside this script). */
async function pdfjs() {
  const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
  lib.GlobalWorkerOptions.workerSrc = `${ASSETS}pdf.worker.mjs`;
  return lib;
}

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T | null;

// ---- Times: the one rule of the terminal too, in the viewer's zone or UTC, against the backend's clock ----
const ZONE_KEY = 'esign-console-zone';
/** undefined: this browser's zone. */
let zone: string | undefined = localStorage.getItem(ZONE_KEY) === 'UTC' ? 'UTC' : undefined;
/** The backend's clock when the page was made, and this browser's then: relative times move on with both. */
const renderedAt = Number(document.body.dataset.now) || Date.now();
const loadedAt = Date.now();
const backendNow = () => renderedAt + (Date.now() - loadedAt);

/** Draws every time in `root` again: words or a clock in the zone chosen, the exact time on hover. */
function drawTimes(root: ParentNode = document): void {
  const at = backendNow();
  // A timeline of several days in the zone shown dates every row (the terminal's rule).
  for (const list of root.querySelectorAll<HTMLElement>('ol.timeline')) {
    const rows = [...list.querySelectorAll<HTMLTimeElement>(':scope > li > time[data-style]')];
    const style = timelineStyle(
      rows.map((t) => t.dateTime),
      zone,
    );
    for (const t of rows) t.dataset.style = style;
  }
  for (const t of root.querySelectorAll<HTMLTimeElement>('time[data-style]')) {
    const iso = t.dateTime;
    t.textContent = timeIn(t.dataset.style as TimeStyle, iso, at, zone);
    t.title = `${exactTime(iso, zone)} · ${iso}`;
  }
  const name = byId('zone-name');
  if (name) name.textContent = `Times in ${zoneName(zone, at)}`;
  const button = byId<HTMLButtonElement>('zone-switch');
  if (button) {
    // A browser whose own zone is UTC has nothing to switch to.
    button.hidden = zone !== 'UTC' && zoneName(undefined, at) === 'UTC';
    button.textContent = zone === 'UTC' ? 'Show my time zone' : 'Show UTC';
  }
}

function startTimes(): void {
  drawTimes();
  byId('zone-switch')?.addEventListener('click', () => {
    zone = zone === 'UTC' ? undefined : 'UTC';
    if (zone) localStorage.setItem(ZONE_KEY, zone);
    else localStorage.removeItem(ZONE_KEY);
    drawTimes();
  });
  // "5m ago" stays true while the page is open.
  setInterval(() => drawTimes(), 30_000);
}

// ---- Keys: / goes to the search box; the find page starts there -------------------------------------
function startKeys(): void {
  const q = byId<HTMLInputElement>('q');
  if (q) {
    q.focus();
    q.setSelectionRange(q.value.length, q.value.length);
  }
  document.addEventListener('keydown', (ev) => {
    if (ev.key !== '/' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
    const box = byId<HTMLInputElement>('q');
    ev.preventDefault();
    if (box) {
      box.focus();
      box.select();
    } else location.assign(new URL('../', ASSETS).href);
  });
}

/** Fetches a page of this console and returns the element `id` from it. */
async function partOf(url: string, id: string, init?: RequestInit): Promise<HTMLElement | null> {
  const res = await fetch(url, { credentials: 'same-origin', ...init });
  if (!res.ok && res.status !== 400) throw new Error(`HTTP ${res.status}`);
  const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
  return doc.getElementById(id);
}

// ---- Live: the Bundle page follows its Bundle ------------------------------------------------------
function startLive(): void {
  const root = document.querySelector<HTMLElement>('[data-live]');
  const story = byId('story');
  const status = byId('live-status');
  if (!root || !story || !status) return;
  const source = new EventSource(root.dataset.live!);
  let busy = false;
  source.addEventListener('change', async () => {
    if (busy) return;
    busy = true;
    try {
      const fresh = await partOf(location.pathname, 'story');
      if (fresh) {
        // Keep the preview drawn while the rest is replaced.
        const preview = byId('preview');
        story.replaceChildren(...Array.from(fresh.childNodes).map((n) => document.importNode(n, true)));
        const newPreview = byId('preview');
        if (preview && newPreview && !preview.hidden) newPreview.replaceWith(preview);
        bindStory();
        drawTimes(story);
        status.textContent = `Live: updated at ${clockTime(new Date(backendNow()).toISOString(), backendNow(), zone)} (${zoneName(zone, backendNow())}).`;
      }
    } catch (e) {
      status.textContent = `Live: could not update (${e instanceof Error ? e.message : String(e)}).`;
    } finally {
      busy = false;
    }
  });
  source.addEventListener('gone', () => {
    status.textContent = 'Live: this Bundle can no longer be read.';
    source.close();
  });
  source.addEventListener('refused', () => {
    status.textContent = "Live: stopped. The backend refused this console's API key: open any page to see why.";
    source.close();
  });
}

// ---- PDF preview ------------------------------------------------------------------------------------
let doc: PDFDocumentProxy | undefined;
let pageNo = 1;

async function drawPage(): Promise<void> {
  const canvas = byId<HTMLCanvasElement>('preview-canvas');
  const caption = byId('preview-caption');
  if (!doc || !canvas || !caption) return;
  const page = await doc.getPage(pageNo);
  const base = page.getViewport({ scale: 1 });
  const width = Math.min(canvas.parentElement?.clientWidth || 760, 900);
  const vp = page.getViewport({ scale: width / base.width });
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.floor(vp.width * ratio);
  canvas.height = Math.floor(vp.height * ratio);
  canvas.style.width = `${vp.width}px`;
  canvas.style.height = `${vp.height}px`;
  await page.render({ canvas, viewport: vp, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] }).promise;
  canvas.setAttribute('aria-label', `Page ${pageNo} of ${doc.numPages}`);
  canvas.dataset.drawn = String(pageNo);
  caption.textContent = `${caption.dataset.name ?? ''}: page ${pageNo} of ${doc.numPages}`;
  byId<HTMLButtonElement>('preview-prev')!.disabled = pageNo <= 1;
  byId<HTMLButtonElement>('preview-next')!.disabled = pageNo >= doc.numPages;
}

async function preview(src: string, name: string): Promise<void> {
  const box = byId('preview');
  const caption = byId('preview-caption');
  if (!box || !caption) return;
  box.hidden = false;
  caption.dataset.name = name;
  caption.textContent = `Loading ${name}…`;
  try {
    doc = await (await pdfjs()).getDocument({
      url: src,
      isEvalSupported: false,
      useWasm: false,
      withCredentials: true,
      standardFontDataUrl: `${ASSETS}standard_fonts/`,
      cMapUrl: `${ASSETS}cmaps/`,
      cMapPacked: true,
    }).promise;
    pageNo = 1;
    await drawPage();
  } catch (e) {
    caption.textContent = `${name} could not be shown: ${e instanceof Error ? e.message : String(e)}`;
  }
}

// ---- Buttons inside the story (bound again after a live update) -------------------------------------
function bindStory(): void {
  document
    .querySelectorAll<HTMLButtonElement>('button.preview')
    .forEach((b) => b.addEventListener('click', () => void preview(b.dataset.src!, b.dataset.name ?? 'PDF')));
  byId('preview-prev')?.addEventListener('click', () => {
    if (!doc || pageNo <= 1) return;
    pageNo--;
    void drawPage();
  });
  byId('preview-next')?.addEventListener('click', () => {
    if (!doc || pageNo >= doc.numPages) return;
    pageNo++;
    void drawPage();
  });
  document.querySelectorAll<HTMLButtonElement>('button.copy').forEach((b) =>
    b.addEventListener('click', async () => {
      const source = byId(b.dataset.copy!);
      const text = (source instanceof HTMLInputElement ? source.value : source?.textContent) ?? '';
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = 'Copied';
      } catch {
        b.textContent = 'Select and copy';
      }
    }),
  );
}

// ---- Verify: hash in the browser, send only the hash ------------------------------------------------
async function sha256Hex(file: File): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function startVerify(): void {
  const drop = byId('drop');
  const input = byId<HTMLInputElement>('verify-file');
  const form = byId<HTMLFormElement>('verify-form');
  const result = byId('verify-result');
  if (!drop || !input || !form || !result) return;
  const check = async (file: File) => {
    result.textContent = `Computing the SHA-256 of ${file.name}…`;
    const hash = await sha256Hex(file);
    byId<HTMLInputElement>('hash')!.value = hash;
    const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
    const answer = await partOf(form.action, 'verify-result', { method: 'POST', body });
    result.replaceChildren(...Array.from(answer?.childNodes ?? []).map((n) => document.importNode(n, true)));
    drawTimes(result);
    result.dataset.file = file.name;
  };
  const run = (file: File | undefined) =>
    file &&
    check(file).catch((e: unknown) => {
      result.textContent = `Could not verify: ${e instanceof Error ? e.message : String(e)}`;
    });
  input.addEventListener('change', () => void run(input.files?.[0]));
  drop.addEventListener('dragover', (ev) => {
    ev.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    void run(ev.dataTransfer?.files[0]);
  });
}

startTimes();
startKeys();
startLive();
bindStory();
startVerify();

// HTML documents to PDF, with their form elements turned into e-signature fields.
// Both renderers print on US Letter with 0.5 in margins (PAGE); a document's own @page size is ignored.
import { FIELD_KINDS } from '../../../domain/enums.js';
import { findExecutable } from './findExecutable.js';
import type { FieldSource, PlacedField, RenderedHtml } from './renderTypes.js';
import { type Doc, type El, FORM_CONTROLS, attr, elements, isElement, isText, removeAttr, textOf } from './htmlDom.js';

export type { PlacedField, RenderedHtml } from './renderTypes.js';
const DEFAULT_HTML_TIMEOUT_MS = 30_000;

const ANNOTATION_KINDS = FIELD_KINDS.filter((k) => k !== 'apr') as readonly string[];
const INPUT_KINDS: Record<string, string> = {
  text: 'inp',
  email: 'inp',
  number: 'inp',
  tel: 'inp',
  checkbox: 'chk',
  date: 'dat',
};

/**
 * The Chromium builds that render, best first: the headless shell (Debian's chromium-headless-shell,
 * Google's chrome-headless-shell) is Chromium built to run without a window, and it takes about half
 * the CPU of the full browser for the same render (docs/wire.md, "Documents by HTML").
 */
const CHROMIUM_NAMES = [
  'chromium-headless-shell',
  'chrome-headless-shell',
  'chromium',
  'chromium-browser',
  'google-chrome',
];

export function findChromium(): string | undefined {
  return findExecutable('ESIGN_CHROMIUM', CHROMIUM_NAMES);
}

/**
 * Whether playwright-core, which drives Chromium, is installed: it is an optional peer of the
 * package (14 MB, for those who want Chromium's rendering), so without it `auto` renders built-in.
 */
async function hasBrowserDriver(): Promise<boolean> {
  try {
    await import('playwright-core');
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return false;
    throw e;
  }
}

export async function renderHtml(
  html: string,
  opts: { fieldsMode: 'native' | 'none'; renderer?: 'auto' | 'chromium' | 'builtin'; timeoutMs?: number },
): Promise<RenderedHtml> {
  if (typeof html !== 'string' || !html.trim()) throw new Error('The HTML document is empty.');
  if (opts.fieldsMode !== 'native' && opts.fieldsMode !== 'none')
    throw new Error(`Unknown fields mode "${String(opts.fieldsMode)}": use native or none.`);
  const choice = opts.renderer ?? 'auto';
  if (!['auto', 'chromium', 'builtin'].includes(choice))
    throw new Error(`Unknown HTML renderer "${choice}": use auto, chromium or builtin.`);
  const found = choice === 'builtin' ? undefined : findChromium();
  if (choice === 'chromium' && !found)
    throw new Error(
      `Chromium is not installed: none of ${CHROMIUM_NAMES.join(', ')} on PATH (set ESIGN_CHROMIUM to its path).`,
    );
  const chromium = found && (await hasBrowserDriver()) ? found : undefined;
  if (choice === 'chromium' && !chromium)
    throw new Error('Rendering with Chromium needs playwright-core: npm install -g playwright-core (beside esign).');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_HTML_TIMEOUT_MS;

  const parse5 = await import('parse5');
  // Scripting off, as in the renderers: <noscript> content is markup that is shown.
  const doc = parse5.parse(html, { scriptingEnabled: false });
  const sources = opts.fieldsMode === 'native' ? findFields(doc) : [];
  if (opts.fieldsMode === 'native') clearValues(parse5, sources);

  const result = chromium
    ? await (await import('./htmlChromium.js')).renderWithChromium(parse5, doc, sources, {
        executablePath: chromium,
        timeoutMs,
      })
    : await (await import('./htmlBuiltin.js')).renderBuiltin(doc, sources, { timeoutMs });
  const fields: PlacedField[] = [];
  sources.forEach((s, i) => {
    const box = result.boxes[i];
    if (!box) return;
    const { key, kind, ...rest } = s.field;
    fields.push({ key, kind, ...box, ...rest });
  });
  return { pdf: result.pdf, fields, renderer: chromium ? 'chromium' : 'builtin' };
}

function kindOf(el: El): string | undefined {
  const annotated = attr(el, 'data-esign-kind');
  if (annotated !== undefined) {
    const kind = annotated.trim().toLowerCase();
    if (!ANNOTATION_KINDS.includes(kind))
      throw new Error(
        `Unknown data-esign-kind "${annotated}" on <${el.tagName}>: use one of ${ANNOTATION_KINDS.join(', ')}.`,
      );
    return kind;
  }
  if (el.tagName === 'input') return INPUT_KINDS[(attr(el, 'type') ?? 'text').trim().toLowerCase()];
  if (el.tagName === 'textarea') return 'txt';
  if (el.tagName === 'select') return 'sel';
  return undefined;
}

const options = (select: El) => [...elements(select)].filter((e) => e.tagName === 'option');

function initialValue(el: El, kind: string): string | undefined {
  if (el.tagName === 'textarea') return el.childNodes.map((n) => (isText(n) ? n.value : '')).join('') || undefined;
  if (el.tagName === 'select') {
    const chosen = options(el).find((o) => attr(o, 'selected') !== undefined);
    return chosen && (attr(chosen, 'value') ?? textOf(chosen));
  }
  if (kind === 'chk' && el.tagName === 'input') return attr(el, 'checked') !== undefined ? 'true' : undefined;
  return attr(el, 'value') || undefined;
}

/** The form elements and annotated elements of the document, in document order; one inside another counts once. */
function findFields(doc: Doc): FieldSource[] {
  const labels = new Map<string, string>();
  for (const el of elements(doc)) {
    const target = el.tagName === 'label' ? attr(el, 'for') : undefined;
    if (target && !labels.has(target))
      labels.set(
        target,
        textOf(el, (e) => FORM_CONTROLS.has(e.tagName)),
      );
  }
  const taken = new Set<string>();
  const counts = new Map<string, number>();
  const found = new Set<El>();
  const out: FieldSource[] = [];
  for (const el of elements(doc)) {
    const kind = kindOf(el);
    if (!kind) continue;
    let enclosingLabel: El | undefined;
    let nested = false;
    for (let p = el.parentNode; p && isElement(p); p = p.parentNode) {
      if (found.has(p)) nested = true;
      if (p.tagName === 'label') enclosingLabel ??= p;
    }
    if (nested) continue;
    found.add(el);
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    const base = (attr(el, 'name')?.trim() || attr(el, 'id')?.trim() || `${kind}-${n}`).slice(0, 90);
    let key = base;
    for (let i = 2; taken.has(key); i++) key = `${base}-${i}`;
    taken.add(key);
    const id = attr(el, 'id');
    const label =
      (id && labels.get(id)) ||
      (enclosingLabel && textOf(enclosingLabel, (e) => FORM_CONTROLS.has(e.tagName) || found.has(e))) ||
      attr(el, 'placeholder')?.trim() ||
      attr(el, 'aria-label')?.trim() ||
      undefined;
    const value = initialValue(el, kind);
    const editors = (attr(el, 'data-signer') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    out.push({
      el,
      field: {
        key,
        kind,
        ...(label && { label }),
        ...(attr(el, 'required') !== undefined && { required: true }),
        ...(value !== undefined && { initial_value: value }),
        ...(editors.length && { editors }),
      },
    });
  }
  return out;
}

/**
 * The fields show their values on top of the page; drawn into the page as well, a value would show
 * twice (and the old one stay visible under a changed one). So native fields render empty.
 */
function clearValues(parse5: typeof import('parse5'), sources: FieldSource[]): void {
  const { defaultTreeAdapter: tree, html } = parse5;
  for (const { el } of sources) {
    if (el.tagName === 'input') {
      removeAttr(el, 'value');
      removeAttr(el, 'checked');
    } else if (el.tagName === 'textarea') {
      el.childNodes = [];
    } else if (el.tagName === 'select') {
      for (const o of options(el)) removeAttr(o, 'selected');
      const blank = tree.createElement('option', html.NS.HTML, [
        { name: 'selected', value: '' },
        { name: 'value', value: '' },
      ]);
      const first = el.childNodes[0];
      if (first) tree.insertBefore(el, blank, first);
      else tree.appendChild(el, blank);
    }
  }
}

// Renders HTML with Chromium (through playwright-core): no JavaScript, no network, printed to PDF.
//
// Field boxes come from the printed PDF itself: each field element is wrapped in a link to a
// per-render marker URL, Chromium writes a link annotation with the element's box on the page where
// its print layout put it (margins and page breaks included), and the annotations are then removed.
// Where a wrapper would change the document's structure (table cells, list items), the marker link
// goes inside the element, around its content, and the element's box is placed relative to it.
// Elements where neither works (inside a link, where links cannot nest) are placed from their
// on-screen box, laid out at the printable width, shifted as much as page breaks shifted the
// nearest field placed before them.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PDFDict, PDFObject } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { loadPdfLib } from '../../../lazyImport.js';
import { boxLauncher, installDirOf } from './converterBox.js';
import type { FieldSource, Geometry, RenderResult } from './renderTypes.js';
import { type Doc, type El, PAGE, duration, elements, isElement, setAttr } from './htmlDom.js';

const DOC_URL = 'https://document.esign.invalid/';
/**
 * Chromium's writable data per process (prlimit --data): its heap and the pages it lays out; past it
 * the page crashes. Not its address space, which V8 and the GPU process reserve by the terabyte.
 */
export const CHROMIUM_MEMORY_BYTES = 1024 * 1024 * 1024;
const PX = 0.75; // points per CSS pixel in Chromium's PDF output
const CONTENT_W_PX = (PAGE.width - 2 * PAGE.margin) / PX;
const CONTENT_H_PT = PAGE.height - 2 * PAGE.margin;

const NO_WRAP_SELF = new Set([
  'td',
  'th',
  'tr',
  'thead',
  'tbody',
  'tfoot',
  'caption',
  'col',
  'colgroup',
  'li',
  'dt',
  'dd',
  'option',
  'optgroup',
  'summary',
  'legend',
  'html',
  'body',
  'head',
]);
const NO_WRAP_IN = new Set([
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'colgroup',
  'select',
  'optgroup',
  'datalist',
  'html',
  'head',
]);
/** Elements whose content is not markup, or that have none. */
const NO_CONTENT = new Set([
  'input',
  'textarea',
  'select',
  'img',
  'br',
  'hr',
  'wbr',
  'col',
  'area',
  'embed',
  'source',
  'track',
  'iframe',
  'object',
  'video',
  'audio',
  'canvas',
  'svg',
  'math',
]);

// Sizes for empty field annotations; inside :where() they weigh nothing, so any size the document sets wins.
const STYLE = `
[data-esign-field] { break-inside: avoid !important; }
:where([data-esign-kind]:empty) { width: 12em; height: 2em; }
:where([data-esign-kind="sig"]:empty) { width: 16em; height: 3.5em; }
:where([data-esign-kind="ini"]:empty) { width: 5em; height: 2.5em; }
:where([data-esign-kind="chk"]:empty) { width: 1em; height: 1em; }
:where(:is(span, a, b, i, em, strong, u, small, label, font, code)[data-esign-kind]:empty) { display: inline-block; }
`;

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
/** A field element's box in the continuous on-screen layout, in CSS px, and that of its first inner-marker fragment. */
interface DomBox extends Rect {
  i: number;
  shown: boolean;
  inner?: Rect;
}

type Parse5 = typeof import('parse5');

function insideLink(el: El): boolean {
  for (let p: El['parentNode'] = el.parentNode; p && isElement(p); p = p.parentNode) if (p.tagName === 'a') return true;
  return false;
}

function prepare(parse5: Parse5, doc: Doc, sources: FieldSource[], prefix: string): string {
  const { defaultTreeAdapter: tree, html } = parse5;
  // `all: unset` keeps a marker out of the layout: an inline box with inherited text properties.
  const marker = (href: string, extra: { name: string; value: string }[] = []) =>
    tree.createElement('a', html.NS.HTML, [
      { name: 'href', value: href },
      { name: 'style', value: 'all: unset !important' },
      ...extra,
    ]);
  sources.forEach(({ el }, i) => {
    setAttr(el, 'data-esign-field', String(i));
    const parent = el.parentNode;
    if (el.namespaceURI !== html.NS.HTML || !parent || insideLink(el)) return;
    if (!NO_WRAP_SELF.has(el.tagName) && isElement(parent) && !NO_WRAP_IN.has(parent.tagName)) {
      const a = marker(prefix + i);
      tree.insertBefore(parent, a, el);
      tree.detachNode(el);
      tree.appendChild(a, el);
    } else if (!NO_CONTENT.has(el.tagName)) {
      const a = marker(`${prefix}in/${i}`, [{ name: 'data-esign-inner', value: '' }]);
      for (const child of [...el.childNodes]) {
        tree.detachNode(child);
        tree.appendChild(a, child);
      }
      if (!a.childNodes.length) tree.insertText(a, '\u200b'); // something to print, hence a box
      tree.appendChild(el, a);
    }
  });
  const head = [...elements(doc)].find((e) => e.tagName === 'head');
  if (head) {
    const style = tree.createElement('style', html.NS.HTML, []);
    tree.insertText(style, STYLE);
    tree.appendChild(head, style);
  }
  return parse5.serialize(doc);
}

/**
 * Where each field's box landed in the rendered page (its inner box too, where it has one). The
 * function runs in the page, as its source text: it defines no function of its own, which the
 * build's keepNames would wrap in a helper the page does not have ("f is not defined").
 */
const fieldBoxes = (page: Page): Promise<DomBox[]> =>
  page.evaluate((): DomBox[] =>
    Array.from(document.querySelectorAll('[data-esign-field]'), (el) => {
      const own = el.getBoundingClientRect();
      const inner = el.querySelector(':scope > [data-esign-inner]')?.getClientRects()[0];
      return {
        i: Number(el.getAttribute('data-esign-field')),
        shown: el.getClientRects().length > 0,
        x: own.left + window.scrollX,
        y: own.top + window.scrollY,
        w: own.width,
        h: own.height,
        ...(inner && {
          inner: { x: inner.left + window.scrollX, y: inner.top + window.scrollY, w: inner.width, h: inner.height },
        }),
      };
    }),
  );

export async function renderWithChromium(
  parse5: Parse5,
  doc: Doc,
  sources: FieldSource[],
  /** documentUrl: the address the document is served at (tests put it on a local server's origin). */
  opts: { executablePath: string; timeoutMs: number; documentUrl?: string; memoryBytes?: number },
): Promise<RenderResult> {
  const docUrl = opts.documentUrl ?? DOC_URL;
  const prefix = `https://field.esign.invalid/${randomUUID()}/`;
  const body = prepare(parse5, doc, sources, prefix);
  const { chromium } = await import('playwright-core');
  const scratch = await mkdtemp(join(tmpdir(), 'esign-chromium-'));
  const launcher = await boxLauncher(opts.executablePath, {
    scratch,
    memory: { kind: 'data', bytes: opts.memoryBytes ?? CHROMIUM_MEMORY_BYTES },
    extraRo: installDirOf(opts.executablePath),
  }).catch(async (e: Error) => {
    await rm(scratch, { recursive: true, force: true });
    throw new Error(`Chromium could not render the HTML: ${e.message}`);
  });
  const launching = chromium.launch({
    executablePath: launcher.path,
    headless: true,
    // Boxed, it runs as nobody in a user namespace where its own sandbox works: kept on. Unboxed
    // (no working bubblewrap) that sandbox may not start, and it runs as before, --no-sandbox.
    chromiumSandbox: launcher.boxed,
    timeout: opts.timeoutMs,
    // Its environment holds nothing of the server's (keys, data directory).
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, LANG: process.env.LANG ?? 'C.UTF-8' },
    // Requests are answered or refused in the route below; these stop whatever would get past it
    // (preconnects, browser-level fetches): no name resolves, and every connection goes to a dead proxy.
    args: [
      '--host-resolver-rules=MAP * ~NOTFOUND',
      '--proxy-server=http://127.0.0.1:1',
      '--proxy-bypass-list=<-loopback>',
      '--disable-dev-shm-usage',
    ],
  });
  let browser: Awaited<typeof launching> | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = (async () => {
      browser = await launching;
      const context = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: Math.round(CONTENT_W_PX), height: Math.round(CONTENT_H_PT / PX) },
        serviceWorkers: 'block',
        acceptDownloads: false,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(opts.timeoutMs);
      let served = false;
      await context.route('**/*', (route) => {
        const req = route.request();
        if (!served && req.isNavigationRequest() && req.url() === docUrl) {
          served = true;
          return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
        }
        // "No content" keeps the document in place when it tries to navigate away (meta refresh).
        if (req.isNavigationRequest() && req.frame() === page.mainFrame())
          return route.fulfill({ status: 204, body: '' });
        return route.abort('blockedbyclient');
      });
      await page.goto(docUrl, { waitUntil: 'load' });
      await page.emulateMedia({ media: 'print' });
      const dom = await fieldBoxes(page);
      const margin = `${PAGE.margin / 72}in`;
      const pdf = await page.pdf({
        format: 'Letter',
        margin: { top: margin, right: margin, bottom: margin, left: margin },
        printBackground: true,
        preferCSSPageSize: false,
      });
      return { pdf, dom };
    })();
    work.catch(() => {}); // it may fail after the deadline has already decided
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Rendering the HTML took longer than ${duration(opts.timeoutMs)}.`)),
        opts.timeoutMs,
      );
    });
    const { pdf, dom } = await Promise.race([work, deadline]);
    return await place(pdf, dom, prefix, `${new URL(docUrl).origin}/`, sources.length);
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0]!;
    if (msg.startsWith('Rendering the HTML')) throw new Error(msg);
    // Chromium's page dies when the document outgrows the memory its box allows (a 9 MB table does).
    if (/Page crashed|Target crashed/.test(msg))
      throw new Error('The HTML document exceeds the processing limits: Chromium ran out of room rendering it.');
    throw new Error(`Chromium could not render the HTML: ${msg}`);
  } finally {
    clearTimeout(timer);
    const cleanup = () => rm(scratch, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
    if (browser) await browser.close().then(cleanup, cleanup);
    else
      launching
        .then(
          (b) => b.close(),
          () => {},
        )
        .catch(() => {})
        .finally(cleanup);
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
const geometry = (page: number, r: Rect): Geometry => ({
  page,
  x: round(r.x),
  y: round(r.y),
  w: round(r.w),
  h: round(r.h),
});
/** Position in the pages laid end to end (content areas only), in points. */
const flowY = (g: Geometry) => (g.page - 1) * CONTENT_H_PT + g.y - PAGE.margin;

/** Reads and removes the marker links (and the document's relative links, dead outside the browser), and places each field. */
async function place(
  pdf: Buffer,
  dom: DomBox[],
  prefix: string,
  docOrigin: string,
  count: number,
): Promise<RenderResult> {
  const lib = await loadPdfLib();
  const out = await lib.PDFDocument.load(pdf, { updateMetadata: false });
  const marks = new Map<string, Geometry[]>();
  const uriOf = (o: PDFObject | undefined) => {
    const action = o instanceof lib.PDFDict ? o.lookup(lib.PDFName.of('A')) : undefined;
    const uri = action instanceof lib.PDFDict ? action.lookup(lib.PDFName.of('URI')) : undefined;
    return uri instanceof lib.PDFString || uri instanceof lib.PDFHexString ? uri.decodeText() : undefined;
  };
  out.getPages().forEach((page, index) => {
    const annots = page.node.Annots();
    if (!annots) return;
    const keep: PDFObject[] = [];
    for (let k = 0; k < annots.size(); k++) {
      const entry = annots.get(k);
      const dict = out.context.lookup(entry);
      const uri = uriOf(dict);
      const rect = uri?.startsWith(prefix) ? (dict as PDFDict).lookup(lib.PDFName.of('Rect')) : undefined;
      if (!(rect instanceof lib.PDFArray)) {
        if (!uri?.startsWith(docOrigin)) keep.push(entry);
        continue;
      }
      const [x0, y0, x1, y1] = rect.asArray().map((n) => (n instanceof lib.PDFNumber ? n.asNumber() : 0)) as [
        number,
        number,
        number,
        number,
      ];
      const key = uri!.slice(prefix.length);
      marks.set(key, [
        ...(marks.get(key) ?? []),
        {
          page: index + 1,
          x: Math.min(x0, x1),
          y: page.getHeight() - Math.max(y0, y1),
          w: Math.abs(x1 - x0),
          h: Math.abs(y1 - y0),
        },
      ]);
    }
    if (keep.length !== annots.size()) page.node.set(lib.PDFName.of('Annots'), out.context.obj(keep));
  });

  // A link gets a rectangle per line fragment as well as one for the element: the element's has the
  // proportions of the on-screen box (Chromium may print smaller to fit overflowing content, so sizes differ).
  const skew = (g: Geometry, d: DomBox) => Math.abs(g.w / d.w - g.h / d.h);
  const outer = new Map<number, Geometry>();
  const scales: number[] = [];
  for (const d of dom) {
    const best =
      d.w > 0 && d.h > 0
        ? (marks.get(String(d.i)) ?? []).sort((a, b) => skew(a, d) - skew(b, d) || b.w * b.h - a.w * a.h)[0]
        : undefined;
    if (!best) continue;
    outer.set(d.i, best);
    scales.push(best.w / (d.w * PX));
  }
  const scale = scales.sort((a, b) => a - b)[Math.floor(scales.length / 2)] ?? 1;
  const pt = PX * scale;

  const boxes: (Geometry | undefined)[] = [];
  let shift = 0; // how far page breaks moved the last field placed from a marker, in points
  for (let i = 0; i < count; i++) {
    const d = dom.find((b) => b.i === i);
    if (!d?.shown || !(d.w > 0 && d.h > 0)) {
      boxes.push(undefined);
      continue;
    }
    const own = { x: d.x * pt, y: d.y * pt, w: d.w * pt, h: d.h * pt };
    const inner = (marks.get(`in/${i}`) ?? []).sort((a, b) => a.page - b.page || a.y - b.y)[0];
    let box: Geometry;
    if (outer.has(i)) box = geometry(outer.get(i)!.page, outer.get(i)!);
    else if (inner && d.inner)
      box = geometry(inner.page, {
        x: inner.x + (d.x - d.inner.x) * pt,
        y: inner.y + (d.y - d.inner.y) * pt,
        w: own.w,
        h: own.h,
      });
    else {
      const flow = own.y + shift;
      const page = Math.floor(flow / CONTENT_H_PT);
      boxes.push(
        geometry(page + 1, { x: PAGE.margin + own.x, y: PAGE.margin + flow - page * CONTENT_H_PT, w: own.w, h: own.h }),
      );
      continue;
    }
    shift = flowY(box) - own.y;
    boxes.push(box);
  }
  return { pdf: Buffer.from(await out.save()), boxes };
}

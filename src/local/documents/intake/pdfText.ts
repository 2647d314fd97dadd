// Finds literal text in a PDF and returns where it is drawn, with pdfjs-dist (loaded on first use).
import { loadPdfLib } from '../../../lazyImport.js';
import { MAX_PDF_PAGES } from '../../../domain/documentLimits.js';

export interface TextHit {
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDoc = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
type PdfPage = Awaited<ReturnType<PdfDoc['getPage']>>;
type Viewport = ReturnType<PdfPage['getViewport']>;
type Family = 'sans-serif' | 'serif' | 'monospace';

/**
 * Loads the legacy (Node) build and runs its worker on the main thread, so bundling needs no worker file.
 * Its display layer makes a DOMMatrix as it loads, which Node lacks: pdfjs takes one from the native
 * @napi-rs/canvas (33 MB), which it needs only to draw pages. esign reads text and never draws, so
 * the package ships without canvas and lends pdfjs a bare DOMMatrix for the load, taken back after;
 * what pdfjs prints while it loads (that it found no canvas) is silenced: the engine writes nothing
 * to the process's streams.
 */
async function loadPdfjs(): Promise<Pdfjs> {
  pdfjsLoading ??= (async () => {
    const g = globalThis as { DOMMatrix?: unknown; pdfjsWorker?: unknown };
    const lent = g.DOMMatrix === undefined;
    if (lent) g.DOMMatrix = class DOMMatrix {};
    const warn = console.warn;
    console.warn = () => {};
    try {
      const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
      g.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      return pdfjs;
    } finally {
      console.warn = warn;
      if (lent) delete g.DOMMatrix;
    }
  })();
  return pdfjsLoading;
}
let pdfjsLoading: Promise<Pdfjs> | undefined;

/** Opens `pdf` with pdfjs (on a copy: pdfjs may detach the buffer it gets) and always destroys it. */
export async function withPdfjsDocument<T>(pdf: Buffer, use: (doc: PdfDoc) => Promise<T>): Promise<T> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(pdf),
    verbosity: 0,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
  });
  let doc: PdfDoc;
  try {
    doc = await task.promise;
  } catch (e) {
    await task.destroy();
    const err = e as Error;
    throw new Error(
      err.name === 'PasswordException'
        ? 'The PDF is encrypted.'
        : `The PDF is corrupt or unreadable: ${err.message.split('\n')[0]}`,
    );
  }
  try {
    return await use(doc);
  } finally {
    await task.destroy();
  }
}

/**
 * pdfjs gives one width per text item, not per glyph: a match inside an item is located by the
 * relative advance widths of the standard font of the item's family (exact for the standard fonts,
 * close for others).
 */
class Widths {
  private cache = new Map<string, number>();
  private constructor(private fonts: Record<Family, { widthOfTextAtSize(t: string, s: number): number }>) {}

  static async create(): Promise<Widths> {
    const { PDFDocument, StandardFonts } = await loadPdfLib();
    const doc = await PDFDocument.create();
    const [sans, serif, mono] = await Promise.all(
      [StandardFonts.Helvetica, StandardFonts.TimesRoman, StandardFonts.Courier].map((f) => doc.embedFont(f)),
    );
    return new Widths({ 'sans-serif': sans!, serif: serif!, monospace: mono! });
  }

  of(family: Family, ch: string): number {
    const key = family + ch;
    let w = this.cache.get(key);
    if (w === undefined) {
      try {
        w = this.fonts[family].widthOfTextAtSize(ch, 1000);
      } catch {
        w = 556; // outside WinAnsi: an average glyph
      }
      this.cache.set(key, w);
    }
    return w;
  }
}

interface Item {
  str: string;
  o: [number, number];
  u: [number, number]; // unit vector along the baseline
  v: [number, number]; // unit vector towards the ascent
  size: number;
  width: number;
  t: number; // position along the baseline
  p: number; // position across it
  angle: number;
  ascent: number;
  descent: number;
  family: Family;
}

/** Every non-overlapping occurrence of `search` (literal, case-sensitive), page by page, top-left-origin points. */
export async function findTextInPdf(pdf: Buffer, search: string): Promise<TextHit[]> {
  return (await findTextsInPdf(pdf, [search]))[0]!;
}

/** findTextInPdf for each of `searches`, with the text of each page extracted once for all of them. */
export async function findTextsInPdf(pdf: Buffer, searches: readonly string[]): Promise<TextHit[][]> {
  if (searches.some((s) => !s)) throw new Error('The search text is empty.');
  const widths = await Widths.create();
  return withPdfjsDocument(pdf, async (doc) => {
    const hits: TextHit[][] = searches.map(() => []);
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PDF_PAGES); n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      for (const line of await linesOf(page))
        searches.forEach((search, k) => hits[k]!.push(...findInLine(line, search, n, viewport, widths)));
      page.cleanup();
    }
    return hits;
  });
}

async function linesOf(page: PdfPage): Promise<Item[][]> {
  const content = await page.getTextContent();
  const items: Item[] = [];
  for (const raw of content.items) {
    if (!('str' in raw) || raw.str === '') continue;
    const [a, b, c, d, e, f] = raw.transform as number[];
    const along = Math.hypot(a!, b!);
    const size = Math.hypot(c!, d!);
    if (!along || !size) continue;
    const u: [number, number] = [a! / along, b! / along];
    const style = content.styles[raw.fontName];
    const family: Family =
      style?.fontFamily === 'serif' || style?.fontFamily === 'monospace' ? style.fontFamily : 'sans-serif';
    items.push({
      str: raw.str,
      o: [e!, f!],
      u,
      v: [c! / size, d! / size],
      size,
      width: raw.width,
      t: e! * u[0] + f! * u[1],
      p: -e! * u[1] + f! * u[0],
      angle: Math.round((Math.atan2(b!, a!) * 180) / Math.PI),
      ascent: style?.ascent || 0.8,
      descent: style?.descent || -0.2,
      family,
    });
  }
  items.sort((x, y) => x.angle - y.angle || x.p - y.p);
  const lines: Item[][] = [];
  for (const it of items) {
    const line = lines.at(-1);
    const last = line?.at(-1);
    if (
      line &&
      last &&
      last.angle === it.angle &&
      Math.abs(it.p - last.p) <= Math.max(1, 0.2 * Math.min(it.size, last.size))
    )
      line.push(it);
    else lines.push([it]);
  }
  for (const line of lines) line.sort((x, y) => x.t - y.t);
  return lines;
}

/** Where each character of the joined line comes from: an item and an index in it, or a gap. */
type Source = { item: Item; index: number } | { gapAfter: Item; gapBefore: Item };

function findInLine(line: Item[], search: string, page: number, viewport: Viewport, widths: Widths): TextHit[] {
  let text = '';
  const src: Source[] = [];
  for (let i = 0; i < line.length; i++) {
    const it = line[i]!;
    const prev = line[i - 1];
    if (prev) {
      const gap = it.t - (prev.t + prev.width);
      // Separate drawing operations with visible space between them read as separate words.
      if (gap > 0.15 * it.size && !/\s$/.test(prev.str) && !/^\s/.test(it.str)) {
        text += ' ';
        src.push({ gapAfter: prev, gapBefore: it });
      }
    }
    for (let k = 0; k < it.str.length; k++) src.push({ item: it, index: k });
    text += it.str;
  }
  const hits: TextHit[] = [];
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, at + search.length)) {
    const first = src[at]!;
    const last = src[at + search.length - 1]!;
    // A match that begins or ends on an inserted space spans the gap up to the next or previous item.
    const start =
      'item' in first ? offset(first.item, first.index, widths) : { item: first.gapAfter, t: first.gapAfter.width };
    const end = 'item' in last ? offset(last.item, last.index + 1, widths) : { item: last.gapBefore, t: 0 };
    hits.push(box(start, end, page, viewport));
  }
  return hits;
}

/** Distance from an item's origin to the start of its character `index`, along the baseline. */
function offset(item: Item, index: number, widths: Widths): { item: Item; t: number } {
  let before = 0;
  let total = 0;
  for (let k = 0; k < item.str.length; k++) {
    const w = widths.of(item.family, item.str[k]!);
    if (k < index) before += w;
    total += w;
  }
  return { item, t: total ? (item.width * before) / total : (item.width * index) / item.str.length };
}

function box(
  start: { item: Item; t: number },
  end: { item: Item; t: number },
  page: number,
  viewport: Viewport,
): TextHit {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const { item, t } of [start, end])
    for (const lift of [item.ascent * item.size, item.descent * item.size]) {
      const px = item.o[0] + item.u[0] * t + item.v[0] * lift;
      const py = item.o[1] + item.u[1] * t + item.v[1] * lift;
      const [vx, vy] = viewport.convertToViewportPoint(px, py) as [number, number];
      xs.push(vx);
      ys.push(vy);
    }
  const r = (n: number) => Math.round(n * 100) / 100;
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { page, x: r(x), y: r(y), w: r(Math.max(...xs) - x), h: r(Math.max(...ys) - y) };
}

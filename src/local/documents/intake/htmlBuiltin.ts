// A small HTML-to-PDF renderer on pdf-lib's standard fonts, for when Chromium is not installed.
// It knows paragraphs, headings, bold/italic/monospace runs, line breaks, lists, simple tables
// (bordered, equal columns), data: URI images and form elements (drawn as boxes); no CSS beyond
// inline width/height and display:none. Text wraps at spaces, and pages break between lines and
// table rows.
import type { PDFDocument, PDFFont, PDFImage } from 'pdf-lib';
import { loadPdfLib } from '../../../lazyImport.js';
import type { FieldSource, Geometry, RenderResult } from './renderTypes.js';
import {
  type ChildNode,
  type Doc,
  type El,
  PAGE,
  attr,
  duration,
  elements,
  isElement,
  isHidden,
  isText,
  styleLength,
  textOf,
} from './htmlDom.js';

type FontKey = 'R' | 'B' | 'I' | 'BI' | 'M' | 'MB';
interface Style {
  bold: boolean;
  italic: boolean;
  mono: boolean;
  size: number;
}

/** Something to draw, relative to the top-left corner of its row (text: y is the baseline). */
type Draw =
  | { t: 'text'; x: number; y: number; text: string; font: FontKey; size: number; gray: number }
  | { t: 'rect'; x: number; y: number; w: number; h: number; round?: boolean }
  | { t: 'line'; x: number; y: number; x2: number; y2: number }
  | { t: 'image'; x: number; y: number; w: number; h: number; image: PDFImage }
  | { t: 'field'; i: number; x: number; y: number; w: number; h: number };

/** A line, table row or vertical gap: what a page break never splits. Gaps vanish at the top of a page. */
interface Row {
  h: number;
  draws: Draw[];
  gap?: boolean;
  baseline?: number;
}

type Atom =
  | { t: 'word'; text: string; s: Style }
  | { t: 'space'; s: Style }
  | { t: 'br'; s: Style }
  | { t: 'box'; w: number; h: number; s: Style; draws: Draw[] };

const CONTENT_W = PAGE.width - 2 * PAGE.margin;
const CONTENT_H = PAGE.height - 2 * PAGE.margin;
const BASE: Style = { bold: false, italic: false, mono: false, size: 12 };
const ASCENT = 0.86; // of the font size, half-leading included (line height 1.2)
const DESCENT = 0.34;
const INDENT = 27;
const CELL_PAD = 4;

const SKIP = new Set([
  'head',
  'script',
  'style',
  'template',
  'title',
  'meta',
  'link',
  'base',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'canvas',
  'video',
  'audio',
  'map',
  'datalist',
  'option',
  'optgroup',
]);
const BLOCKS = new Set([
  'html',
  'body',
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'nav',
  'aside',
  'form',
  'fieldset',
  'legend',
  'address',
  'figure',
  'figcaption',
  'center',
  'details',
  'summary',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
]);
const HEADING_SIZE: Record<string, number> = { h1: 24, h2: 18, h3: 14, h4: 12, h5: 10, h6: 8 };
const MARGIN: Record<string, number> = {
  p: 12,
  h1: 16,
  h2: 15,
  h3: 14,
  h4: 12,
  h5: 12,
  h6: 12,
  blockquote: 12,
  pre: 12,
  dl: 12,
  figure: 12,
  hr: 6,
};
/** Letters that Unicode does not decompose into a WinAnsi letter and an accent. */
const FOLD: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', ĸ: 'k', Ŧ: 'T', ŧ: 't' };
/** Width and height in points, by field kind. */
type Sizes = Record<string, [number, number]>;
const KIND_SIZE: Sizes = { sig: [180, 45], ini: [60, 36], chk: [11, 11], txt: [220, 45], dat: [100, 18] };

export async function renderBuiltin(
  doc: Doc,
  sources: FieldSource[],
  opts: { timeoutMs: number },
): Promise<RenderResult> {
  const lib = await loadPdfLib();
  const pdf = await lib.PDFDocument.create();
  const S = lib.StandardFonts;
  const names: Record<FontKey, string> = {
    R: S.Helvetica,
    B: S.HelveticaBold,
    I: S.HelveticaOblique,
    BI: S.HelveticaBoldOblique,
    M: S.Courier,
    MB: S.CourierBold,
  };
  const fonts = {} as Record<FontKey, PDFFont>;
  for (const k of Object.keys(names) as FontKey[]) fonts[k] = await pdf.embedFont(names[k]);
  const images = await embedImages(pdf, doc);
  const layout = new Layout(
    fonts,
    images,
    new Map(sources.map((s, i) => [s.el, i])),
    Date.now() + opts.timeoutMs,
    opts.timeoutMs,
  );
  const rows = layout.block(doc.childNodes, CONTENT_W, BASE);

  // Pagination: rows go down the page; one that does not fit starts the next page.
  const pages: { row: Row; top: number }[][] = [[]];
  let y = 0;
  for (const row of rows) {
    if (row.gap && (y === 0 || y + row.h > CONTENT_H)) continue;
    if (y + row.h > CONTENT_H && y > 0) {
      pages.push([]);
      y = 0;
    }
    pages.at(-1)!.push({ row, top: y });
    y += row.h;
  }
  const boxes: (Geometry | undefined)[] = sources.map(() => undefined);
  const black = lib.grayscale(0);
  pages.forEach((placed, index) => {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    const X = (x: number) => PAGE.margin + x;
    const Y = (top: number) => PAGE.height - PAGE.margin - top; // top-left flow position to PDF y
    for (const { row, top } of placed)
      for (const d of row.draws) {
        if (d.t === 'text')
          page.drawText(d.text, {
            x: X(d.x),
            y: Y(top + d.y),
            size: d.size,
            font: fonts[d.font],
            color: lib.grayscale(d.gray),
          });
        else if (d.t === 'rect' && d.round)
          page.drawEllipse({
            x: X(d.x + d.w / 2),
            y: Y(top + d.y + d.h / 2),
            xScale: d.w / 2,
            yScale: d.h / 2,
            borderColor: black,
            borderWidth: 0.75,
          });
        else if (d.t === 'rect')
          page.drawRectangle({
            x: X(d.x),
            y: Y(top + d.y + d.h),
            width: d.w,
            height: d.h,
            borderColor: black,
            borderWidth: 0.75,
          });
        else if (d.t === 'line')
          page.drawLine({
            start: { x: X(d.x), y: Y(top + d.y) },
            end: { x: X(d.x2), y: Y(top + d.y2) },
            thickness: 0.75,
            color: black,
          });
        else if (d.t === 'image')
          page.drawImage(d.image, { x: X(d.x), y: Y(top + d.y + d.h), width: d.w, height: d.h });
        else if (d.t === 'field') {
          const r = (n: number) => Math.round(n * 100) / 100;
          boxes[d.i] = { page: index + 1, x: r(X(d.x)), y: r(PAGE.margin + top + d.y), w: r(d.w), h: r(d.h) };
        }
      }
  });
  return { pdf: Buffer.from(await pdf.save()), boxes };
}

async function embedImages(pdf: PDFDocument, doc: Doc): Promise<Map<string, PDFImage>> {
  const out = new Map<string, PDFImage>();
  for (const el of elements(doc)) {
    const src = el.tagName === 'img' ? attr(el, 'src')?.trim() : undefined;
    const m = src && /^data:image\/(png|jpe?g);base64,([\s\S]*)$/i.exec(src);
    if (!m || out.has(src)) continue;
    try {
      const bytes = Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64');
      out.set(src, m[1]!.toLowerCase() === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes));
    } catch {
      // an unreadable image shows its alt text instead
    }
  }
  return out;
}

class Layout {
  private readonly charsets: Record<FontKey, Set<number>>;
  private readonly widths = new Map<string, number>();

  constructor(
    private readonly fonts: Record<FontKey, PDFFont>,
    private readonly images: Map<string, PDFImage>,
    private readonly fieldIndex: Map<El, number>,
    private readonly deadline: number,
    private readonly timeoutMs: number,
  ) {
    this.charsets = Object.fromEntries(
      Object.entries(fonts).map(([k, f]) => [k, new Set(f.getCharacterSet())]),
    ) as Record<FontKey, Set<number>>;
  }

  private fontOf(s: Style): FontKey {
    if (s.mono) return s.bold ? 'MB' : 'M';
    return s.bold ? (s.italic ? 'BI' : 'B') : s.italic ? 'I' : 'R';
  }

  /** The text with every character the standard font cannot encode replaced (accents dropped where that is enough). */
  private clean(text: string, key: FontKey): string {
    const set = this.charsets[key];
    let out = '';
    for (const ch of text) {
      if (set.has(ch.codePointAt(0)!)) out += ch;
      else if (/[\u2010-\u2015\u2212]/.test(ch)) out += '-';
      else if (FOLD[ch] && set.has(FOLD[ch].codePointAt(0)!)) out += FOLD[ch];
      else if (/\s/.test(ch)) out += ' ';
      else {
        const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
        out += base && [...base].every((c) => set.has(c.codePointAt(0)!)) ? base : '?';
      }
    }
    return out;
  }

  /** Width of text already cleaned; per character, as drawText does not kern. */
  private width(text: string, s: Style): number {
    const key = this.fontOf(s);
    let w = 0;
    for (const ch of text) {
      let cw = this.widths.get(key + ch);
      if (cw === undefined) {
        cw = this.fonts[key].widthOfTextAtSize(ch, 1);
        this.widths.set(key + ch, cw);
      }
      w += cw * s.size;
    }
    return w;
  }

  /** Lays out `nodes` as the content of a block `width` wide. */
  block(nodes: ChildNode[], width: number, style: Style, pre = false): Row[] {
    const rows: Row[] = [];
    let atoms: Atom[] = [];
    const flush = () => {
      if (atoms.some((a) => a.t !== 'space')) rows.push(...this.lines(atoms, width));
      atoms = [];
    };
    const gap = (h: number) => {
      const last = rows.at(-1);
      if (last?.gap) last.h = Math.max(last.h, h);
      else if (h > 0) rows.push({ h, draws: [], gap: true });
    };
    const nested = (children: Row[], dx: number) => rows.push(...children.map((r) => shift(r, dx)));

    const walk = (node: ChildNode, s: Style, inPre: boolean) => {
      if (Date.now() > this.deadline)
        throw new Error(`Rendering the HTML took longer than ${duration(this.timeoutMs)}.`);
      if (isText(node)) return this.words(node.value, s, inPre, atoms);
      if (!isElement(node) || SKIP.has(node.tagName) || isHidden(node)) return;
      const el = node;
      const tag = el.tagName;
      const box = this.control(el, s, width);
      if (box) {
        const own = BLOCKS.has(tag); // a block-level field keeps a line of its own
        if (own) flush();
        atoms.push(box);
        if (own) flush();
        return;
      }
      if (tag === 'br') return void atoms.push({ t: 'br', s });
      if (tag === 'img') return this.image(el, s, width, atoms);
      const inner: Style = {
        bold: s.bold || /^(b|strong|th|h[1-6]|dt)$/.test(tag),
        italic: s.italic || /^(i|em|cite|var|dfn|address)$/.test(tag),
        mono: s.mono || /^(code|kbd|samp|tt|pre)$/.test(tag),
        size:
          HEADING_SIZE[tag] ?? (/^(small|sub|sup)$/.test(tag) ? s.size * 0.83 : tag === 'big' ? s.size * 1.2 : s.size),
      };
      if (!BLOCKS.has(tag)) return el.childNodes.forEach((c) => walk(c, inner, inPre));
      flush();
      const margin =
        tag === 'ul' || tag === 'ol'
          ? el.parentNode && isElement(el.parentNode) && el.parentNode.tagName === 'li'
            ? 0
            : 12
          : (MARGIN[tag] ?? 0);
      gap(margin);
      if (tag === 'ul' || tag === 'ol') rows.push(...this.list(el, width, inner));
      else if (tag === 'table') rows.push(...this.table(el, width, inner));
      else if (tag === 'hr') rows.push({ h: 1, draws: [{ t: 'line', x: 0, y: 0.5, x2: width, y2: 0.5 }] });
      else if (tag === 'blockquote' || tag === 'dd' || tag === 'figure')
        nested(this.block(el.childNodes, width - 2 * INDENT, inner, inPre), INDENT);
      else el.childNodes.forEach((c) => walk(c, inner, inPre || tag === 'pre'));
      flush();
      gap(margin);
    };
    nodes.forEach((n) => walk(n, style, pre));
    flush();
    return rows;
  }

  private words(text: string, s: Style, pre: boolean, atoms: Atom[]): void {
    const key = this.fontOf(s);
    if (pre) {
      text.split('\n').forEach((line, i) => {
        if (i) atoms.push({ t: 'br', s });
        if (line) atoms.push({ t: 'word', text: this.clean(line.replace(/\t/g, '    '), key), s });
      });
      return;
    }
    for (const part of text.split(/([ \t\n\f\r]+)/)) {
      if (!part) continue;
      if (/^[ \t\n\f\r]+$/.test(part)) {
        const last = atoms.at(-1);
        if (last && last.t !== 'space' && last.t !== 'br') atoms.push({ t: 'space', s });
      } else atoms.push({ t: 'word', text: this.clean(part, key), s });
    }
  }

  /** Breaks atoms into lines `width` wide: at spaces, around boxes, and inside words longer than a line. */
  private lines(atoms: Atom[], width: number): Row[] {
    type Placed = { atom: Exclude<Atom, { t: 'space' | 'br' }>; x: number; w: number; spaceBefore: boolean };
    const rows: Row[] = [];
    let line: Placed[] = [];
    let x = 0;
    let pendingSpace: Style | undefined;
    let lastStyle: Style = atoms[0]?.s ?? BASE;
    const end = () => {
      rows.push(this.row(line, lastStyle));
      line = [];
      x = 0;
      pendingSpace = undefined;
    };
    // Words glued without a space (e.g. "Sig<b>nature</b>") wrap as one.
    const chunks: { parts: Atom[]; space?: Style; br?: boolean }[] = [];
    let cur: Atom[] = [];
    let space: Style | undefined;
    for (const a of atoms) {
      if ((a.t === 'space' || a.t === 'br' || a.t === 'box' || cur.at(-1)?.t === 'box') && cur.length) {
        chunks.push({ parts: cur, space });
        cur = [];
        space = undefined;
      }
      if (a.t === 'space') space = a.s;
      else if (a.t === 'br') chunks.push({ parts: [a], br: true });
      else cur.push(a);
    }
    if (cur.length) chunks.push({ parts: cur, space });

    for (const chunk of chunks) {
      if (chunk.br) {
        lastStyle = chunk.parts[0]!.s;
        end();
        continue;
      }
      const parts = chunk.parts as Placed['atom'][];
      const widthOf = (a: Placed['atom']) => (a.t === 'box' ? Math.min(a.w, width) : this.width(a.text, a.s));
      const total = parts.reduce((sum, a) => sum + widthOf(a), 0);
      const sp = line.length && chunk.space ? this.width(' ', chunk.space) : 0;
      if (line.length && x + sp + total > width) end();
      pendingSpace = line.length ? chunk.space : undefined;
      for (const a of parts) {
        let w = widthOf(a);
        if (a.t === 'word' && x + w > width) {
          // Longer than what is left of an empty line: cut by characters.
          let rest = a.text;
          while (rest && x + this.width(rest, a.s) > width) {
            let n = 1;
            while (n < rest.length && x + this.width(rest.slice(0, n + 1), a.s) <= width) n++;
            if (line.length && x + this.width(rest.slice(0, n), a.s) > width) {
              end();
              continue;
            }
            line.push({
              atom: { ...a, text: rest.slice(0, n) },
              x,
              w: this.width(rest.slice(0, n), a.s),
              spaceBefore: false,
            });
            rest = rest.slice(n);
            lastStyle = a.s;
            end();
          }
          if (!rest) continue;
          const piece = { ...a, text: rest };
          w = this.width(rest, a.s);
          line.push({ atom: piece, x, w, spaceBefore: false });
          x += w;
          lastStyle = a.s;
          continue;
        }
        const before = pendingSpace ? this.width(' ', pendingSpace) : 0;
        line.push({ atom: a, x: x + before, w, spaceBefore: Boolean(pendingSpace) });
        x += before + w;
        pendingSpace = undefined;
        lastStyle = a.s;
      }
    }
    if (line.length) end();
    return rows;
  }

  /** One line: height from its tallest text and boxes; words of one style merged into one text run. */
  private row(
    line: { atom: Exclude<Atom, { t: 'space' | 'br' }>; x: number; w: number; spaceBefore: boolean }[],
    fallback: Style,
  ): Row {
    let ascent = 0;
    let descent = 0;
    const texts = line.filter((p) => p.atom.t === 'word');
    for (const p of texts.length ? texts : [{ atom: { s: fallback } }]) {
      ascent = Math.max(ascent, ASCENT * p.atom.s.size);
      descent = Math.max(descent, DESCENT * p.atom.s.size);
    }
    for (const p of line) if (p.atom.t === 'box') ascent = Math.max(ascent, p.atom.h - 2);
    descent = Math.max(descent, line.some((p) => p.atom.t === 'box') ? 3 : 0);
    const draws: Draw[] = [];
    let run: Extract<Draw, { t: 'text' }> | undefined;
    for (const p of line) {
      const a = p.atom;
      if (a.t === 'box') {
        run = undefined;
        const top = ascent + 2 - a.h;
        draws.push(...a.draws.map((d) => move(d, p.x, top)));
        continue;
      }
      const font = this.fontOf(a.s);
      if (run && run.font === font && run.size === a.s.size) run.text += (p.spaceBefore ? ' ' : '') + a.text;
      else {
        run = { t: 'text', x: p.x, y: ascent, text: a.text, font, size: a.s.size, gray: 0 };
        draws.push(run);
      }
    }
    return { h: ascent + descent, draws, baseline: ascent };
  }

  private image(el: El, s: Style, width: number, atoms: Atom[]): void {
    const image = this.images.get(attr(el, 'src')?.trim() ?? '');
    if (!image) {
      const alt = attr(el, 'alt')?.trim();
      if (alt) this.words(alt, s, false, atoms);
      return;
    }
    const num = (name: string) => {
      const v = Number(attr(el, name));
      return v > 0 ? v * 0.75 : undefined;
    };
    let w = styleLength(el, 'width') ?? num('width');
    let h = styleLength(el, 'height') ?? num('height');
    if (w === undefined && h === undefined) [w, h] = [image.width * 0.75, image.height * 0.75];
    else if (w === undefined) w = (h! * image.width) / image.height;
    else if (h === undefined) h = (w * image.height) / image.width;
    const scale = Math.min(1, width / w!, CONTENT_H / 2 / h!);
    const [iw, ih] = [w! * scale, h! * scale];
    atoms.push({ t: 'box', w: iw, h: ih, s, draws: [{ t: 'image', x: 0, y: 0, w: iw, h: ih, image }] });
  }

  /** A form element or field annotation as a box (with what it shows), or undefined for other elements. */
  private control(el: El, s: Style, width: number): Extract<Atom, { t: 'box' }> | undefined {
    const field = this.fieldIndex.get(el);
    const kind = attr(el, 'data-esign-kind')?.trim().toLowerCase();
    const tag = el.tagName;
    const type = (attr(el, 'type') ?? 'text').trim().toLowerCase();
    if (field === undefined && kind === undefined && !['input', 'textarea', 'select', 'button'].includes(tag))
      return undefined;
    let [w, h] = KIND_SIZE[kind ?? ''] ?? [150, 18];
    let text = '';
    let gray = 0;
    let mark: 'check' | 'radio' | undefined;
    if (kind) text = textOf(el);
    else if (tag === 'textarea') {
      const cols = Number(attr(el, 'cols')) || 0;
      const rowsN = Number(attr(el, 'rows')) || 0;
      [w, h] = [cols ? cols * 6 + 8 : 220, rowsN ? rowsN * 13 + 6 : 45];
      text = el.childNodes.map((n) => (isText(n) ? n.value : '')).join('');
    } else if (tag === 'select') {
      const opts = [...elements(el)].filter((o) => o.tagName === 'option');
      const shown = opts.find((o) => attr(o, 'selected') !== undefined) ?? opts[0];
      text = shown ? textOf(shown) : '';
      w = Math.min(
        300,
        Math.max(60, ...opts.map((o) => this.width(this.clean(textOf(o), 'R'), { ...BASE, size: 10 }) + 24)),
      );
    } else if (tag === 'button' || ['submit', 'reset', 'button'].includes(type)) {
      text = tag === 'button' ? textOf(el) : (attr(el, 'value') ?? (type === 'reset' ? 'Reset' : 'Submit'));
      w = this.width(this.clean(text, 'R'), { ...BASE, size: 10 }) + 16;
    } else if (type === 'checkbox' || type === 'radio') {
      [w, h] = [11, 11];
      if (attr(el, 'checked') !== undefined) mark = type === 'radio' ? 'radio' : 'check';
    } else {
      if (type === 'date') w = 100;
      const size = Number(attr(el, 'size'));
      if (size > 0) w = size * 6 + 8;
      text = attr(el, 'value') ?? '';
      if (!text && attr(el, 'placeholder')) [text, gray] = [attr(el, 'placeholder')!, 0.55];
    }
    w = Math.min(styleLength(el, 'width') ?? w, width);
    h = Math.min(styleLength(el, 'height') ?? h, CONTENT_H / 2);
    const round = !kind && type === 'radio' && tag === 'input';
    const draws: Draw[] = [{ t: 'rect', x: 0, y: 0, w, h, round }];
    if (mark === 'check')
      draws.push({ t: 'line', x: 2, y: 2, x2: w - 2, y2: h - 2 }, { t: 'line', x: 2, y: h - 2, x2: w - 2, y2: 2 });
    if (mark === 'radio') draws.push({ t: 'rect', x: w / 3, y: h / 3, w: w / 3, h: h / 3, round: true });
    // What the element shows: its value, options or content, in small type, cut to fit.
    const size = Math.min(10, h - 4);
    if (text && size >= 4) {
      const fit = (line: string) => {
        let t = this.clean(line.replace(/\s+/g, ' ').trim(), 'R');
        while (t && this.width(t, { ...BASE, size }) > w - 6) t = t.slice(0, -1);
        return t;
      };
      const lines = text
        .split('\n')
        .map(fit)
        .filter(Boolean)
        .slice(0, Math.max(1, Math.floor((h - 4) / (size * 1.2))));
      // One line in a one-line box sits in the middle; more start at the top.
      const first = lines.length === 1 && h < 3 * size ? (h + 0.7 * size) / 2 : 2 + 0.9 * size;
      lines.forEach((line, k) =>
        draws.push({
          t: 'text',
          x: 3,
          y: first + 1.2 * size * k,
          text: line,
          font: 'R',
          size,
          gray: kind ? 0.45 : gray,
        }),
      );
    }
    if (field !== undefined) draws.push({ t: 'field', i: field, x: 0, y: 0, w, h });
    return { t: 'box', w, h, s, draws };
  }

  private list(el: El, width: number, s: Style): Row[] {
    const ordered = el.tagName === 'ol';
    let n = ordered ? Number(attr(el, 'start')) || 1 : 0;
    const rows: Row[] = [];
    for (const child of el.childNodes) {
      if (isElement(child) && child.tagName === 'li' && !isHidden(child)) {
        const items = this.block(child.childNodes, width - INDENT, s).map((r) => shift(r, INDENT));
        const marker = this.clean(ordered ? `${n++}.` : '\u2022', this.fontOf(s));
        let first = items.find((r) => r.baseline !== undefined);
        if (!first) {
          first = { h: (ASCENT + DESCENT) * s.size, draws: [], baseline: ASCENT * s.size };
          items.unshift(first);
        }
        first.draws.unshift({
          t: 'text',
          x: INDENT - 5 - this.width(marker, s),
          y: first.baseline!,
          text: marker,
          font: this.fontOf(s),
          size: s.size,
          gray: 0,
        });
        const field = this.fieldIndex.get(child);
        if (field !== undefined)
          first.draws.push({ t: 'field', i: field, x: INDENT, y: 0, w: width - INDENT, h: first.h });
        rows.push(...items);
      } else if (isElement(child) || (isText(child) && child.value.trim())) rows.push(...this.block([child], width, s));
    }
    return rows;
  }

  /** Bordered rows of equal-width columns; a row taller than a page is laid out cell after cell instead. */
  private table(el: El, width: number, s: Style): Row[] {
    const trs: El[] = [];
    for (const c of el.childNodes) {
      if (!isElement(c) || isHidden(c)) continue;
      if (c.tagName === 'tr') trs.push(c);
      else if (/^(thead|tbody|tfoot)$/.test(c.tagName))
        for (const r of c.childNodes) if (isElement(r) && r.tagName === 'tr' && !isHidden(r)) trs.push(r);
    }
    const cellsOf = (tr: El) =>
      tr.childNodes.filter((c): c is El => isElement(c) && (c.tagName === 'td' || c.tagName === 'th') && !isHidden(c));
    const span = (c: El) => Math.max(1, Math.floor(Number(attr(c, 'colspan')) || 1));
    const cols = Math.max(1, ...trs.map((tr) => cellsOf(tr).reduce((n, c) => n + span(c), 0)));
    const colW = width / cols;
    const rows: Row[] = [];
    for (const tr of trs) {
      let col = 0;
      const cells = cellsOf(tr).map((c) => {
        const x = col * colW;
        const w = Math.min(span(c), cols - col) * colW;
        col += span(c);
        const content = trimGaps(
          this.block(c.childNodes, Math.max(1, w - 2 * CELL_PAD), c.tagName === 'th' ? { ...s, bold: true } : s),
        );
        return { el: c, x, w, content, h: content.reduce((sum, r) => sum + r.h, 0) + 2 * CELL_PAD };
      });
      if (!cells.length) continue;
      const h = Math.max(...cells.map((c) => c.h), (ASCENT + DESCENT) * s.size + 2 * CELL_PAD);
      if (h > CONTENT_H) {
        for (const c of cells) rows.push(...c.content.map((r) => shift(r, c.x + CELL_PAD)));
        continue;
      }
      const draws: Draw[] = [];
      for (const c of cells) {
        draws.push({ t: 'rect', x: c.x, y: 0, w: c.w, h });
        const field = this.fieldIndex.get(c.el);
        if (field !== undefined) draws.push({ t: 'field', i: field, x: c.x, y: 0, w: c.w, h });
        let y = CELL_PAD;
        for (const r of c.content) {
          draws.push(...r.draws.map((d) => move(d, c.x + CELL_PAD, y)));
          y += r.h;
        }
      }
      rows.push({ h, draws });
    }
    return rows;
  }
}

function move(d: Draw, dx: number, dy: number): Draw {
  return d.t === 'line'
    ? { ...d, x: d.x + dx, y: d.y + dy, x2: d.x2 + dx, y2: d.y2 + dy }
    : { ...d, x: d.x + dx, y: d.y + dy };
}

const shift = (r: Row, dx: number): Row => ({ ...r, draws: r.draws.map((d) => move(d, dx, 0)) });

function trimGaps(rows: Row[]): Row[] {
  let a = 0;
  let b = rows.length;
  while (a < b && rows[a]!.gap) a++;
  while (b > a && rows[b - 1]!.gap) b--;
  return rows.slice(a, b);
}

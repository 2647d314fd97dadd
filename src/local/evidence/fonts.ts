// The fonts evidence is drawn with: every name, label and value as given, in any script. Noto Sans
// (Latin, Greek, Cyrillic, Vietnamese) first, then Noto fonts for Arabic, Hebrew, Thai, Devanagari
// and CJK, chosen per run of text; each font embedded as a subset of the glyphs drawn. Right-to-left
// runs are put in visual order (Unicode bidi), and shaped (Arabic joining) by fontkit.
// CJK (Japanese with the Chinese face), Thai and Devanagari come from Fontsource's variable fonts, cut in chunks by Unicode range
// (a whole CJK font is 8 MB or more per weight): only the chunks a text needs are read, unpacked
// from WOFF2 and instanced at the weight wanted.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Color, PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import * as lazy from '../../lazyImport.js';

const { loadPdfLib } = lazy;
/** fontkit's `create`, whichever shape the module has where it runs. */
async function loadFontkit(): Promise<{ create(data: Uint8Array): unknown }> {
  const m = await lazy.loadFontkit();
  return typeof m.create === 'function' ? m : m.default!;
}
async function loadWawoff2(): Promise<{ decompress(data: Uint8Array): Promise<Uint8Array> }> {
  const m = await lazy.loadWawoff2();
  return typeof m.decompress === 'function' ? m : m.default!;
}
const loadBidi = lazy.loadBidi;

export type Style = 'regular' | 'bold' | 'italic' | 'mono';
type Weight = 400 | 700;

/** What fontkit gives for a font: the part of its interface used here and by pdf-lib. */
interface KitFont {
  hasGlyphForCodePoint(cp: number): boolean;
  variationAxes: Record<string, unknown>;
  getVariation(settings: Record<string, number>): KitFont;
  createSubset(): { encode(): Uint8Array; encodeStream?: () => unknown };
  layout(text: string, features?: unknown): GlyphRun;
  glyphsForString(text: string): { codePoints: number[] }[];
}

/**
 * Text that needs OpenType shaping: right-to-left and Indic scripts, Thai, combining marks. Other
 * text (composed Latin, Greek, Cyrillic, CJK) maps a character to a glyph, several times faster
 * (pdf-lib draws no kerning or mark positions either way).
 */
const SHAPED = /[\u0590-\u08ff\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\ufb1d-\ufdff\ufe70-\ufeff]|\p{M}/u;

interface GlyphRun {
  direction: string;
  glyphs: { codePoints: number[] }[];
}

const flipped = new WeakSet<object>();
/**
 * A reader puts a right-to-left run back in reading order by reversing what each glyph stands for:
 * a ligature (Arabic lam-alef) must then stand for its letters backwards, or they come back swapped.
 */
function rtlLigatures(run: GlyphRun): GlyphRun {
  if (run.direction !== 'rtl') return run;
  for (const g of run.glyphs)
    if (g.codePoints.length > 1 && !flipped.has(g)) {
      g.codePoints = [...g.codePoints].reverse();
      flipped.add(g);
    }
  return run;
}

interface Face {
  key: string;
  /** The fontkit font of `bytes`, once read (a chunked face has one per chunk). */
  font: KitFont;
  bytes: Uint8Array;
  /** Turned off for Noto Sans: with `ccmp` it draws "ị" as "i" and a dot, which reads back as "i". */
  features?: Record<string, boolean>;
  /** The font's name in the PDF, when not its own. */
  name?: string;
}

const require_ = createRequire(import.meta.url);
/**
 * A font package's folder: the copy the build made beside the bundle (dist/fonts, only the files read
 * here: the packages are not installed with esign), else the package itself (the sources, in tests).
 */
function packageDir(pkg: string): string {
  const built = fileURLToPath(new URL(`./fonts/${pkg}`, import.meta.url));
  if (existsSync(built)) return built;
  // Font packages export no package.json: up from their main entry.
  let dir = dirname(require_.resolve(pkg));
  while (!dir.endsWith(pkg.split('/').join('/')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

// fontkit's fonts, kept for the process: pdf-lib asks for one by its bytes (registerFontkit below).
const parsed = new WeakMap<Uint8Array, KitFont>();
const faces = new Map<string, Promise<Face | null>>();

async function staticFace(key: string, pkg: string, file: string, features?: Record<string, boolean>) {
  const fontkit = await loadFontkit();
  const bytes = readFileSync(join(packageDir(pkg), file));
  const font = fontkit.create(bytes) as unknown as KitFont;
  parsed.set(bytes, font);
  return { key, font, bytes, features };
}

interface ChunkMap {
  id: string;
  family: string;
  dir: string;
  /** [first, last, subset], sorted by first code point. */
  ranges: [number, number, string][];
}
const chunkMaps = new Map<string, ChunkMap>();

function chunkMap(pkg: string): ChunkMap {
  let map = chunkMaps.get(pkg);
  if (map) return map;
  const dir = packageDir(pkg);
  const meta = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as { id: string; family: string };
  const unicode = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
  const ranges: [number, number, string][] = [];
  for (const [subset, list] of Object.entries(unicode))
    for (const r of list.split(',')) {
      const [a, b] = r.trim().replace(/^U\+/i, '').split('-');
      ranges.push([Number.parseInt(a!, 16), Number.parseInt(b ?? a!, 16), subset.replace(/^\[|\]$/g, '')]);
    }
  ranges.sort((x, y) => x[0] - y[0]);
  map = { id: meta.id, family: meta.family, dir, ranges };
  chunkMaps.set(pkg, map);
  return map;
}

function subsetOf(map: ChunkMap, cp: number): string | undefined {
  let lo = 0;
  let hi = map.ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b, s] = map.ranges[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return s;
  }
  return undefined;
}

async function chunkFace(pkg: string, subset: string, weight: Weight): Promise<Face | null> {
  const map = chunkMap(pkg);
  const [fontkit, woff2] = await Promise.all([loadFontkit(), loadWawoff2()]);
  const file = join(map.dir, 'files', `${map.id}-${subset}-wght-normal.woff2`);
  const ttf = await woff2.decompress(readFileSync(file));
  let font = fontkit.create(Buffer.from(ttf)) as unknown as KitFont;
  // A variable font's default instance is its lightest; fontkit re-draws each glyph at the weight.
  if (font.variationAxes?.wght) font = font.getVariation({ wght: weight });
  const bytes = new Uint8Array(ttf);
  parsed.set(bytes, font);
  // Named for the weight drawn, not the variable font's default (Thin).
  const family = map.family.replace(/[^A-Za-z0-9]/g, '');
  return {
    key: `${pkg}#${subset}@${weight}`,
    font,
    bytes,
    name: `${family}-${weight === 700 ? 'Bold' : 'Regular'}-${subset}`,
  };
}

function cached(key: string, make: () => Promise<Face | null>): Promise<Face | null> {
  let f = faces.get(key);
  if (!f) {
    f = make().catch(() => null);
    faces.set(key, f);
  }
  return f;
}

const LATIN = '@embedpdf/fonts-latin';
const weightOf = (style: Style): Weight => (style === 'bold' ? 700 : 400);

/** The fonts tried in turn for a style: static faces are always there; chunked ones by code point. */
const chain = (style: Style) => {
  const bold = style === 'bold';
  const latinFile = { regular: 'Regular', mono: 'Regular', bold: 'Bold', italic: 'Italic' }[style];
  const noCcmp = { ccmp: false };
  return {
    statics: [
      () =>
        cached(`latin-${latinFile}`, () =>
          staticFace(`latin-${latinFile}`, LATIN, `fonts/NotoSans-${latinFile}.ttf`, noCcmp),
        ),
      () =>
        cached(`arabic-${bold}`, () =>
          staticFace(
            `arabic-${bold}`,
            '@embedpdf/fonts-arabic',
            `fonts/NotoNaskhArabic-${bold ? 'Bold' : 'Regular'}.ttf`,
          ),
        ),
      () =>
        cached(`hebrew-${bold}`, () =>
          staticFace(
            `hebrew-${bold}`,
            '@embedpdf/fonts-hebrew',
            `fonts/NotoSansHebrew-${bold ? 'Bold' : 'Regular'}.ttf`,
          ),
        ),
    ],
    chunked: [
      '@fontsource-variable/noto-sans-thai',
      '@fontsource-variable/noto-sans-devanagari',
      // Japanese kana and kanji too: a Japanese face would add 5.5 MB to the package for glyph shapes.
      '@fontsource-variable/noto-sans-sc',
      '@fontsource-variable/noto-sans-kr',
    ],
  };
};

async function faceFor(cp: number, style: Style): Promise<Face | null> {
  const c = chain(style);
  for (const load of c.statics) {
    const f = await load();
    if (f?.font.hasGlyphForCodePoint(cp)) return f;
  }
  for (const pkg of c.chunked) {
    let subset: string | undefined;
    try {
      subset = subsetOf(chunkMap(pkg), cp);
    } catch {
      continue; // not installed: the next font may have it
    }
    if (!subset) continue;
    const w = weightOf(style);
    const f = await cached(`${pkg}#${subset}@${w}`, () => chunkFace(pkg, subset, w));
    if (f?.font.hasGlyphForCodePoint(cp)) return f;
  }
  return null;
}

/** pdf-lib's door to fontkit: the fonts already read, and the subset call it expects of fontkit 1. */
const kit = {
  async create(bytes: Uint8Array) {
    const font = parsed.get(bytes) ?? ((await loadFontkit()).create(Buffer.from(bytes)) as unknown as KitFont);
    return new Proxy(font, {
      get(target, prop, receiver) {
        if (prop === 'layout')
          return (text: string, features?: unknown): GlyphRun =>
            SHAPED.test(text)
              ? rtlLigatures(target.layout(text, features))
              : { direction: 'ltr', glyphs: target.glyphsForString(text) };
        if (prop !== 'createSubset') return Reflect.get(target, prop, receiver);
        return () => {
          const subset = target.createSubset() as ReturnType<KitFont['createSubset']> & { glyphEncoder?: unknown };
          // fontkit 2 cannot write the outlines of a variable font's instance (its encoder passes a
          // length where a buffer is wanted): ours writes them.
          if ((target as { _variationProcessor?: unknown })._variationProcessor)
            subset.glyphEncoder = { encodeSimple: simpleGlyph };
          subset.encodeStream = () => {
            const data = subset.encode();
            const listeners: Record<string, (x?: unknown) => void> = {};
            const stream = {
              on(event: string, fn: (x?: unknown) => void) {
                listeners[event] = fn;
                if (listeners.data && listeners.end)
                  queueMicrotask(() => {
                    listeners.data!(data);
                    listeners.end!();
                  });
                return stream;
              },
            };
            return stream;
          };
          return subset;
        };
      },
    });
  },
};

interface GlyphPath {
  commands: { command: string; args: number[] }[];
}

/**
 * A TrueType simple glyph (the `glyf` entry) drawing `path`: one contour per moveTo, quadratic
 * control points off the curve, every coordinate a 16-bit delta, no hinting; padded to 4 bytes.
 */
function simpleGlyph(path: GlyphPath): Uint8Array {
  const pts: { x: number; y: number; on: boolean }[] = [];
  const ends: number[] = [];
  const endContour = () => {
    if (pts.length && (ends.at(-1) ?? -1) < pts.length - 1) ends.push(pts.length - 1);
  };
  const at = (x: number, y: number, on: boolean) => pts.push({ x: Math.round(x), y: Math.round(y), on });
  for (const c of path.commands) {
    const a = c.args;
    if (c.command === 'closePath') endContour();
    else if (c.command === 'moveTo') {
      endContour();
      at(a[0]!, a[1]!, true);
    } else if (c.command === 'lineTo') at(a[0]!, a[1]!, true);
    else if (c.command === 'quadraticCurveTo') {
      at(a[0]!, a[1]!, false);
      at(a[2]!, a[3]!, true);
    } else if (c.command === 'bezierCurveTo') at(a[4]!, a[5]!, true);
  }
  endContour();
  if (!pts.length) return new Uint8Array(0);
  const n = pts.length;
  const size = 10 + 2 * ends.length + 2 + n + 4 * n;
  const out = new Uint8Array(size + ((4 - (size % 4)) % 4));
  const v = new DataView(out.buffer);
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  [ends.length, Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].forEach((h, i) => {
    v.setInt16(i * 2, h);
  });
  let o = 10;
  for (const e of ends) {
    v.setUint16(o, e);
    o += 2;
  }
  v.setUint16(o, 0); // no instructions
  o += 2;
  for (const p of pts) out[o++] = p.on ? 1 : 0;
  for (const axis of [xs, ys]) {
    let last = 0;
    for (const c of axis) {
      v.setInt16(o, c - last);
      last = c;
      o += 2;
    }
  }
  return out;
}

const isMark = (ch: string) => /\p{M}/u.test(ch);
const isNeutral = (ch: string) => !/[\p{L}\p{M}]/u.test(ch);
const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;

interface Run {
  text: string;
  font: PDFFont;
}

/**
 * Draws text in every script into one PDF document. `load()` a text before measuring or drawing
 * it: it reads and embeds the fonts the text needs (the rest stays synchronous).
 */
export class Typesetter {
  private readonly embedded = new Map<string, PDFFont>();
  private readonly choice = new Map<string, Face | null>();
  /** Runs and widths (at size 1) already worked out: wrapping measures the same text again and again. */
  private readonly runCache = new Map<string, Run[]>();
  private readonly widths = new Map<PDFFont, Map<string, number>>();
  private mono?: PDFFont;
  private fallback!: PDFFont;

  private constructor(private readonly doc: PDFDocument) {}

  static async create(doc: PDFDocument): Promise<Typesetter> {
    const lib = await loadPdfLib();
    doc.registerFontkit(kit as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
    await loadBidiEngine();
    const t = new Typesetter(doc);
    t.mono = await doc.embedFont(lib.StandardFonts.Courier);
    await t.load('', 'regular');
    return t;
  }

  /** Noto Sans, regular: for what every font has (an "X" in a check box). */
  get primary(): PDFFont {
    return this.fallback;
  }

  /** Reads and embeds the fonts `text` needs in this style. */
  async load(text: string, style: Style): Promise<void> {
    const primary = await chain(style).statics[0]!();
    if (primary) await this.embed(primary);
    if (style === 'regular' && primary) this.fallback = this.embedded.get(primary.key)!;
    for (const ch of new Set(clean(text))) {
      const k = `${style}:${ch}`;
      if (this.choice.has(k)) continue;
      const face = await faceFor(ch.codePointAt(0)!, style);
      this.choice.set(k, face);
      if (face) await this.embed(face);
    }
  }

  private async embed(face: Face): Promise<void> {
    if (this.embedded.has(face.key)) return;
    const font = await this.doc.embedFont(face.bytes, { subset: true, features: face.features, customName: face.name });
    this.embedded.set(face.key, font);
  }

  private fontOf(ch: string, style: Style): PDFFont | undefined {
    if (style === 'mono' && this.mono && /^[\x20-\x7e]$/.test(ch)) return this.mono;
    const face = this.choice.get(`${style === 'mono' ? 'regular' : style}:${ch}`);
    return face ? this.embedded.get(face.key) : undefined;
  }

  /** The runs of `text` in the order they are drawn, left to right, each with its font. */
  private runs(text: string, style: Style): Run[] {
    const key = `${style}\u0000${text}`;
    let runs = this.runCache.get(key);
    if (!runs) {
      runs = this.makeRuns(text, style);
      if (this.runCache.size > 5000) this.runCache.clear();
      this.runCache.set(key, runs);
    }
    return runs;
  }

  private unitWidth(font: PDFFont, text: string): number {
    let m = this.widths.get(font);
    if (!m) this.widths.set(font, (m = new Map()));
    let w = m.get(text);
    if (w === undefined) {
      w = font.widthOfTextAtSize(text, 1);
      if (m.size > 5000) m.clear();
      m.set(text, w);
    }
    return w;
  }

  private makeRuns(text: string, style: Style): Run[] {
    const s = clean(text);
    if (!s) return [];
    const chars = [...s];
    // Each character's font: a mark or a space stays with the font before it when that font has it.
    const fonts: PDFFont[] = [];
    chars.forEach((ch, i) => {
      const own = this.fontOf(ch, style) ?? this.fallback;
      const prev = fonts[i - 1];
      const keep = prev && own !== prev && (isMark(ch) || isNeutral(ch)) && fontHas(prev, ch);
      fonts.push(keep ? prev : own);
    });
    const { levels, order } = visualOrder(s, chars);
    const runs: { idx: number[]; font: PDFFont; level: number }[] = [];
    for (const i of order) {
      const last = runs[runs.length - 1];
      const prevIdx = last?.idx[last.idx.length - 1];
      const step = levels[i]! % 2 ? -1 : 1;
      if (last && last.font === fonts[i] && last.level === levels[i] && prevIdx === i - step) last.idx.push(i);
      else runs.push({ idx: [i], font: fonts[i]!, level: levels[i]! });
    }
    return runs.map((r) => {
      const logical = r.level % 2 ? [...r.idx].reverse() : r.idx;
      let t = logical.map((i) => chars[i]).join('');
      // fontkit puts a right-to-left script's glyphs in visual order itself; anything else we do.
      if (r.level % 2 && !RTL_SCRIPT.test(t)) t = [...t].reverse().map(mirror).join('');
      return { text: t, font: r.font };
    });
  }

  width(text: string, size: number, style: Style = 'regular'): number {
    return this.runs(text, style).reduce((w, r) => w + this.unitWidth(r.font, r.text) * size, 0);
  }

  draw(page: PDFPage, text: string, o: { x: number; y: number; size: number; style?: Style; color?: Color }): void {
    let x = o.x;
    for (const r of this.runs(text, o.style ?? 'regular')) {
      page.drawText(r.text, { x, y: o.y, size: o.size, font: r.font, color: o.color });
      x += this.unitWidth(r.font, r.text) * o.size;
    }
  }

  /**
   * `text` in lines no wider than `width` (a word wider than a line is cut). Widths add up word by
   * word: glyphs are drawn at their advances, and no shaping joins across a space.
   */
  wrap(text: string, size: number, width: number, style: Style = 'regular'): string[] {
    const lines: string[] = [];
    const space = this.width(' ', size, style);
    for (const paragraph of clean(text, true).split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (let word of paragraph.split(/ +/)) {
        let w = this.width(word, size, style);
        if (line && lineWidth + space + w <= width) {
          line = `${line} ${word}`;
          lineWidth += space + w;
          continue;
        }
        if (line) lines.push(line);
        while (w > width && [...word].length > 1) {
          const cs = [...word];
          let cut = cs.length - 1;
          while (cut > 1 && this.width(cs.slice(0, cut).join(''), size, style) > width) cut--;
          lines.push(cs.slice(0, cut).join(''));
          word = cs.slice(cut).join('');
          w = this.width(word, size, style);
        }
        line = word;
        lineWidth = w;
      }
      lines.push(line);
    }
    return lines;
  }
}

/** Text as drawn: composed (NFC), tabs and returns as spaces, line breaks kept only if asked. */
function clean(text: string, keepBreaks = false): string {
  const s = text.normalize('NFC').replace(/[\r\t]/g, ' ');
  return keepBreaks ? s : s.replace(/\n/g, ' ');
}

const characterSets = new WeakMap<PDFFont, Set<number> | null>();
function fontHas(font: PDFFont, ch: string): boolean {
  let set = characterSets.get(font);
  if (set === undefined) {
    try {
      set = new Set(font.getCharacterSet());
    } catch {
      set = null;
    }
    characterSets.set(font, set);
  }
  return set?.has(ch.codePointAt(0)!) ?? false;
}

interface Bidi {
  getEmbeddingLevels(s: string): { levels: Uint8Array; paragraphs: unknown[] };
  getReorderSegments(s: string, levels: unknown): [number, number][];
  getMirroredCharacter(c: string): string | null;
}
let engine: Bidi | undefined;

async function loadBidiEngine(): Promise<void> {
  engine ??= ((await loadBidi()).default as unknown as () => Bidi)();
}

const mirror = (ch: string) => engine?.getMirroredCharacter(ch) ?? ch;

/** Each character's bidi level and the order of character indices left to right. */
function visualOrder(s: string, chars: string[]): { levels: number[]; order: number[] } {
  const order = chars.map((_, i) => i);
  if (!engine || !RTL_SCRIPT.test(s)) return { levels: chars.map(() => 0), order };
  const e = engine.getEmbeddingLevels(s);
  // bidi-js counts UTF-16 units; map them to characters.
  const unitToChar: number[] = [];
  chars.forEach((c, i) => {
    for (let k = 0; k < c.length; k++) unitToChar.push(i);
  });
  const levels = chars.map(() => 0);
  e.levels.forEach((lv, u) => {
    levels[unitToChar[u]!] = lv;
  });
  const units = [...Array(s.length).keys()];
  for (const [a, b] of engine.getReorderSegments(s, e)) {
    const seg = units.slice(a, b + 1).reverse();
    units.splice(a, seg.length, ...seg);
  }
  const seen = new Set<number>();
  const charOrder: number[] = [];
  for (const u of units) {
    const c = unitToChar[u]!;
    if (!seen.has(c)) {
      seen.add(c);
      charOrder.push(c);
    }
  }
  return { levels, order: charOrder };
}

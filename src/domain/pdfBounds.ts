// Bounds on what a PDF can make a parser count, checked before it is walked: one pass over the bytes
// (objects, cross-reference entries, nesting, inflated bytes), then the page tree walked once with
// every node seen at most once. pdf-lib and pdfjs trust these counts (a 775-byte xref stream claiming
// 2,000,000,000 entries, a 2.4 KB page tree with 20^8 leaves); here they are refused with a reason.
import { constants, inflateSync } from 'node:zlib';
import type { PDFDocument } from 'pdf-lib';
import {
  MAX_INFLATED_BYTES,
  MAX_PAGE_TREE_NODES,
  MAX_PDF_NESTING,
  MAX_PDF_OBJECTS,
  MAX_PDF_PAGES,
  MAX_XREF_ENTRIES,
} from './documentLimits.js';

/** The first words of every refusal over a limit (the sandbox's kills say the same). */
export const OVER_LIMITS = 'The PDF exceeds the processing limits:';
const over = (what: string) => `${OVER_LIMITS} ${what}.`;
const n = (x: number) => x.toLocaleString('en-US');
const MALFORMED = 'The PDF is corrupt or unreadable:';

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (c: number | undefined) => c !== undefined && !WHITE.has(c) && !DELIM.has(c);
const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const ENDSTREAM = Buffer.from('endstream', 'latin1');
/** How far back from `stream` its dictionary is read for its filter and type. */
const DICT_WINDOW = 64 * 1024;

/** Why `data` must not be parsed (a count over its limit), or undefined. Linear in its size. */
export function prescanPdf(data: Uint8Array): string | undefined {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let objects = 0;
  let xrefEntries = 0;
  let inflated = 0;
  let depth = 0;
  let lastObjEnd = 0;
  let i = 0;
  const len = buf.length;
  const skipWhite = () => {
    while (i < len && WHITE.has(buf[i]!)) i++;
  };
  /** A non-negative integer at i (advancing past it), or undefined (i unchanged). */
  const readInt = (): number | undefined => {
    skipWhite();
    const start = i;
    while (isDigit(buf[i])) i++;
    if (i === start) return undefined;
    return Number(buf.toString('latin1', start, Math.min(i, start + 16)));
  };
  while (i < len) {
    const c = buf[i]!;
    if (c === 0x25) {
      // a comment, to the end of its line
      while (i < len && buf[i] !== 0x0a && buf[i] !== 0x0d) i++;
    } else if (c === 0x28) {
      // a literal string: balanced parentheses, backslash escapes
      let open = 0;
      for (; i < len; i++) {
        const s = buf[i]!;
        if (s === 0x5c) i++;
        else if (s === 0x28) open++;
        else if (s === 0x29 && --open === 0) break;
      }
      i++;
    } else if (c === 0x3c && buf[i + 1] === 0x3c) {
      if (++depth > MAX_PDF_NESTING) return over(`its objects nest deeper than ${MAX_PDF_NESTING} levels`);
      i += 2;
    } else if (c === 0x3c) {
      const end = buf.indexOf(0x3e, i);
      i = end < 0 ? len : end + 1;
    } else if (c === 0x3e && buf[i + 1] === 0x3e) {
      depth = Math.max(0, depth - 1);
      i += 2;
    } else if (c === 0x5b) {
      if (++depth > MAX_PDF_NESTING) return over(`its objects nest deeper than ${MAX_PDF_NESTING} levels`);
      i++;
    } else if (c === 0x5d) {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (c === 0x2f) {
      const start = ++i;
      while (isRegular(buf[i])) i++;
      const name = buf.toString('latin1', start, i);
      if (name === 'Index') {
        skipWhite();
        if (buf[i] !== 0x5b) continue;
        i++;
        for (let k = 0; ; k++) {
          const v = readInt();
          if (v === undefined) break;
          if (k % 2 === 1) xrefEntries += v;
        }
      } else if (name === 'Size') {
        const v = readInt();
        if (v !== undefined && v > MAX_XREF_ENTRIES)
          return over(`its cross-reference table claims ${n(v)} entries (at most ${n(MAX_XREF_ENTRIES)})`);
      }
      if (xrefEntries > MAX_XREF_ENTRIES)
        return over(`its cross-reference streams claim ${n(xrefEntries)} entries (at most ${n(MAX_XREF_ENTRIES)})`);
    } else if (isRegular(c)) {
      const start = i;
      while (isRegular(buf[i])) i++;
      const word = buf.toString('latin1', start, Math.min(i, start + 10));
      if (word === 'obj') {
        lastObjEnd = i;
        if (++objects > MAX_PDF_OBJECTS) return over(`it has more than ${n(MAX_PDF_OBJECTS)} objects`);
      } else if (word === 'xref') {
        // classic subsections: "first count" then count entries of (nominally) 20 bytes
        for (;;) {
          const at = i;
          const first = readInt();
          const count = first === undefined ? undefined : readInt();
          if (count === undefined) {
            i = at;
            break;
          }
          xrefEntries += count;
          if (xrefEntries > MAX_XREF_ENTRIES)
            return over(`its cross-reference table has ${n(xrefEntries)} entries (at most ${n(MAX_XREF_ENTRIES)})`);
          i = Math.min(len, i + count * 20);
        }
      } else if (word === 'stream') {
        if (buf[i] === 0x0d) i++;
        if (buf[i] === 0x0a) i++;
        const end = buf.indexOf(ENDSTREAM, i);
        const stop = end < 0 ? len : end;
        const dict = buf.toString('latin1', Math.max(lastObjEnd, start - DICT_WINDOW), start);
        const problem = streamProblem(dict, buf.subarray(i, stop), MAX_INFLATED_BYTES - inflated);
        if (typeof problem === 'string') return problem;
        inflated += problem.inflated;
        objects += problem.objects;
        if (objects > MAX_PDF_OBJECTS) return over(`it has more than ${n(MAX_PDF_OBJECTS)} objects`);
        i = end < 0 ? len : end + ENDSTREAM.length;
        depth = 0; // a stream ends its object
      }
    } else i++;
  }
  return undefined;
}

/** A Flate stream inflated within `budget` bytes: its size, and the objects it holds if it is an object stream. */
function streamProblem(dict: string, raw: Buffer, budget: number): string | { inflated: number; objects: number } {
  const objects = /\/Type\s*\/ObjStm\b/.test(dict) ? Number(/\/N\s+(\d{1,12})/.exec(dict)?.[1] ?? 0) : 0;
  if (!/\/Filter\s*\[?\s*\/(?:FlateDecode|Fl)\b/.test(dict)) return { inflated: 0, objects };
  try {
    const out = inflateSync(raw, { maxOutputLength: Math.max(1, budget), finishFlush: constants.Z_SYNC_FLUSH });
    return { inflated: out.length, objects };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError)
      return over(`its compressed streams inflate to more than ${n(MAX_INFLATED_BYTES / 1024 / 1024)} MB`);
    return { inflated: 0, objects }; // not Flate after all: the parser judges it
  }
}

/**
 * The pages of a loaded document, counted by walking its page tree with each node visited once:
 * a node reached twice (a DAG or a cycle) is refused as malformed, and the walk stops at the caps.
 */
export function countPages(lib: typeof import('pdf-lib'), doc: PDFDocument): number | { problem: string } {
  const { PDFDict, PDFArray, PDFName, PDFRef } = lib;
  const root = doc.context.trailerInfo.Root;
  const catalog = root && doc.context.lookup(root);
  if (!(catalog instanceof PDFDict)) return { problem: `${MALFORMED} it has no document catalog (/Root).` };
  const PAGES = PDFName.of('Pages');
  const KIDS = PDFName.of('Kids');
  const TYPE = PDFName.of('Type');
  const stack: unknown[] = [catalog.get(PAGES)];
  const seen = new Set<unknown>();
  let nodes = 0;
  let pages = 0;
  while (stack.length) {
    const entry = stack.pop();
    // pdf-lib makes one PDFRef per object number, so the reference itself is the node's identity.
    const node = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
    if (!(node instanceof PDFDict))
      return { problem: `${MALFORMED} its page tree has a node that is not a dictionary.` };
    if (seen.has(node))
      return { problem: `${MALFORMED} its page tree reaches a node twice (a cycle or a shared node).` };
    seen.add(node);
    if (++nodes > MAX_PAGE_TREE_NODES)
      return { problem: over(`its page tree has more than ${n(MAX_PAGE_TREE_NODES)} nodes`) };
    if (node.get(TYPE) === PAGES) {
      const kids = node.lookup(KIDS);
      if (!(kids instanceof PDFArray)) return { problem: `${MALFORMED} a page tree node has no /Kids.` };
      for (let k = kids.size() - 1; k >= 0; k--) stack.push(kids.get(k));
    } else if (++pages > MAX_PDF_PAGES) return { problem: over(`it has more than ${n(MAX_PDF_PAGES)} pages`) };
  }
  return pages;
}

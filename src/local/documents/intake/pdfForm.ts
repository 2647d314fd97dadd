// AcroForm fields of an uploaded PDF (to turn them into e-signature fields), and a flattener that
// keeps their look but drops them, so the converted fields are not there twice.
import type { PDFArray, PDFDocument, PDFField, PDFStream } from 'pdf-lib';
import { loadPdfLib } from '../../../lazyImport.js';

export interface PdfFormField {
  name: string;
  kind: 'inp' | 'txt' | 'chk' | 'sel' | 'sig';
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  value?: string;
  required?: boolean;
}

type PdfLib = typeof import('pdf-lib');
type Box = { x: number; y: number; width: number; height: number };

const HIDDEN = 1 << 1; // annotation flag "Hidden" (PDF 32000-1, 12.5.3)

async function open(pdf: Buffer): Promise<{ lib: PdfLib; doc: PDFDocument }> {
  const lib = await loadPdfLib();
  try {
    const doc = await lib.PDFDocument.load(pdf, { updateMetadata: false });
    doc.getPages(); // pdf-lib loads leniently: a file without a page tree fails only here
    return { lib, doc };
  } catch (e) {
    const err = e as Error;
    throw new Error(
      err instanceof lib.EncryptedPDFError
        ? 'The PDF is encrypted.'
        : `The PDF is corrupt or unreadable: ${err.message.split('\n')[0]}`,
    );
  }
}

/**
 * A rectangle in PDF user space as the page is shown: top-left origin of the crop box, after the
 * page's /Rotate (the same frame as pdfjs viewports at scale 1).
 */
function toTopLeft(r: Box, crop: Box, rotation: number): Box {
  const x0 = Math.min(r.x, r.x + r.width) - crop.x;
  const y0 = Math.min(r.y, r.y + r.height) - crop.y;
  const w = Math.abs(r.width);
  const h = Math.abs(r.height);
  switch (((rotation % 360) + 360) % 360) {
    case 90:
      return { x: y0, y: x0, width: h, height: w };
    case 180:
      return { x: crop.width - x0 - w, y: y0, width: w, height: h };
    case 270:
      return { x: crop.height - y0 - h, y: crop.width - x0 - w, width: h, height: w };
    default:
      return { x: x0, y: crop.height - y0 - h, width: w, height: h };
  }
}

function kindOf(lib: PdfLib, f: PDFField): { kind: PdfFormField['kind']; value?: string } | undefined {
  if (f instanceof lib.PDFTextField) return { kind: f.isMultiline() ? 'txt' : 'inp', value: f.getText() || undefined };
  if (f instanceof lib.PDFCheckBox) return { kind: 'chk', value: f.isChecked() ? 'true' : undefined };
  if (f instanceof lib.PDFDropdown || f instanceof lib.PDFOptionList) return { kind: 'sel', value: f.getSelected()[0] };
  if (f instanceof lib.PDFSignature) return { kind: 'sig' };
  return undefined; // radio groups and push buttons have no counterpart
}

/** One entry per visible widget (a field shown on two pages is listed twice), in field order. */
export async function formFieldsOfPdf(pdf: Buffer): Promise<PdfFormField[]> {
  const { lib, doc } = await open(pdf);
  const pages = doc.getPages();
  const pageOf = new Map<unknown, number>();
  pages.forEach((p, i) => {
    const annots = p.node.Annots();
    for (let k = 0; annots && k < annots.size(); k++) pageOf.set(doc.context.lookup(annots.get(k)), i);
  });
  if (!doc.catalog.has(lib.PDFName.of('AcroForm'))) return [];
  const out: PdfFormField[] = [];
  for (const field of doc.getForm().getFields()) {
    const kind = kindOf(lib, field);
    if (!kind) continue;
    for (const widget of field.acroField.getWidgets()) {
      const index = pageOf.get(widget.dict);
      const rect = widget.getRectangle();
      if (index === undefined || widget.hasFlag(HIDDEN) || !rect.width || !rect.height) continue;
      const page = pages[index]!;
      const b = toTopLeft(rect, page.getCropBox(), page.getRotation().angle);
      const r = (n: number) => Math.round(n * 100) / 100;
      out.push({
        name: field.getName(),
        kind: kind.kind,
        page: index + 1,
        x: r(b.x),
        y: r(b.y),
        w: r(b.width),
        h: r(b.height),
        ...(kind.value !== undefined && { value: kind.value }),
        ...(field.isRequired() && { required: true }),
      });
    }
  }
  return out;
}

/**
 * Draws each visible widget's current normal appearance into its page, then removes all widgets and
 * the AcroForm. Done by hand rather than with pdf-lib's form.flatten(), which throws on widgets
 * without an appearance (usual for unsigned signature fields), ignores the appearance's BBox and
 * Matrix, and leaves the widgets of multi-widget fields in the page's annotations.
 */
export async function flattenForm(pdf: Buffer): Promise<Buffer> {
  const { lib, doc } = await open(pdf);
  const { PDFName, PDFDict, PDFArray, PDFNumber, PDFRef, PDFStream } = lib;
  const ctx = doc.context;
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!annots) continue;
    const keep: ReturnType<typeof annots.get>[] = [];
    for (let k = 0; k < annots.size(); k++) {
      const entry = annots.get(k);
      const dict = ctx.lookup(entry);
      if (!(dict instanceof PDFDict) || dict.get(PDFName.of('Subtype')) !== PDFName.of('Widget')) {
        keep.push(entry);
        continue;
      }
      const flags = dict.lookup(PDFName.of('F'));
      if (flags instanceof PDFNumber && flags.asNumber() & HIDDEN) continue;
      // The normal appearance is a stream, or a dictionary of streams keyed by state (/AS).
      const ap = dict.lookup(PDFName.of('AP'));
      let n = ap instanceof PDFDict ? ap.get(PDFName.of('N')) : undefined;
      const states = n && ctx.lookup(n);
      if (states instanceof PDFDict) {
        const state = dict.get(PDFName.of('AS'));
        n = state instanceof PDFName ? states.get(state) : undefined;
      }
      const stream = n && ctx.lookup(n);
      const rect = dict.lookup(PDFName.of('Rect'));
      if (!(stream instanceof PDFStream) || !(rect instanceof PDFArray)) continue;
      const ref = n instanceof PDFRef ? n : ctx.register(stream);
      const m = placement(lib, stream, rect);
      if (!m) continue;
      if (!stream.dict.has(PDFName.of('Subtype'))) stream.dict.set(PDFName.of('Subtype'), PDFName.of('Form'));
      const name = page.node.newXObject('FlatWidget', ref);
      page.pushOperators(
        lib.pushGraphicsState(),
        lib.concatTransformationMatrix(...m),
        lib.drawObject(name),
        lib.popGraphicsState(),
      );
    }
    page.node.set(PDFName.of('Annots'), ctx.obj(keep));
  }
  doc.catalog.delete(PDFName.of('AcroForm'));
  return Buffer.from(await doc.save());
}

/**
 * The matrix that puts an appearance stream into its annotation rectangle (PDF 32000-1, 12.5.5):
 * its BBox, transformed by its Matrix, is scaled and moved onto Rect.
 */
function placement(
  lib: PdfLib,
  stream: PDFStream,
  rect: PDFArray,
): [number, number, number, number, number, number] | undefined {
  const nums = (v: unknown, len: number) => {
    if (!(v instanceof lib.PDFArray) || v.size() !== len) return undefined;
    const a = v.asArray().map((x) => (x instanceof lib.PDFNumber ? x.asNumber() : NaN));
    return a.every(Number.isFinite) ? a : undefined;
  };
  const r = nums(rect, 4);
  const bbox = nums(stream.dict.lookup(lib.PDFName.of('BBox')), 4);
  if (!r || !bbox) return undefined;
  const [a, b, c, d, e, f] = nums(stream.dict.lookup(lib.PDFName.of('Matrix')), 6) ?? [1, 0, 0, 1, 0, 0];
  const corners = [
    [bbox[0]!, bbox[1]!],
    [bbox[2]!, bbox[1]!],
    [bbox[0]!, bbox[3]!],
    [bbox[2]!, bbox[3]!],
  ].map(([x, y]) => [a! * x! + c! * y! + e!, b! * x! + d! * y! + f!]);
  const xs = corners.map((p) => p[0]!);
  const ys = corners.map((p) => p[1]!);
  const [bx0, bx1, by0, by1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const [rx0, rx1, ry0, ry1] = [
    Math.min(r[0]!, r[2]!),
    Math.max(r[0]!, r[2]!),
    Math.min(r[1]!, r[3]!),
    Math.max(r[1]!, r[3]!),
  ];
  if (bx1 === bx0 || by1 === by0) return undefined;
  const sx = (rx1 - rx0) / (bx1 - bx0);
  const sy = (ry1 - ry0) / (by1 - by0);
  return [sx, 0, 0, sy, rx0 - bx0 * sx, ry0 - by0 * sy];
}

// The files a completed Bundle produces, drawn with pdf-lib: each document with its values and
// signatures, all of them combined, and a Certificate of Evidence per signer. Output depends only
// on the input (dates come from the Bundle, not the wall clock), so the same Bundle gives the same bytes.
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import type { StoredField } from '../bundles/fields.js';
import { loadPdfLib } from '../../lazyImport.js';

export interface EvidenceDocument {
  key: string;
  name: string;
  pdf: Buffer;
  sha256: string;
  fields: StoredField[];
}

export interface EvidenceValue {
  doc_key: string;
  field_key: string;
  value: string;
  packet_id: string | null;
  filled_by: string;
}

export interface EvidencePacket {
  id: string;
  key: string;
  name: string;
  email: string | null;
  phone: string | null;
  deliver_via: string;
  order: number;
  auth_sms: boolean;
  auth_selfie: boolean;
  auth_id: boolean;
  last_accessed_at: string | null;
  completed_at: string | null;
}

export interface EvidenceBundle {
  id: string;
  label: string;
  is_test: boolean;
  created: string;
  sent: string | null;
  /** Completion time; for an interim copy, the time it was made. */
  completed_at: string;
  requester_name: string;
  requester_email: string;
  events: { kind: string; description: string; timestamp: string; packet_id?: string | null }[];
}

type PdfLib = typeof import('pdf-lib');

const characterSets = new WeakMap<PDFFont, Set<number>>();

/** Standard fonts speak WinAnsi only: anything else becomes "?" instead of failing the Bundle. */
function safeText(font: PDFFont, text: string): string {
  let supported = characterSets.get(font);
  if (!supported) characterSets.set(font, (supported = new Set(font.getCharacterSet())));
  return [...text.replace(/[\r\t]/g, ' ')]
    .map((c) => (c === '\n' || supported.has(c.codePointAt(0)!) ? c : '?'))
    .join('');
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of safeText(font, text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
      else {
        lines.push(line);
        line = word;
      }
      // A single word wider than the line is cut.
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

function setDates(doc: PDFDocument, title: string, at: string): void {
  const when = new Date(at);
  doc.setTitle(title);
  doc.setProducer('esign local engine');
  doc.setCreator('esign');
  doc.setCreationDate(when);
  doc.setModificationDate(when);
}

/**
 * One document with every value drawn in its field's box, and a footer naming the Bundle on each
 * page (an interim copy says so instead).
 */
export async function signedPdf(
  bundle: EvidenceBundle,
  d: EvidenceDocument,
  values: EvidenceValue[],
  interim = false,
): Promise<Buffer> {
  const lib = await loadPdfLib();
  let doc = await lib.PDFDocument.load(d.pdf, { updateMetadata: false });
  // A signed document is final: form fields keep their look but can no longer be edited.
  if (doc.getForm().getFields().length) {
    try {
      doc.getForm().flatten();
    } catch {
      // pdf-lib cannot flatten some forms (signature fields without an appearance): the thorough way.
      const { flattenForm } = await import('../documents/intake/pdfForm.js');
      doc = await lib.PDFDocument.load(await flattenForm(d.pdf), { updateMetadata: false });
    }
  }
  const [regular, script] = await Promise.all([
    doc.embedFont(lib.StandardFonts.Helvetica),
    doc.embedFont(lib.StandardFonts.TimesRomanItalic),
  ]);
  const pages = doc.getPages();
  const byKey = new Map(values.filter((v) => v.doc_key === d.key).map((v) => [v.field_key, v]));
  for (const f of d.fields) {
    const v = byKey.get(f.key);
    if (!v || v.value === '' || f.page === undefined || f.x === undefined || f.y === undefined) continue;
    const page = pages[f.page - 1];
    if (!page) continue;
    drawValue(lib, page, f, v.value, f.kind === 'sig' || f.kind === 'ini' ? script : regular);
  }
  const footer = interim
    ? `INTERIM COPY, NOT FINAL - esign Bundle ${bundle.id} - values as of ${bundle.completed_at}`
    : `Signed with esign - Bundle ${bundle.id} - completed ${bundle.completed_at}`;
  for (const page of pages)
    page.drawText(safeText(regular, footer), { x: 18, y: 8, size: 6, font: regular, color: lib.rgb(0.4, 0.4, 0.4) });
  setDates(doc, `${d.name} (${interim ? 'interim' : 'signed'})`, bundle.completed_at);
  return Buffer.from(await doc.save());
}

function drawValue(lib: PdfLib, page: PDFPage, f: StoredField, value: string, font: PDFFont): void {
  const w = f.w ?? 150;
  const h = f.h ?? 20;
  const x = f.x!;
  const top = page.getHeight() - f.y!;
  const ink = lib.rgb(0.05, 0.1, 0.45);
  if (f.kind === 'chk') {
    if (value !== 'true') return;
    const size = Math.min(h, w) * 0.9;
    page.drawText('X', {
      x: x + (w - font.widthOfTextAtSize('X', size)) / 2,
      y: top - h + (h - size * 0.7) / 2,
      size,
      font,
      color: ink,
    });
    return;
  }
  // Only multi-line text keeps its line breaks; everything else is drawn on one line.
  const text = (f.kind === 'att' ? `Attached: ${value}` : value).replace(
    f.kind === 'txt' ? /\r/g : /\s*[\r\n]+\s*/g,
    ' ',
  );
  if (f.kind === 'sig' || f.kind === 'ini') {
    const clean = safeText(font, text);
    const size = Math.max(4, Math.min(h * 0.75, (w / Math.max(1, font.widthOfTextAtSize(clean, 1))) * 0.95));
    page.drawText(clean, { x: x + 2, y: top - h + h * 0.25, size, font, color: ink });
    page.drawLine({ start: { x, y: top - h + 2 }, end: { x: x + w, y: top - h + 2 }, thickness: 0.5, color: ink });
    return;
  }
  const size = Math.max(4, Math.min(10, h * 0.7));
  const lines = f.kind === 'txt' ? wrap(font, text, size, w - 4) : [safeText(font, text)];
  lines.forEach((line, i) => {
    const y = top - size - 2 - i * size * 1.2;
    if (y >= top - h - 1) page.drawText(line, { x: x + 2, y, size, font, color: ink, maxWidth: w - 4 });
  });
}

/** Every signed document, one after the other. */
export async function combinedPdf(bundle: EvidenceBundle, signed: Buffer[]): Promise<Buffer> {
  const lib = await loadPdfLib();
  const out = await lib.PDFDocument.create();
  for (const data of signed) {
    const src = await lib.PDFDocument.load(data, { updateMetadata: false });
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  setDates(out, `${bundle.label || bundle.id} (combined)`, bundle.completed_at);
  return Buffer.from(await out.save());
}

/** Writes lines top to bottom, starting new pages as needed. */
class Writer {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly lib: PdfLib,
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont; mono: PDFFont },
  ) {
    this.newPage();
  }
  private newPage(): void {
    this.page = this.doc.addPage([612, 792]);
    this.y = 792 - 54;
  }
  text(
    text: string,
    opts: { size?: number; bold?: boolean; mono?: boolean; indent?: number; gap?: number } = {},
  ): void {
    const size = opts.size ?? 9;
    const font = opts.bold ? this.fonts.bold : opts.mono ? this.fonts.mono : this.fonts.regular;
    const x = 54 + (opts.indent ?? 0);
    for (const line of wrap(font, text, size, 612 - 54 - x)) {
      if (this.y - size < 54) this.newPage();
      this.y -= size * 1.3;
      this.page.drawText(line, { x, y: this.y, size, font, color: this.lib.rgb(0, 0, 0) });
    }
    this.y -= opts.gap ?? 0;
  }
  pairs(rows: [string, string | null | undefined][]): void {
    for (const [k, v] of rows) this.text(`${k}: ${v ?? '-'}`, { indent: 8 });
    this.y -= 6;
  }
}

/**
 * The Certificate of Evidence of one signer: the Bundle, the signer and how they were reached and
 * authenticated, the SHA-256 of every document before and after signing, the values they gave,
 * and every event of the Bundle with its time.
 */
export async function certificateOfEvidence(
  bundle: EvidenceBundle,
  packet: EvidencePacket,
  docs: (EvidenceDocument & { signedSha256: string; pages: number })[],
  values: EvidenceValue[],
  combinedSha256: string,
): Promise<Buffer> {
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.create();
  const [regular, bold, mono] = await Promise.all([
    doc.embedFont(lib.StandardFonts.Helvetica),
    doc.embedFont(lib.StandardFonts.HelveticaBold),
    doc.embedFont(lib.StandardFonts.Courier),
  ]);
  const w = new Writer(lib, doc, { regular, bold, mono });
  w.text('Certificate of Evidence', { size: 18, bold: true, gap: 4 });
  w.text(`Produced by the esign local engine for Bundle ${bundle.id}, signer ${packet.name}.`, { gap: 8 });
  if (bundle.is_test) w.text('TEST BUNDLE: not legally binding.', { bold: true, gap: 6 });

  w.text('Bundle', { size: 12, bold: true });
  w.pairs([
    ['Slug', bundle.id],
    ['Label', bundle.label || '(none)'],
    ['Status', 'complete (co)'],
    ['Created', bundle.created],
    ['Sent', bundle.sent],
    ['Completed', bundle.completed_at],
    ['Requester', `${bundle.requester_name} <${bundle.requester_email}>`],
  ]);

  w.text('Signer', { size: 12, bold: true });
  const reachedBy =
    packet.deliver_via === 'embed'
      ? 'embedded signing session opened by the sender'
      : `signing link sent by ${packet.deliver_via === 'phone' ? `SMS to ${packet.phone}` : `email to ${packet.email}`}`;
  const checks = [
    packet.auth_sms && 'SMS PIN',
    packet.auth_selfie && 'selfie',
    packet.auth_id && 'identity document',
  ].filter(Boolean);
  w.pairs([
    ['Name', packet.name],
    ['Signer key', packet.key],
    ['Packet', packet.id],
    ['Email', packet.email],
    ['Phone', packet.phone],
    ['Signing order', String(packet.order)],
    ['Authentication', reachedBy],
    [
      'Additional checks',
      checks.length
        ? `${checks.join(', ')} required; the local engine records them as passed without performing them`
        : 'none required',
    ],
    ['Last viewed', packet.last_accessed_at],
    ['Completed', packet.completed_at],
  ]);

  w.text('Documents (SHA-256)', { size: 12, bold: true });
  for (const d of docs) {
    w.text(`${d.name} (key ${d.key}, ${d.pages} page${d.pages === 1 ? '' : 's'})`, { indent: 8 });
    w.text(`original  ${d.sha256}`, { mono: true, size: 8, indent: 16 });
    w.text(`signed    ${d.signedSha256}`, { mono: true, size: 8, indent: 16 });
  }
  w.text('Combined PDF', { indent: 8 });
  w.text(`combined  ${combinedSha256}`, { mono: true, size: 8, indent: 16, gap: 6 });

  const mine = values.filter((v) => v.packet_id === packet.id);
  w.text('Values given by this signer', { size: 12, bold: true });
  if (!mine.length) w.text('none', { indent: 8 });
  for (const v of mine) w.text(`${v.doc_key}/${v.field_key}: ${v.value}`, { indent: 8 });
  w.text('', { gap: 6 });

  w.text('Events', { size: 12, bold: true });
  for (const e of bundle.events)
    w.text(`${e.timestamp}  ${e.kind}  ${e.description}${e.packet_id ? ` (packet ${e.packet_id})` : ''}`, {
      indent: 8,
      size: 8,
    });

  setDates(doc, `Certificate of Evidence - ${bundle.id} - ${packet.name}`, bundle.completed_at);
  return Buffer.from(await doc.save());
}

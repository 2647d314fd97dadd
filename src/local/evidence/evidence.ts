// The files a completed Bundle produces, drawn with pdf-lib: each document with its values and
// signatures, all of them combined, and a Certificate of Evidence per signer. Output depends only
// on the input (dates come from the Bundle, not the wall clock), so the same Bundle gives the same bytes.
import type { PDFDocument, PDFPage } from 'pdf-lib';
import type { StoredField } from '../bundles/fields.js';
import { loadPdfLib } from '../../lazyImport.js';
import { type Style, Typesetter } from './fonts.js';

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
  const t = await Typesetter.create(doc);
  const pages = doc.getPages();
  const byKey = new Map(values.filter((v) => v.doc_key === d.key).map((v) => [v.field_key, v]));
  for (const f of d.fields) {
    const v = byKey.get(f.key);
    if (!v || v.value === '' || f.page === undefined || f.x === undefined || f.y === undefined) continue;
    const page = pages[f.page - 1];
    if (!page) continue;
    await drawValue(lib, t, page, f, v.value);
  }
  const footer = interim
    ? `INTERIM COPY, NOT FINAL - esign Bundle ${bundle.id} - values as of ${bundle.completed_at}`
    : `Signed with esign - Bundle ${bundle.id} - completed ${bundle.completed_at}`;
  for (const page of pages) t.draw(page, footer, { x: 18, y: 8, size: 6, color: lib.rgb(0.4, 0.4, 0.4) });
  setDates(doc, `${d.name} (${interim ? 'interim' : 'signed'})`, bundle.completed_at);
  return Buffer.from(await doc.save());
}

async function drawValue(lib: PdfLib, t: Typesetter, page: PDFPage, f: StoredField, value: string): Promise<void> {
  const w = f.w ?? 150;
  const h = f.h ?? 20;
  const x = f.x!;
  const top = page.getHeight() - f.y!;
  const ink = lib.rgb(0.05, 0.1, 0.45);
  if (f.kind === 'chk') {
    if (value !== 'true') return;
    const size = Math.min(h, w) * 0.9;
    page.drawText('X', {
      x: x + (w - t.width('X', size)) / 2,
      y: top - h + (h - size * 0.7) / 2,
      size,
      font: t.primary,
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
    const style: Style = 'italic';
    await t.load(text, style);
    const size = Math.max(4, Math.min(h * 0.75, (w / Math.max(1, t.width(text, 1, style))) * 0.95));
    t.draw(page, text, { x: x + 2, y: top - h + h * 0.25, size, style, color: ink });
    page.drawLine({ start: { x, y: top - h + 2 }, end: { x: x + w, y: top - h + 2 }, thickness: 0.5, color: ink });
    return;
  }
  await t.load(text, 'regular');
  let size = Math.max(4, Math.min(10, h * 0.7));
  // One line that does not fit is drawn smaller rather than cut (down to 4 points).
  if (f.kind !== 'txt') size = Math.max(4, Math.min(size, (size * (w - 4)) / Math.max(1, t.width(text, size))));
  const lines = f.kind === 'txt' ? t.wrap(text, size, w - 4) : [text];
  lines.forEach((line, i) => {
    const y = top - size - 2 - i * size * 1.2;
    if (y >= top - h - 1) t.draw(page, line, { x: x + 2, y, size, color: ink });
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
    private readonly t: Typesetter,
  ) {
    this.newPage();
  }
  private newPage(): void {
    this.page = this.doc.addPage([612, 792]);
    this.y = 792 - 54;
  }
  async text(
    text: string,
    opts: { size?: number; bold?: boolean; mono?: boolean; indent?: number; gap?: number } = {},
  ): Promise<void> {
    const size = opts.size ?? 9;
    const style: Style = opts.bold ? 'bold' : opts.mono ? 'mono' : 'regular';
    const x = 54 + (opts.indent ?? 0);
    await this.t.load(text, style);
    for (const line of this.t.wrap(text, size, 612 - 54 - x, style)) {
      if (this.y - size < 54) this.newPage();
      this.y -= size * 1.3;
      this.t.draw(this.page, line, { x, y: this.y, size, style, color: this.lib.rgb(0, 0, 0) });
    }
    this.y -= opts.gap ?? 0;
  }
  async pairs(rows: [string, string | null | undefined][]): Promise<void> {
    for (const [k, v] of rows) await this.text(`${k}: ${v ?? '-'}`, { indent: 8 });
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
  docs: (Omit<EvidenceDocument, 'pdf'> & { signedSha256: string; pages: number })[],
  values: EvidenceValue[],
  combinedSha256: string,
): Promise<Buffer> {
  const lib = await loadPdfLib();
  const doc = await lib.PDFDocument.create();
  const w = new Writer(lib, doc, await Typesetter.create(doc));
  await w.text('Certificate of Evidence', { size: 18, bold: true, gap: 4 });
  await w.text(`Produced by the esign local engine for Bundle ${bundle.id}, signer ${packet.name}.`, { gap: 8 });
  if (bundle.is_test) await w.text('TEST BUNDLE: not legally binding.', { bold: true, gap: 6 });

  await w.text('Bundle', { size: 12, bold: true });
  await w.pairs([
    ['Slug', bundle.id],
    ['Label', bundle.label || '(none)'],
    ['Status', 'Complete'],
    ['Created', bundle.created],
    ['Sent', bundle.sent],
    ['Completed', bundle.completed_at],
    ['Requester', `${bundle.requester_name} <${bundle.requester_email}>`],
  ]);

  await w.text('Signer', { size: 12, bold: true });
  const reachedBy =
    packet.deliver_via === 'embed'
      ? 'embedded signing session opened by the sender'
      : `signing link sent by ${packet.deliver_via === 'phone' ? `SMS to ${packet.phone}` : `email to ${packet.email}`}`;
  const checks = [
    packet.auth_sms && 'SMS PIN',
    packet.auth_selfie && 'selfie',
    packet.auth_id && 'identity document',
  ].filter(Boolean);
  await w.pairs([
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

  await w.text('Documents (SHA-256)', { size: 12, bold: true });
  for (const d of docs) {
    await w.text(`${d.name} (key ${d.key}, ${d.pages} page${d.pages === 1 ? '' : 's'})`, { indent: 8 });
    await w.text(`original  ${d.sha256}`, { mono: true, size: 8, indent: 16 });
    await w.text(`signed    ${d.signedSha256}`, { mono: true, size: 8, indent: 16 });
  }
  await w.text('Combined PDF', { indent: 8 });
  await w.text(`combined  ${combinedSha256}`, { mono: true, size: 8, indent: 16, gap: 6 });

  const mine = values.filter((v) => v.packet_id === packet.id);
  await w.text('Values given by this signer', { size: 12, bold: true });
  if (!mine.length) await w.text('none', { indent: 8 });
  for (const v of mine) await w.text(`${v.doc_key}/${v.field_key}: ${v.value}`, { indent: 8 });
  await w.text('', { gap: 6 });

  await w.text('Events', { size: 12, bold: true });
  for (const e of bundle.events)
    await w.text(`${e.timestamp}  ${e.kind}  ${e.description}${e.packet_id ? ` (packet ${e.packet_id})` : ''}`, {
      indent: 8,
      size: 8,
    });

  setDates(doc, `Certificate of Evidence - ${bundle.id} - ${packet.name}`, bundle.completed_at);
  return Buffer.from(await doc.save());
}

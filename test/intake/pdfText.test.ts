import { describe, expect, it } from 'vitest';
import { PDFDocument, type PDFFont, StandardFonts, degrees } from 'pdf-lib';
import { findTextInPdf } from '../../src/local/documents/intake/pdfText.js';

const H = 792;
// Helvetica's ascent and descent as pdfjs reports them, in units of the font size.
const ASC = 0.718;
const DESC = 0.207;

/** drawText does not kern, but widthOfTextAtSize does: add up single glyphs instead. */
const advance = (font: PDFFont, text: string, size: number) =>
  [...text].reduce((sum, ch) => sum + font.widthOfTextAtSize(ch, size), 0);

async function samplePdf(): Promise<{ pdf: Buffer; width: (t: string, size: number, bold?: boolean) => number }> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const p1 = doc.addPage([612, H]);
  p1.drawText('Sign here: ____ and also sign here', { x: 72, y: 700, size: 12, font });
  p1.drawText('Client signature', { x: 300, y: 400, size: 10, font });
  // One word drawn by two operations in two fonts, touching: pdfjs keeps them as separate items.
  p1.drawText('Sig', { x: 100, y: 200, size: 14, font: bold });
  p1.drawText('nature', { x: 100 + advance(bold, 'Sig', 14), y: 200, size: 14, font });
  // Two words drawn apart on one line.
  p1.drawText('Date', { x: 100, y: 150, size: 12, font });
  p1.drawText('signed', { x: 160, y: 150, size: 12, font });
  const p2 = doc.addPage([612, H]);
  p2.drawText('Nothing to see', { x: 72, y: 720, size: 12, font });
  p2.drawText('here here', { x: 200, y: 100, size: 20, font });
  const pdf = Buffer.from(await doc.save());
  return { pdf, width: (t, size, b) => advance(b ? bold : font, t, size) };
}

function expectBox(
  hit: { x: number; y: number; w: number; h: number },
  x: number,
  baseline: number,
  w: number,
  size: number,
) {
  expect(hit.x).toBeCloseTo(x, 0);
  expect(Math.abs(hit.y - (H - baseline - ASC * size))).toBeLessThan(1.5);
  expect(Math.abs(hit.w - w)).toBeLessThan(1.5);
  expect(Math.abs(hit.h - (ASC + DESC) * size)).toBeLessThan(1.5);
}

describe('findTextInPdf', () => {
  it('finds every occurrence on every page, with top-left-origin boxes', async () => {
    const { pdf, width } = await samplePdf();
    const hits = await findTextInPdf(pdf, 'here');
    expect(hits.map((h) => h.page)).toEqual([1, 1, 2, 2]);
    const line = 'Sign here: ____ and also sign here';
    expectBox(hits[0]!, 72 + width('Sign ', 12), 700, width('here', 12), 12);
    expectBox(hits[1]!, 72 + width(line.slice(0, line.lastIndexOf('here')), 12), 700, width('here', 12), 12);
    expectBox(hits[2]!, 200, 100, width('here', 20), 20);
    expectBox(hits[3]!, 200 + width('here ', 20), 100, width('here', 20), 20);
  });

  it('is literal and case-sensitive', async () => {
    const { pdf } = await samplePdf();
    expect(await findTextInPdf(pdf, 'Sign')).toHaveLength(2); // "Sign here", "Signature"
    expect(await findTextInPdf(pdf, 'sign')).toHaveLength(3); // "sign here", "signature", "signed"
    expect(await findTextInPdf(pdf, 'signed')).toHaveLength(1);
    expect(await findTextInPdf(pdf, '____')).toHaveLength(1);
    expect(await findTextInPdf(pdf, 's.gn')).toHaveLength(0);
    expect(await findTextInPdf(pdf, 'absent')).toEqual([]);
  });

  it('matches text split across drawing operations on one line', async () => {
    const { pdf, width } = await samplePdf();
    const [hit, ...rest] = await findTextInPdf(pdf, 'Signature');
    expect(rest).toEqual([]);
    expect(hit!.page).toBe(1);
    expectBox(hit!, 100, 200, width('Sig', 14, true) + width('nature', 14), 14);
    // Words drawn apart read with a space between them; the box spans the gap.
    const [gap] = await findTextInPdf(pdf, 'Date signed');
    expectBox(gap!, 100, 150, 160 + width('signed', 12) - 100, 12);
  });

  it('maps through the page rotation', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, H]);
    page.setRotation(degrees(90));
    page.drawText('Rotated anchor', { x: 100, y: 500, size: 12, font });
    const [hit] = await findTextInPdf(Buffer.from(await doc.save()), 'anchor');
    // Turned a quarter clockwise, the page shows PDF x downwards and PDF y rightwards.
    expect(hit!.y).toBeCloseTo(100 + advance(font, 'Rotated ', 12), 0);
    expect(hit!.h).toBeCloseTo(advance(font, 'anchor', 12), 0);
    expect(Math.abs(hit!.x - (500 - DESC * 12))).toBeLessThan(1.5);
    expect(Math.abs(hit!.w - (ASC + DESC) * 12)).toBeLessThan(1.5);
  });

  it('rejects bad input with a clear message', async () => {
    const { pdf } = await samplePdf();
    await expect(findTextInPdf(pdf, '')).rejects.toThrow('The search text is empty.');
    await expect(findTextInPdf(Buffer.from('not a pdf at all'), 'x')).rejects.toThrow(
      /^The PDF is corrupt or unreadable/,
    );
  });
});

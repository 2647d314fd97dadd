// Shared checks of the intake tests: text and positions read back from produced PDFs.
import { expect } from 'vitest';
import type { PlacedField } from '../../src/local/documents/intake/html.js';
import { findTextInPdf, withPdfjsDocument } from '../../src/local/documents/intake/pdfText.js';

/** The text of each page, items joined by spaces. */
export const pageTexts = (pdf: Buffer) =>
  withPdfjsDocument(pdf, async (d) => {
    const pages: string[] = [];
    for (let n = 1; n <= d.numPages; n++)
      pages.push((await (await d.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
    return pages;
  });

/** The field sits on the line of `label`, right after it. */
export async function expectRightOf(pdf: Buffer, field: PlacedField | undefined, label: string) {
  const hits = await findTextInPdf(pdf, label);
  expect(hits, `"${label}" is printed once`).toHaveLength(1);
  const hit = hits[0]!;
  expect(field, `a field after "${label}"`).toBeDefined();
  expect(field!.page).toBe(hit.page);
  expect(field!.x).toBeGreaterThanOrEqual(hit.x + hit.w - 0.5);
  expect(field!.x).toBeLessThan(hit.x + hit.w + 20);
  // vertical overlap with the label's text
  expect(field!.y).toBeLessThan(hit.y + hit.h);
  expect(field!.y + field!.h).toBeGreaterThan(hit.y);
}

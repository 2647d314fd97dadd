// Writes the sample documents in fixtures/ with pdf-lib. Run: node scripts/make-fixtures.mjs
import { writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

async function pdf(title, paragraphs, pages = 1) {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setProducer('esign fixtures');
  doc.setCreator('esign fixtures');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`${title}${pages > 1 ? ` (page ${n} of ${pages})` : ''}`, { x: 72, y: 720, size: 18, font });
    paragraphs.forEach((p, i) => page.drawText(p, { x: 72, y: 680 - i * 20, size: 11, font }));
    if (n === pages) {
      page.drawText('Signature: ____________________', { x: 72, y: 160, size: 11, font });
      page.drawText('Date: ____________', { x: 360, y: 160, size: 11, font });
    }
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const contract = await pdf('Services Agreement', [
  'This agreement is made between Example Ltd and the Signer named below.',
  'The Signer agrees to provide the services described in Schedule A.',
  'Payment is due within 30 days of each invoice.',
]);
writeFileSync('fixtures/contract.pdf', contract);
writeFileSync(
  'fixtures/nda.pdf',
  await pdf(
    'Mutual Non-Disclosure Agreement',
    [
      "Each party agrees to keep the other party's confidential information secret.",
      'This agreement lasts for two years from the date of the last signature.',
    ],
    2,
  ),
);
// Damaged: the object bodies are cut out of the middle, the header and trailer stay.
writeFileSync(
  'fixtures/corrupt.pdf',
  Buffer.concat([contract.subarray(0, 400), contract.subarray(contract.length - 300)]),
);
writeFileSync('fixtures/not-a-pdf.txt', 'This is a plain text file, not a PDF.\n');
// fixtures/contract.docx is a real Word document, made once with LibreOffice from a three-line HTML
// page (soffice --headless --convert-to 'docx:MS Word 2007 XML' contract.html) and kept as is.

import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFString, StandardFonts, degrees } from 'pdf-lib';
import { flattenForm, formFieldsOfPdf } from '../../src/local/documents/intake/pdfForm.js';
import { findTextInPdf, withPdfjsDocument } from '../../src/local/documents/intake/pdfText.js';

const H = 792;

// borderWidth 0: otherwise pdf-lib widens each widget's rectangle by half its border.
async function formPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p1 = doc.addPage([612, H]);
  const p2 = doc.addPage([612, H]);
  p1.drawText('Application', { x: 72, y: 740, size: 18, font });
  const form = doc.getForm();
  const name = form.createTextField('applicant.name');
  name.setText('Jane Doe');
  name.enableRequired();
  name.addToPage(p1, { x: 72, y: 600, width: 200, height: 20, font, borderWidth: 0 });
  const notes = form.createTextField('notes');
  notes.enableMultiline();
  notes.addToPage(p1, { x: 72, y: 400, width: 300, height: 100, font, borderWidth: 0 });
  const agree = form.createCheckBox('agree');
  agree.check();
  agree.addToPage(p1, { x: 72, y: 350, width: 12, height: 12, borderWidth: 0 });
  const color = form.createDropdown('color');
  color.addOptions(['Red', 'Green']);
  color.select('Green');
  color.addToPage(p2, { x: 100, y: 500, width: 120, height: 20, font, borderWidth: 0 });
  const plan = form.createOptionList('plan');
  plan.addOptions(['Basic', 'Pro']);
  plan.addToPage(p2, { x: 100, y: 300, width: 120, height: 60, font, borderWidth: 0 });
  const radio = form.createRadioGroup('choice');
  radio.addOptionToPage('a', p2, { x: 300, y: 300, width: 12, height: 12, borderWidth: 0 });
  // pdf-lib cannot create signature fields: add one by hand, a field that is its own widget.
  const sig = doc.context.register(
    doc.context.obj({
      FT: 'Sig',
      T: PDFString.of('sign_here'),
      Type: 'Annot',
      Subtype: 'Widget',
      Rect: [350, 100, 550, 150],
      F: 4,
      P: p2.ref,
    }),
  );
  form.acroForm.addField(sig);
  p2.node.addAnnot(sig);
  return Buffer.from(await doc.save());
}

describe('formFieldsOfPdf', () => {
  it('lists text, multi-line, checkbox, choice and signature fields with top-left boxes', async () => {
    const fields = await formFieldsOfPdf(await formPdf());
    expect(fields).toEqual([
      {
        name: 'applicant.name',
        kind: 'inp',
        page: 1,
        x: 72,
        y: H - 620,
        w: 200,
        h: 20,
        value: 'Jane Doe',
        required: true,
      },
      { name: 'notes', kind: 'txt', page: 1, x: 72, y: H - 500, w: 300, h: 100 },
      { name: 'agree', kind: 'chk', page: 1, x: 72, y: H - 362, w: 12, h: 12, value: 'true' },
      { name: 'color', kind: 'sel', page: 2, x: 100, y: H - 520, w: 120, h: 20, value: 'Green' },
      { name: 'plan', kind: 'sel', page: 2, x: 100, y: H - 360, w: 120, h: 60 },
      { name: 'sign_here', kind: 'sig', page: 2, x: 350, y: H - 150, w: 200, h: 50 },
    ]);
  });

  it('reports boxes as the page is shown when the page is rotated', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, H]);
    page.setRotation(degrees(90));
    doc.getForm().createTextField('t').addToPage(page, { x: 100, y: 500, width: 200, height: 20, borderWidth: 0 });
    const [f] = await formFieldsOfPdf(Buffer.from(await doc.save()));
    // Turned a quarter clockwise: shown x is PDF y, shown y is PDF x.
    expect(f).toMatchObject({ page: 1, x: 500, y: 100, w: 20, h: 200 });
  });

  it('returns nothing for a PDF without a form, and rejects what is not a PDF', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    expect(await formFieldsOfPdf(Buffer.from(await doc.save()))).toEqual([]);
    await expect(formFieldsOfPdf(Buffer.from('hello'))).rejects.toThrow(/^The PDF is corrupt or unreadable/);
  });
});

describe('flattenForm', () => {
  it('drops every field and widget but keeps what they showed', async () => {
    const flat = await flattenForm(await formPdf());
    expect(await formFieldsOfPdf(flat)).toEqual([]);
    const doc = await PDFDocument.load(flat);
    expect(doc.getPageCount()).toBe(2);
    expect(doc.catalog.has(PDFName.of('AcroForm'))).toBe(false);
    const annotations = await withPdfjsDocument(flat, async (d) => [
      ...(await (await d.getPage(1)).getAnnotations()),
      ...(await (await d.getPage(2)).getAnnotations()),
    ]);
    expect(annotations).toEqual([]);
    // The text field's value is now page content, inside the field's former box.
    const [hit, ...more] = await findTextInPdf(flat, 'Jane Doe');
    expect(more).toEqual([]);
    expect(hit!.page).toBe(1);
    expect(hit!.x).toBeGreaterThanOrEqual(72);
    expect(hit!.y).toBeGreaterThanOrEqual(H - 620);
    expect(hit!.y + hit!.h).toBeLessThanOrEqual(H - 600 + 0.5);
    const [green] = await findTextInPdf(flat, 'Green');
    expect(green).toMatchObject({ page: 2 });
    expect(green!.x).toBeGreaterThanOrEqual(100);
    expect(green!.y).toBeGreaterThanOrEqual(H - 520);
  });

  it('lists and flattens every widget of a field shown on several pages', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const [a, b] = [doc.addPage([612, H]), doc.addPage([612, H])];
    const initials = doc.getForm().createTextField('initials');
    initials.setText('JD');
    initials.addToPage(a!, { x: 500, y: 50, width: 40, height: 20, font, borderWidth: 0 });
    initials.addToPage(b!, { x: 500, y: 60, width: 40, height: 20, font, borderWidth: 0 });
    const pdf = Buffer.from(await doc.save());
    expect((await formFieldsOfPdf(pdf)).map((f) => [f.name, f.page, f.y])).toEqual([
      ['initials', 1, H - 70],
      ['initials', 2, H - 80],
    ]);
    const flat = await flattenForm(pdf);
    expect((await findTextInPdf(flat, 'JD')).map((h) => h.page)).toEqual([1, 2]);
    const widgets = await withPdfjsDocument(flat, async (d) => [
      ...(await (await d.getPage(1)).getAnnotations()),
      ...(await (await d.getPage(2)).getAnnotations()),
    ]);
    expect(widgets).toEqual([]);
  });

  it('keeps other annotations and leaves a form-less PDF as it was', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    const link = doc.context.register(
      doc.context.obj({
        Type: 'Annot',
        Subtype: 'Link',
        Rect: [10, 10, 50, 50],
        A: { S: 'URI', URI: PDFString.of('https://example.com/') },
      }),
    );
    page.node.addAnnot(link);
    const flat = await flattenForm(Buffer.from(await doc.save()));
    const annotations = await withPdfjsDocument(flat, async (d) => (await d.getPage(1)).getAnnotations());
    expect(annotations.map((a: { subtype: string; url?: string }) => [a.subtype, a.url])).toEqual([
      ['Link', 'https://example.com/'],
    ]);
  });

  it('rejects what is not a PDF', async () => {
    await expect(flattenForm(Buffer.from('%PDF-1.7 garbage'))).rejects.toThrow(/^The PDF is corrupt or unreadable/);
  });
});

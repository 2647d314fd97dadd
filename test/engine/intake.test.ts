// Document intake beyond plain PDFs: auto-placements found by text, form fields converted to a
// signer's fields, HTML rendered (with its form elements as fields), office files converted.
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { findTextInPdf } from '../../src/local/documents/intake/pdfText.js';
import { loadPdfLib } from '../../src/lazyImport.js';
import { closeSandbox } from '../../src/local/documents/sandbox/apart.js';
import { CONTRACT_B64, bundleRequest, expectApiError, fixture, newEngine } from '../helpers.js';
import { stopNewProcess, useEngine, withDocument } from './support.js';

// This file's tier runs beside Chromium and LibreOffice, and the sandbox at nice 10 below them: with
// two runs of the suite on 2 cores, a create's check once waited past its 20 s for a process (a 503),
// and an HTML document's tries at 35 s each outlasted the test's 120 s. Here each may take 90 s.
const t = useEngine({ documentTimes: { createCheckMs: 90_000, htmlDeadlineMs: 90_000 } });

/** The signed PDF of a completed Bundle's first document. */
async function signedPdf(slug: string): Promise<Buffer> {
  const e = t.e;
  await e.settle();
  const f = (await e.getBundleFiles(slug)).find((x) => x.kind === 'signed_pdf')!;
  const link = e.resolveLink(new URL(f.file_url).pathname.split('/')[2]!, 'file')!;
  return readFileSync(e.blobPath(link.target));
}

const ONE_SIGNER = [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }];

describe('auto-placements', () => {
  it('place a field at each occurrence of the text, offset as asked, and the signature lands there', async () => {
    const e = t.e;
    const b = await e.createBundle(
      bundleRequest({
        packets: ONE_SIGNER,
        documents: [
          {
            key: 'contract',
            file_b64: CONTRACT_B64,
            auto_placements: [
              {
                key: 'sig',
                kind: 'sig',
                search: 'Signature:',
                offset_x: 70,
                offset_y: -6,
                w: 150,
                h: 24,
                editors: ['ada'],
                required: true,
              },
            ],
          },
        ],
      }),
    );
    expect(b.status).toBe('se');
    await e.signPacket(b.packets[0]!.id, {});
    const pdf = await signedPdf(b.id);
    const [label] = await findTextInPdf(pdf, 'Signature:');
    const [drawn] = await findTextInPdf(pdf, 'Ada Lovelace');
    expect(drawn).toBeDefined();
    expect(drawn!.page).toBe(label!.page);
    expect(Math.abs(drawn!.x - (label!.x + 72))).toBeLessThan(4);
    expect(Math.abs(drawn!.y - label!.y)).toBeLessThan(24);
  });

  it('refuse a pattern found nowhere with a 400 naming it', async () => {
    await expectApiError(
      t.e.createBundle(
        withDocument({
          auto_placements: [{ kind: 'sig', search: 'No such words', editors: ['ada'] }],
        }),
      ),
      400,
      { field: 'documents[0].auto_placements[0].search', message: /was not found/ },
    );
  });
});

describe('converted_pdf_fields_to', () => {
  it("turns the PDF's own form fields into that signer's fields, and the signed PDF is flattened with the values", async () => {
    const { PDFDocument } = await loadPdfLib();
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const company = doc.getForm().createTextField('company');
    company.enableRequired();
    company.addToPage(page, { x: 72, y: 600, width: 200, height: 20 });
    const pdf = Buffer.from(await doc.save());
    const e = t.e;
    const b = await e.createBundle(
      bundleRequest({
        packets: ONE_SIGNER,
        documents: [{ key: 'form', file_b64: pdf.toString('base64'), converted_pdf_fields_to: 'ada' }],
      }),
    );
    await expectApiError(e.signPacket(b.packets[0]!.id, {}), 400, { field: 'values.company' });
    await e.signPacket(b.packets[0]!.id, { values: { company: 'Analytical Engines Ltd' } });
    const signed = await signedPdf(b.id);
    expect(await findTextInPdf(signed, 'Analytical Engines Ltd')).toHaveLength(1);
    expect((await PDFDocument.load(signed)).getForm().getFields()).toHaveLength(0);
  });
});

const HTML_ORDER = `<h1>Purchase order</h1><p>Deliver the engine.</p><ul><li>One engine</li></ul>
    <label for="po">PO number</label><input id="po" name="po" required data-signer="ada">`;

describe('HTML documents', () => {
  const HTML = HTML_ORDER;

  it('are rendered in the background, and their form elements become fields', async () => {
    const e = t.e;
    const b = await e.createBundle(
      bundleRequest({ packets: ONE_SIGNER, documents: [{ key: 'order', file_html: HTML }] }),
    );
    expect(b.status).toBe('pe');
    await e.settle();
    const sent = await e.getBundle(b.id);
    expect(sent.status).toBe('se');
    expect(sent.documents).toEqual([{ key: 'order', name: 'order.pdf' }]);
    await expectApiError(e.signPacket(b.packets[0]!.id, {}), 400, { field: 'values.po', message: /PO number/ });
    await e.signPacket(b.packets[0]!.id, { values: { po: 'PO-1842' } });
    const pdf = await signedPdf(b.id);
    expect(await findTextInPdf(pdf, 'Purchase order')).toHaveLength(1);
    expect(await findTextInPdf(pdf, 'PO-1842')).toHaveLength(1);
  }, 240_000);

  it('with html_fields_mode none are rendered only', async () => {
    const e = t.e;
    const b = await e.createBundle(
      bundleRequest({ packets: ONE_SIGNER, documents: [{ key: 'order', file_html: HTML, html_fields_mode: 'none' }] }),
    );
    await e.settle();
    expect((await e.getBundle(b.id)).status).toBe('se');
    await e.signPacket(b.packets[0]!.id, {});
    expect((await e.getBundleData(b.id)).map((d) => d.field_key)).toEqual([]);
  }, 240_000);
});

describe('HTML documents on a loaded machine', () => {
  /** The document sandbox's processes started by this test process (node at the sandbox's heap cap). */
  const sandboxes = () =>
    readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number)
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--max-old-space-size=');
        } catch {
          return false;
        }
      });

  it('are rendered at a later try when the sandbox had no CPU for the first, not failed as over the limits', async () => {
    // The first render's process is stopped as soon as it appears (a starved sandbox: it runs at nice
    // 10 below everything else); at its deadline it is killed, and the document is tried again.
    closeSandbox();
    const before = new Set(sandboxes());
    // The first try always waits out its deadline; each later try has the same deadline to render in
    // at nice 10. With two runs of the suite on 2 cores, 20 s starved the second try (the third
    // rendered), and 30 s once starved both later tries: at 60 s, a later try has about 4 s of CPU.
    const e = newEngine({ documentTimes: { htmlDeadlineMs: 60_000, busyPauseMs: 500 } });
    onTestFinished(() => e.dispose());
    const b = await e.createBundle(
      bundleRequest({
        packets: ONE_SIGNER,
        documents: [{ key: 'order', file_html: HTML_ORDER, html_fields_mode: 'none' }],
      }),
    );
    const stopped = await stopNewProcess(sandboxes, before);
    await e.settle();
    const sent = await e.getBundle(b.id);
    expect({ status: sent.status, errors: sent.errors }).toEqual({ status: 'se', errors: [] });
    expect(sandboxes()).not.toContain(stopped);
    // Three tries at the deadline and the pauses between them, with room to settle.
  }, 240_000);
});

describe('office documents', () => {
  const docx = readFileSync(fixture('contract.docx'));
  const create = () =>
    t.e.createBundle({ packets: ONE_SIGNER, documents: [{ key: 'contract', file_index: 0 }] }, [
      { filename: 'contract.docx', data: docx },
    ]);

  it('need the office-upload feature, and say when LibreOffice is missing', async () => {
    await expectApiError(create(), 400, { field: 'documents[0].file_index', message: /office-upload account feature/ });
    t.e.account.setFeatures(['office_upload'], true);
    const saved = { path: process.env.PATH, soffice: process.env.ESIGN_SOFFICE };
    process.env.PATH = '/nonexistent';
    delete process.env.ESIGN_SOFFICE;
    try {
      await expectApiError(create(), 400, {
        field: 'documents[0].file_index',
        message: /LibreOffice, which is not installed/,
      });
    } finally {
      process.env.PATH = saved.path;
      if (saved.soffice !== undefined) process.env.ESIGN_SOFFICE = saved.soffice;
    }
  });

  it('are converted to PDF with LibreOffice, then sent', async () => {
    t.e.account.setFeatures(['office_upload'], true);
    const b = await create();
    expect(b.status).toBe('pe');
    await t.e.settle();
    const sent = await t.e.getBundle(b.id);
    expect(sent.status, JSON.stringify(sent.errors)).toBe('se');
    expect(sent.documents).toEqual([{ key: 'contract', name: 'contract.pdf' }]);
  }, 120_000);
});

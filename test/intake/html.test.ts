import { writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { findChromium, renderHtml } from '../../src/local/documents/intake/html.js';
import { findTextInPdf, withPdfjsDocument } from '../../src/local/documents/intake/pdfText.js';
import { tempDir } from '../helpers.js';
import { expectRightOf, pageTexts } from './helpers.js';

const builtin = (html: string, fieldsMode: 'native' | 'none' = 'native', timeoutMs?: number) =>
  renderHtml(html, { fieldsMode, renderer: 'builtin', timeoutMs });

/** Text items with their boxes (top-left origin), to check the layout. */
const textItems = (pdf: Buffer) =>
  withPdfjsDocument(pdf, async (d) => {
    const out: { page: number; str: string; x: number; y: number; w: number }[] = [];
    for (let n = 1; n <= d.numPages; n++) {
      const page = await d.getPage(n);
      const h = page.view[3]!;
      for (const i of (await page.getTextContent()).items)
        if ('str' in i && i.str.trim())
          out.push({ page: n, str: i.str, x: i.transform[4], y: h - i.transform[5], w: i.width });
    }
    return out;
  });

const FORM = `<!doctype html><html><head><title>t</title></head><body>
<h1>Order form</h1>
<p><label for="fn">First name</label> <input id="fn" name="first" required value="Ada" data-signer="signer-1, signer-2"></p>
<p><label>Email <input type="email" placeholder="you@example.com"></label></p>
<p><input type="number" aria-label="Quantity" value="3"> <input type="tel" name="phone"> <input type="date" name="when" value="2024-05-01"></p>
<p><input type="checkbox" name="agree" checked> <input type="checkbox" name="agree"></p>
<p><select name="plan"><option value="b">Basic</option><option value="p" selected>Pro</option></select> <select name="size"><option>S</option></select></p>
<textarea name="notes">Line one
line two</textarea>
<div data-esign-kind="SIG" name="sign" data-signer="signer-1" style="width: 200px; height: 50px"><input name="ignored-inside"></div>
<span data-esign-kind="ini"></span> <span data-esign-kind="snm" id="printed"></span> <span data-esign-kind="att"></span>
<input type="hidden" name="secret" value="x"> <input type="password" name="pw"> <input name="gone" style="display: none"> <div hidden><input name="gone2"></div>
<input type="radio" name="r"> <input type="submit" value="Send">
</body></html>`;

describe('renderHtml: fields from the markup', () => {
  it('maps form elements and field annotations to kinds, keys, labels, values and editors', async () => {
    const { fields, renderer } = await builtin(FORM);
    expect(renderer).toBe('builtin');
    const strip = fields.map(({ page, x, y, w, h, ...f }) => f);
    expect(strip).toEqual([
      {
        key: 'first',
        kind: 'inp',
        label: 'First name',
        required: true,
        initial_value: 'Ada',
        editors: ['signer-1', 'signer-2'],
      },
      { key: 'inp-2', kind: 'inp', label: 'Email' },
      { key: 'inp-3', kind: 'inp', label: 'Quantity', initial_value: '3' },
      { key: 'phone', kind: 'inp' },
      { key: 'when', kind: 'dat', initial_value: '2024-05-01' },
      { key: 'agree', kind: 'chk', initial_value: 'true' },
      { key: 'agree-2', kind: 'chk' },
      { key: 'plan', kind: 'sel', initial_value: 'p' },
      { key: 'size', kind: 'sel' },
      { key: 'notes', kind: 'txt', initial_value: 'Line one\nline two' },
      { key: 'sign', kind: 'sig', editors: ['signer-1'] },
      { key: 'ini-1', kind: 'ini' },
      { key: 'printed', kind: 'snm' },
      { key: 'att-1', kind: 'att' },
    ]);
    for (const f of fields) {
      expect(f.page).toBe(1);
      expect(f.w).toBeGreaterThan(0);
      expect(f.h).toBeGreaterThan(0);
    }
  });

  it('uses the placeholder when there is no label, and keeps keys unique', async () => {
    const { fields } = await builtin(
      '<input name="a" placeholder="Type here"><input name="a"><input id="a"><textarea aria-label="Notes"></textarea><input name="inp-5"><input>',
    );
    expect(fields.map((f) => [f.key, f.label])).toEqual([
      ['a', 'Type here'],
      ['a-2', undefined],
      ['a-3', undefined],
      ['txt-1', 'Notes'],
      ['inp-5', undefined],
      ['inp-5-2', undefined], // the fifth unnamed input field, whose own key is taken
    ]);
  });

  it('finds no fields in mode none, and shows the values then', async () => {
    const none = await builtin(FORM, 'none');
    expect(none.fields).toEqual([]);
    const shown = (await pageTexts(none.pdf)).join(' ');
    expect(shown).toContain('Ada');
    expect(shown).toContain('Pro');
    expect(shown).toContain('Line one');
    // Native fields carry their values: the page does not show them a second time.
    const native = (await pageTexts((await builtin(FORM)).pdf)).join(' ');
    expect(native).toContain('First name');
    expect(native).not.toContain('Ada');
    expect(native).not.toContain('Pro');
    expect(native).not.toContain('Line one');
  });

  it('rejects what it cannot use, with one-line messages', async () => {
    await expect(builtin('')).rejects.toThrow('The HTML document is empty.');
    await expect(builtin(' \n\t ')).rejects.toThrow('The HTML document is empty.');
    await expect(builtin('<div data-esign-kind="stamp-it"></div>')).rejects.toThrow(
      /^Unknown data-esign-kind "stamp-it" on <div>: use one of sig, ini, snm, inp, txt, dat, tms, chk, cbx, cbg, sel, att, stp\.$/,
    );
    await expect(renderHtml('<p>x</p>', { fieldsMode: 'all' as 'none' })).rejects.toThrow(
      'Unknown fields mode "all": use native or none.',
    );
    await expect(renderHtml('<p>x</p>', { fieldsMode: 'none', renderer: 'wkhtml' as 'auto' })).rejects.toThrow(
      'Unknown HTML renderer "wkhtml": use auto, chromium or builtin.',
    );
    const big = `<p>${'word '.repeat(50)}</p>`.repeat(4000);
    await expect(builtin(big, 'none', 5)).rejects.toThrow('Rendering the HTML took longer than 5 ms.');
  });

  it('prefers the headless shell anywhere on PATH to the full browser in an earlier directory', () => {
    const [early, late] = [tempDir('esign-path-'), tempDir('esign-path-')];
    const saved = { PATH: process.env.PATH, ESIGN_CHROMIUM: process.env.ESIGN_CHROMIUM };
    try {
      for (const [dir, name] of [
        [early.dir, 'chromium'],
        [late.dir, 'chromium-headless-shell'],
      ] as const)
        writeFileSync(join(dir, name), '#!/bin/sh\n', { mode: 0o755 });
      delete process.env.ESIGN_CHROMIUM;
      process.env.PATH = [early.dir, late.dir].join(delimiter);
      expect(findChromium()).toBe(join(late.dir, 'chromium-headless-shell'));
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.ESIGN_CHROMIUM !== undefined) process.env.ESIGN_CHROMIUM = saved.ESIGN_CHROMIUM;
      early.cleanup();
      late.cleanup();
    }
  });

  it('reports a missing Chromium when it is asked for, and falls back to the built-in renderer on auto', async () => {
    const saved = { PATH: process.env.PATH, ESIGN_CHROMIUM: process.env.ESIGN_CHROMIUM };
    try {
      delete process.env.ESIGN_CHROMIUM;
      process.env.PATH = '/nonexistent';
      expect(findChromium()).toBeUndefined();
      await expect(renderHtml('<p>x</p>', { fieldsMode: 'none', renderer: 'chromium' })).rejects.toThrow(
        'Chromium is not installed: none of chromium-headless-shell, chrome-headless-shell, chromium, chromium-browser, google-chrome on PATH (set ESIGN_CHROMIUM to its path).',
      );
      expect((await renderHtml('<p>x</p>', { fieldsMode: 'none' })).renderer).toBe('builtin');
      process.env.ESIGN_CHROMIUM = '/nonexistent/chromium';
      expect(findChromium()).toBe('/nonexistent/chromium');
      await expect(renderHtml('<p>x</p>', { fieldsMode: 'none', renderer: 'chromium' })).rejects.toThrow(
        /^Chromium could not render the HTML: /,
      );
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.ESIGN_CHROMIUM === undefined) delete process.env.ESIGN_CHROMIUM;
      else process.env.ESIGN_CHROMIUM = saved.ESIGN_CHROMIUM;
    }
  });
});

describe('renderHtml with the built-in renderer', () => {
  it('prints Letter pages with headings, runs, lists and tables, breaking pages as needed', async () => {
    const paragraphs = Array.from({ length: 80 }, (_, i) => `<p>Paragraph ${i + 1} of the agreement.</p>`).join('');
    const html = `<h1>Title</h1><p>Plain <b>bold</b> <i>italic</i> <b><i>both</i></b> end.</p>
      <ul><li>apple</li><li>pear<ol><li>inner</li></ol></li></ul><ol start="7"><li>seventh</li></ol>
      <table><tr><th>Head A</th><th>Head B</th></tr><tr><td>cell A</td><td>cell B</td></tr></table>${paragraphs}<p>Last: <input name="last"></p>`;
    const { pdf, fields } = await builtin(html);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(3);
    for (const page of doc.getPages()) expect(page.getSize()).toEqual({ width: 612, height: 792 });
    const texts = await pageTexts(pdf);
    expect(texts[0]).toMatch(/Title[\s\S]*Plain[\s\S]*bold[\s\S]*italic[\s\S]*both/);
    expect(texts[0]).toMatch(/•[\s\S]*apple[\s\S]*•[\s\S]*pear[\s\S]*1\.[\s\S]*inner[\s\S]*7\.[\s\S]*seventh/);
    expect(texts[0]).toMatch(/Head A[\s\S]*Head B[\s\S]*cell A[\s\S]*cell B/);
    expect(texts.join(' ')).toContain('Paragraph 80 of the agreement.');
    // Every paragraph is printed once, in order, and pages break between lines.
    const items = await textItems(pdf);
    const order = items.filter((i) => i.str.startsWith('Paragraph')).map((i) => Number(/\d+/.exec(i.str)![0]));
    expect(order).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    for (const i of items) {
      expect(i.y).toBeGreaterThan(36);
      expect(i.y).toBeLessThan(792 - 36 + 1);
      expect(i.x + i.w).toBeLessThanOrEqual(612 - 36 + 0.5);
    }
    // Fonts: bold and italic runs use the bold and oblique Helvetica.
    const fonts = await withPdfjsDocument(pdf, async (d) => {
      const page = await d.getPage(1);
      const tc = await page.getTextContent();
      const names: Record<string, string> = {};
      for (const i of tc.items) if ('str' in i && /^(bold|italic|both)$/.test(i.str)) names[i.str] = i.fontName;
      return names;
    });
    expect(new Set(Object.values(fonts)).size).toBe(3);
    await expectRightOf(
      pdf,
      fields.find((f) => f.key === 'last'),
      'Last:',
    );
    expect(fields[0]!.page).toBe(doc.getPageCount());
  });

  it('wraps long text within the margins and cuts words longer than a line', async () => {
    const long = 'lorem ipsum dolor sit amet '.repeat(60);
    const { pdf } = await builtin(`<p>${long}</p><p>${'x'.repeat(300)}</p>`, 'none');
    const items = await textItems(pdf);
    expect(items.length).toBeGreaterThan(10);
    for (const i of items) expect(i.x + i.w).toBeLessThanOrEqual(612 - 36 + 0.5);
    expect(
      items
        .filter((i) => /^x+$/.test(i.str))
        .map((i) => i.str)
        .join(''),
    ).toBe('x'.repeat(300));
  });

  it('puts each field where its element is drawn: inline, in tables, on later pages', async () => {
    const filler = Array.from({ length: 45 }, (_, i) => `<p>Filler ${i}</p>`).join('');
    const html = `<p>Name: <input name="name"> Agree: <input type="checkbox" name="ok"></p>
      <table><tr><td>Signer</td><td data-esign-kind="sig" name="cellsig"></td></tr></table>${filler}
      <p>Initials: <span data-esign-kind="ini" name="ini"></span></p><p>Date: <input type="date" name="d"></p>`;
    const { pdf, fields } = await builtin(html);
    const by = (k: string) => fields.find((f) => f.key === k);
    await expectRightOf(pdf, by('name'), 'Name:');
    await expectRightOf(pdf, by('ok'), 'Agree:');
    await expectRightOf(pdf, by('d'), 'Date:');
    expect(by('d')!.page).toBe(2);
    expect(by('ini')!.page).toBe(2);
    // The annotated table cell is the right half of the row that holds "Signer".
    const [signer] = await findTextInPdf(pdf, 'Signer');
    const cell = by('cellsig')!;
    expect(cell).toMatchObject({ page: 1, x: 36 + 270, w: 270 });
    expect(cell.y).toBeLessThan(signer!.y);
    expect(cell.y + cell.h).toBeGreaterThan(signer!.y + signer!.h);
  });

  it('replaces characters the standard fonts cannot show instead of failing', async () => {
    const { pdf } = await builtin('<p>Café – “quotes” € Łódź Ωmega 日本 😀 done</p>', 'none');
    const [text] = await pageTexts(pdf);
    expect(text).toContain('Café – “quotes” € Lódz ?mega ?? ? done');
  });
});

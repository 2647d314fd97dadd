import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convertOfficeToPdf, findSoffice } from '../../src/local/documents/intake/office.js';
import { OFFICE_EXTENSIONS } from '../../src/domain/enums.js';
import { findTextInPdf, withPdfjsDocument } from '../../src/local/documents/intake/pdfText.js';
import { container, docx } from './officeFiles.js';

const scratch = mkdtempSync(join(tmpdir(), 'esign-office-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const path = join(scratch, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Alive and not a zombie (a killed orphan may wait a moment for init to reap it). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Files that pass the type checks; the stand-ins below never read them. */
const [DOCX, XLSX, PPTX, DOC, PPT] = await Promise.all(['docx', 'xlsx', 'pptx', 'doc', 'ppt'].map(container));
/** Stand-ins record what they are given in this test's directory: they run unboxed, as the test. */
const unboxed = (sofficePath: string, timeoutMs?: number) => ({ sofficePath, timeoutMs, box: false as const });

/** The conversion directory a stand-in was run in (its last argument is <dir>/document.<ext>), gone afterwards? */
const workDirGone = (argsFile: string) => {
  const input = readFileSync(argsFile, 'utf8').trim().split(' ').at(-1)!;
  expect(input).toMatch(/esign-office-[^/]+\/document\.\w+$/);
  return !existsSync(dirname(input));
};

describe('findSoffice', () => {
  it('prefers ESIGN_SOFFICE, then soffice or libreoffice on PATH', () => {
    const saved = { PATH: process.env.PATH, ESIGN_SOFFICE: process.env.ESIGN_SOFFICE };
    try {
      const bin = mkdtempSync(join(scratch, 'bin-'));
      writeFileSync(join(bin, 'libreoffice'), '#!/bin/sh\n');
      chmodSync(join(bin, 'libreoffice'), 0o755);
      writeFileSync(join(bin, 'soffice'), 'not executable');
      delete process.env.ESIGN_SOFFICE;
      process.env.PATH = `/nonexistent:${bin}`;
      expect(findSoffice()).toBe(join(bin, 'libreoffice'));
      process.env.ESIGN_SOFFICE = '/opt/lo/soffice';
      expect(findSoffice()).toBe('/opt/lo/soffice');
      delete process.env.ESIGN_SOFFICE;
      process.env.PATH = '/nonexistent';
      expect(findSoffice()).toBeUndefined();
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.ESIGN_SOFFICE === undefined) delete process.env.ESIGN_SOFFICE;
      else process.env.ESIGN_SOFFICE = saved.ESIGN_SOFFICE;
    }
  });
});

describe('convertOfficeToPdf without LibreOffice', () => {
  it('knows the office formats', () => {
    expect([...OFFICE_EXTENSIONS].sort()).toEqual(['doc', 'docx', 'ppt', 'pptx', 'xls', 'xlsx']);
  });

  it('rejects unknown types, empty files and a missing program before running anything', async () => {
    await expect(convertOfficeToPdf(Buffer.from('x'), 'odt', { sofficePath: '/bin/false' })).rejects.toThrow(
      'Cannot convert ".odt" files: the office formats are doc, docx, ppt, pptx, xls, xlsx.',
    );
    await expect(convertOfficeToPdf(Buffer.alloc(0), '.DOCX', { sofficePath: '/bin/false' })).rejects.toThrow(
      'The office document is empty.',
    );
    await expect(convertOfficeToPdf(Buffer.from('just text'), 'xlsx', { sofficePath: '/bin/false' })).rejects.toThrow(
      'The .xlsx file is not an Office Open XML document (not a ZIP archive).',
    );
    await expect(convertOfficeToPdf(DOCX, 'docx', { sofficePath: join(scratch, 'no-such-soffice') })).rejects.toThrow(
      /^Cannot run LibreOffice \(.*no-such-soffice\): not an executable file\.$/,
    );
  });

  it('passes the conversion arguments, with a profile of its own, and returns the PDF written', async () => {
    // A stand-in that records its arguments and writes the output file LibreOffice would.
    const fake = script(
      'fake-ok',
      `echo "$@" > "${scratch}/args"\nwhile [ "$1" != "--outdir" ]; do shift; done\nmkdir -p "$2"; printf '%%PDF-1.4 fake' > "$2/document.pdf"`,
    );
    const pdf = await convertOfficeToPdf(XLSX, 'XLSX', unboxed(fake));
    expect(pdf.toString()).toBe('%PDF-1.4 fake');
    const args = readFileSync(join(scratch, 'args'), 'utf8');
    expect(args).toMatch(
      /--headless .*-env:UserInstallation=file:\/\/\/.*esign-office-[^ ]+\/profile --convert-to pdf --outdir \S+\/out \S+\/document\.xlsx/,
    );
    expect(workDirGone(join(scratch, 'args'))).toBe(true);
  });

  it('fails clearly when LibreOffice writes no PDF, or a bad one, or exits with an error', async () => {
    const silent = script(
      'fake-silent',
      `echo "$@" > "${scratch}/args-silent"; echo "Error: source file could not be loaded"`,
    );
    await expect(convertOfficeToPdf(DOC, 'doc', unboxed(silent))).rejects.toThrow(
      'LibreOffice could not convert the .doc document to PDF: Error: source file could not be loaded',
    );
    const junk = script(
      'fake-junk',
      `while [ "$1" != "--outdir" ]; do shift; done\nmkdir -p "$2"; echo nope > "$2/document.pdf"`,
    );
    await expect(convertOfficeToPdf(PPT, 'ppt', unboxed(junk))).rejects.toThrow(
      'LibreOffice produced no valid PDF from the .ppt document.',
    );
    const crash = script('fake-crash', `echo "$@" > "${scratch}/args-crash"; echo "boom" >&2; exit 3`);
    await expect(convertOfficeToPdf(PPTX, 'pptx', unboxed(crash))).rejects.toThrow(
      'LibreOffice failed (exit code 3): boom',
    );
    expect(workDirGone(join(scratch, 'args-silent'))).toBe(true);
    expect(workDirGone(join(scratch, 'args-crash'))).toBe(true);
  });

  it('stops a conversion that takes too long, with every process it started', async () => {
    const pids = join(scratch, 'pids');
    const slow = script('fake-slow', `echo "$@" > "${scratch}/args-slow"; sleep 30 & echo $$ $! > "${pids}"; wait`);
    // Stopped, not waited for: the script's `sleep 30` and the script itself are gone when the
    // conversion is refused (a conversion left to run would still have them).
    await expect(convertOfficeToPdf(DOCX, 'docx', unboxed(slow, 500))).rejects.toThrow(
      'LibreOffice did not convert the document within 500 ms and was stopped.',
    );
    for (const pid of readFileSync(pids, 'utf8').trim().split(' ').map(Number)) expect(running(pid)).toBe(false);
    expect(workDirGone(join(scratch, 'args-slow'))).toBe(true);
  });
});

// These need LibreOffice, as CI installs it: without it they fail, saying what to install.
const INSTALL =
  'apt-get install --no-install-recommends libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui';
const soffice = findSoffice();

/**
 * Real office files LibreOffice made from text, once (not on every run):
 * order.xlsx from `Item,Quantity\nWidgets,42\n` as order.csv (`soffice --headless --convert-to xlsx`),
 * old.doc from `<html><body><p>Old format body</p></body></html>` (`--convert-to 'doc:MS Word 97'`).
 */
const officeFixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', name));

const textOf = (pdf: Buffer) =>
  withPdfjsDocument(pdf, async (d) => {
    const pages: string[] = [];
    for (let n = 1; n <= d.numPages; n++)
      pages.push((await (await d.getPage(n)).getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
    return pages;
  });

describe('convertOfficeToPdf with LibreOffice', () => {
  it('finds LibreOffice', () => {
    expect(soffice, `soffice on PATH or ESIGN_SOFFICE (${INSTALL})`).toBeDefined();
  });

  it('converts the Word fixture and an Excel file at the same time', { timeout: 240_000 }, async () => {
    const docx = officeFixture('contract.docx');
    const xlsx = officeFixture('order.xlsx');
    expect(xlsx.subarray(0, 2).toString()).toBe('PK');
    const [fromWord, fromExcel] = await Promise.all([
      convertOfficeToPdf(docx, 'docx'),
      convertOfficeToPdf(xlsx, 'xlsx'),
    ]);
    const word = await textOf(fromWord);
    expect(word).toHaveLength(1);
    expect(word[0]).toContain('Services agreement');
    const [anchor, ...more] = await findTextInPdf(fromWord, 'Signature:');
    expect(more).toEqual([]);
    expect(anchor).toMatchObject({ page: 1 });
    const excel = await textOf(fromExcel);
    expect(excel.join(' ')).toMatch(/Quantity[\s\S]*Widgets[\s\S]*42/);
  });

  it('converts a legacy .doc', { timeout: 120_000 }, async () => {
    const doc = officeFixture('old.doc');
    expect((await textOf(await convertOfficeToPdf(doc, 'doc'))).join(' ')).toContain('Old format body');
  });

  it('fails clearly on a damaged file', { timeout: 120_000 }, async () => {
    // Not a ZIP archive past its first bytes: refused before LibreOffice runs.
    const damaged = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(2000, 7)]);
    await expect(convertOfficeToPdf(damaged, 'docx')).rejects.toThrow(/^The \.docx file is not a readable ZIP archive/);
    // A well-formed package whose document LibreOffice cannot read.
    const unreadable = await docx({ body: '<w:p><w:r><w:t>unclosed' });
    await expect(convertOfficeToPdf(unreadable, 'docx')).rejects.toThrow(
      /^LibreOffice could not convert the \.docx document to PDF/,
    );
  });
});

// Documents built to hurt (issue 44), generated here, never committed: PDFs whose page tree is a
// DAG or a cycle, whose cross-reference data claims billions of entries, whose streams inflate to
// gigabytes, whose objects nest without end, whose trailer lies, and HTML too large to lay out.
// test/security/hostile-documents.test.ts sends each to `esign serve`; bench/security.mjs
// --only documents prints what each costs the server.
import { constants, createDeflate } from 'node:zlib';

const MB = 1024 * 1024;

/** A PDF of `objs` ([number, body, stream?]) with a classic xref table and `trailer` entries. */
export function pdfOf(objs, trailer = '/Root 1 0 R') {
  const parts = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0].length;
  const offsets = [];
  const push = (b) => {
    parts.push(b);
    at += b.length;
  };
  for (const [n, body, stream] of objs) {
    offsets[n] = at;
    if (stream) {
      push(Buffer.from(`${n} 0 obj\n${body.replace('LENGTH', String(stream.length))}\nstream\n`, 'latin1'));
      push(stream);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    } else push(Buffer.from(`${n} 0 obj\n${body}\nendobj\n`, 'latin1'));
  }
  const size = Math.max(...objs.map((o) => o[0])) + 1;
  const xref = at;
  let table = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let i = 1; i < size; i++)
    table += `${String(offsets[i] ?? 0).padStart(10, '0')} 00000 ${offsets[i] ? 'n' : 'f'} \n`;
  push(Buffer.from(`${table}trailer\n<< /Size ${size} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

const PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';

/** `bytes` zero bytes deflated, in chunks (never held inflated). */
export async function zeroBomb(bytes) {
  const d = createDeflate({ level: 9, strategy: constants.Z_RLE });
  const out = [];
  d.on('data', (c) => out.push(c));
  const done = new Promise((r) => d.on('end', r));
  const chunk = Buffer.alloc(Math.min(MB, bytes));
  for (let left = bytes; left > 0; left -= chunk.length)
    if (!d.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await new Promise((r) => d.once('drain', r));
  d.end();
  await done;
  return Buffer.concat(out);
}

/** The 2.4 KB page tree of issue 44: each /Pages node's /Kids holds 20 references to the next, 8 levels. */
export function pageTreeDag(width = 20, levels = 8) {
  const objs = [[1, '<< /Type /Catalog /Pages 10 0 R >>']];
  for (let l = 0; l < levels; l++) {
    const kid = l < levels - 1 ? 11 + l : 30;
    const parent = l ? `/Parent ${9 + l} 0 R ` : '';
    objs.push([
      10 + l,
      `<< /Type /Pages ${parent}/Kids [${Array(width).fill(`${kid} 0 R`).join(' ')}] /Count ${width ** (levels - l)} >>`,
    ]);
  }
  objs.push([30, `<< /Type /Page /Parent ${9 + levels} 0 R /MediaBox [0 0 612 792] >>`]);
  return pdfOf(objs);
}

/** A /Pages node whose kid is a /Pages node whose kid is the first. */
export const pageTreeCycle = () =>
  pdfOf([
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>'],
  ]);

/** 775 bytes or so: an xref stream claiming 2,000,000,000 entries. */
export function xrefStreamIndex() {
  const head =
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n';
  const page = `3 0 obj\n${PAGE}\nendobj\n`;
  const entries = Buffer.from([1, 0, 0, 0, 0, 0, 0]);
  const xrefAt = head.length + page.length;
  const dict = `4 0 obj\n<< /Type /XRef /Size 2000000000 /Index [0 2000000000] /W [1 4 2] /Root 1 0 R /Length ${entries.length} >>\nstream\n`;
  return Buffer.concat([
    Buffer.from(head + page + dict, 'latin1'),
    entries,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
  ]);
}

/** A one-page PDF whose classic xref table has `entries` entries (2 million: 40 MB). */
export function classicXref(entries = 2_000_000) {
  const body = `%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n${PAGE}\nendobj\n`;
  const row = Buffer.from('0000000009 00000 n \n', 'latin1');
  const rows = Buffer.alloc(row.length * entries);
  for (let i = 0; i < entries; i++) row.copy(rows, i * row.length);
  return Buffer.concat([
    Buffer.from(`${body}xref\n0 ${entries}\n`, 'latin1'),
    rows,
    Buffer.from(`trailer\n<< /Size ${entries} /Root 1 0 R >>\nstartxref\n${body.length}\n%%EOF\n`, 'latin1'),
  ]);
}

/** An object stream of `bytes` inflated (1 GB from about 1 MB). */
export async function objectStreamBomb(bytes = 1024 * MB) {
  const bomb = await zeroBomb(bytes);
  return pdfOf([
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, PAGE],
    [4, '<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length LENGTH >>', bomb],
  ]);
}

/** A page whose content stream inflates to `bytes` (2.2 GB from about 2 MB). */
export async function contentStreamBomb(bytes = 2200 * MB) {
  const bomb = await zeroBomb(bytes);
  return pdfOf([
    [1, '<< /Type /Catalog /Pages 2 0 R >>'],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'],
    [4, '<< /Filter /FlateDecode /Length LENGTH >>', bomb],
  ]);
}

/** Arrays nested `depth` deep inside the catalog. */
export const deepNesting = (depth = 100_000) =>
  pdfOf([
    [1, `<< /Type /Catalog /Pages 2 0 R /Deep ${'['.repeat(depth)}${']'.repeat(depth)} >>`],
    [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
    [3, PAGE],
  ]);

/** A trailer whose /Root names no object, whose /Prev points past the end and /Size is a word. */
export const malformedTrailer = () =>
  pdfOf(
    [
      [1, '<< /Type /Catalog /Pages 2 0 R >>'],
      [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
      [3, PAGE],
    ],
    '/Root 99 0 R /Prev 999999999 /Info (x',
  );

/** A one-page PDF whose trailer has no /Root (pdf-lib finds the catalog anyway; pdfjs does not). */
export const noRoot = () =>
  pdfOf(
    [
      [1, '<< /Type /Catalog /Pages 2 0 R >>'],
      [2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'],
      [3, PAGE],
    ],
    '',
  );

/** An HTML table of about `bytes` (9 MB: what ran the built-in renderer out of heap after 299 s). */
export function hugeTable(bytes = 9 * MB) {
  const row = '<tr><td>cell one</td><td>cell two</td><td>a third cell</td><td>and a fourth</td></tr>';
  return `<html><body><table>${row.repeat(Math.ceil(bytes / row.length))}</table></body></html>`;
}

/**
 * The corpus: each with how it is sent, what it adds to the document (auto-placements), and the
 * reason its refusal must give. `scale` 1 is the issue's sizes; a smoke run passes less.
 */
export async function hostileDocuments(scale = 1) {
  const autoPlacement = { auto_placements: [{ key: 'ap', kind: 'sig', search: 'Sign', editors: ['a'] }] };
  return [
    { name: 'page-tree DAG (20 kids x 8 levels)', pdf: pageTreeDag(), reason: /page tree reaches a node twice/ },
    { name: 'page-tree cycle', pdf: pageTreeCycle(), reason: /page tree reaches a node twice/ },
    { name: 'xref stream /Index [0 2000000000]', pdf: xrefStreamIndex(), reason: /cross-reference .* 2,000,000,000/ },
    {
      name: 'classic xref, 2 million entries (multipart)',
      pdf: classicXref(Math.round(2_000_000 * scale)),
      multipart: true,
      reason: /cross-reference table .* entries/,
    },
    {
      name: 'object-stream flate bomb (1 GB)',
      pdf: await objectStreamBomb(Math.round(1024 * MB * scale)),
      reason: /inflate to more than/,
    },
    {
      name: 'content-stream flate bomb (2.2 GB) + auto-placement',
      pdf: await contentStreamBomb(Math.round(2200 * MB * scale)),
      extra: autoPlacement,
      reason: /inflate to more than/,
    },
    { name: 'arrays nested 100,000 deep', pdf: deepNesting(), reason: /nest deeper than/ },
    { name: 'malformed trailer (/Root 99 0 R)', pdf: malformedTrailer(), reason: /corrupt or unreadable/ },
    { name: 'no /Root + auto-placement', pdf: noRoot(), extra: autoPlacement, reason: /corrupt or unreadable/ },
    {
      name: 'HTML table of 9 MB (built-in renderer)',
      html: hugeTable(Math.round(9 * MB * scale)),
      // Or, where a loaded machine left the renderer under half the CPU at each of its tries, not done
      // in them: the server cannot tell a page too big from a machine too busy.
      reason: /HTML (document exceeds the processing limits|took longer)|not done in 3 tries/,
    },
  ];
}

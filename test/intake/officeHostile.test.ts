// Issue 44, item 2: office files built to hurt are refused before LibreOffice sees them, and the box
// LibreOffice runs in holds on its own (no network, no files beyond its scratch directory, a memory cap).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERTER_CPU_SECONDS } from '../../src/domain/documentLimits.js';
import { boxCommand, findBwrap, NOBODY, SCRIPT_TOOLS } from '../../src/local/documents/intake/converterBox.js';
import { convertOfficeToPdf, findSoffice } from '../../src/local/documents/intake/office.js';
import { checkOfficeFile, OFFICE_ZIP_LIMITS } from '../../src/local/documents/intake/officeCheck.js';
import { compound, container, docx, docxBomb, docxLinkingImage, docxWithField, odt, zip } from './officeFiles.js';

const scratch = mkdtempSync(join(tmpdir(), 'esign-office-hostile-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A listener on 127.0.0.1 that counts what reaches it. */
let listener: Server;
let hits: string[] = [];
let base = '';
beforeAll(async () => {
  listener = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('x');
  });
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => listener.close());

/** A stand-in LibreOffice that notes it was run: a refusal must come before it. */
const ran = join(scratch, 'ran');
const standIn = join(scratch, 'soffice');
writeFileSync(
  standIn,
  `#!/bin/sh\ntouch "${ran}"\nwhile [ "$1" != "--outdir" ]; do shift; done\nmkdir -p "$2"; printf '%%PDF-1.4 ok' > "$2/document.pdf"\n`,
);
chmodSync(standIn, 0o755);
const convert = async (data: Buffer, type: string) => {
  rmSync(ran, { force: true });
  try {
    return await convertOfficeToPdf(data, type, { sofficePath: standIn, box: false });
  } finally {
    expect.soft(hits, 'nothing reached the listener').toEqual([]);
  }
};
const refused = async (data: Buffer, type: string, why: RegExp) => {
  await expect(convert(data, type)).rejects.toThrow(why);
  expect(existsSync(ran), 'LibreOffice was not run').toBe(false);
};

describe('office files are what their extension says', () => {
  it('refuses an OpenDocument text named .docx, HTML named .doc, and other mix-ups, saying what each is', async () => {
    const odtFile = await odt(
      `<text:p>ODT body</text:p><draw:frame><draw:image xlink:href="${base}/odt.png"/></draw:frame>`,
    );
    await refused(
      odtFile,
      'docx',
      /^The \.docx file is an OpenDocument file \(application\/vnd\.oasis\.opendocument\.text\), not an Office Open XML document/,
    );
    const html = Buffer.from(`<html><body><p>HTML body</p><img src="${base}/html.png"></body></html>`);
    await refused(
      html,
      'doc',
      /^The \.doc file is not a Word 97-2003 document \(not an OLE2 compound file: it is HTML\)\.$/,
    );
    await refused(
      html,
      'docx',
      /^The \.docx file is not an Office Open XML document \(not a ZIP archive: it is HTML\)\.$/,
    );
    await refused(
      await container('xlsx'),
      'docx',
      /^The \.docx file is an Excel workbook \(\.xlsx\), not a Word document\.$/,
    );
    await refused(await container('docx'), 'pptx', /is a Word document \(\.docx\), not a PowerPoint presentation\.$/);
    await refused(
      await container('doc'),
      'xls',
      /^The \.xls file is a Word 97-2003 document \(\.doc\), not an Excel 97-2003 workbook\.$/,
    );
    await refused(
      await container('docx'),
      'doc',
      /^The \.doc file is not a Word 97-2003 document \(not an OLE2 compound file: it is a ZIP archive\)\.$/,
    );
    await refused(
      compound({ Other: 'x' }),
      'ppt',
      /without the "PowerPoint Document" stream of a PowerPoint 97-2003 presentation/,
    );
    await refused(
      await zip([{ name: 'a.txt', data: 'x' }]),
      'xlsx',
      /is a ZIP archive but not an Office Open XML document \(no \[Content_Types\]\.xml\)/,
    );
    await refused(
      Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(500, 7)]),
      'docx',
      /is not a readable ZIP archive/,
    );
    // and what is right passes, each to the (stand-in) converter
    for (const type of ['docx', 'xlsx', 'pptx', 'doc', 'xls', 'ppt']) {
      expect((await convert(await container(type), type)).toString()).toBe('%PDF-1.4 ok');
      expect(existsSync(ran)).toBe(true);
    }
  });
});

describe('office files that reach outside themselves are refused', () => {
  it('refuses a picture linked to a file of the server or to a loopback listener', async () => {
    await refused(
      await docxLinkingImage('file:///usr/share/pixmaps/debian-logo.png'),
      'docx',
      /^The \.docx file links to an outside image from "word\/_rels\/document\.xml\.rels" \(an external relationship\)/,
    );
    await refused(await docxLinkingImage(`${base}/linked.png`), 'docx', /links to an outside image/);
    // an absolute address is outside whatever the relationship says of itself
    await refused(
      await docx({
        rels: [['r9', 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image', `${base}/x.png`]],
      }),
      'docx',
      /links to an outside image/,
    );
    // entities do not hide it
    await refused(
      await docx({
        rels: [
          [
            'r9',
            'http://schemas.openxmlformats.org/officeDocument/2006/relationships/frame',
            '&#x66;ile:///etc/passwd',
          ],
        ],
      }),
      'docx',
      /links to an outside frame/,
    );
    expect(hits).toEqual([]);
  });

  it('refuses fields that fetch, even split over runs, and keeps those that do not', async () => {
    for (const field of [
      ` INCLUDEPICTURE "${base}/f.png" \\d `,
      ' INCLUDETEXT "file:///etc/passwd" ',
      ' LINK Excel.Sheet.8 "x.xls" ',
      ' DDEAUTO c:\\\\windows\\\\cmd.exe "/c calc" ',
    ])
      await refused(
        await docxWithField(field),
        'docx',
        /has an? (INCLUDEPICTURE|INCLUDETEXT|LINK|DDEAUTO) field in "word\/document\.xml", which fetches from outside the file/,
      );
    await refused(
      await docx({
        body: `<w:p><w:fldSimple w:instr=" INCLUDEPICTURE &quot;${base}/s.png&quot; "><w:r><w:t>x</w:t></w:r></w:fldSimple></w:p>`,
      }),
      'docx',
      /INCLUDEPICTURE field/,
    );
    // a Word 97-2003 field: 0x13, the instruction, 0x14 and its result, 0x15
    const docField = Buffer.from(`\x13 INCLUDEPICTURE "${base}/b.png" \x14pic\x15`, 'utf16le');
    await refused(compound({ WordDocument: docField }), 'doc', /^The \.doc file has a INCLUDEPICTURE field/);
    for (const field of [' PAGE ', ' HYPERLINK "https://example.com/LINK" ', ' DATE \\@ "yyyy" '])
      expect((await convert(await docxWithField(field), 'docx')).toString()).toBe('%PDF-1.4 ok');
  });

  it('keeps a hyperlink (written into the PDF, never fetched)', async () => {
    const linked = await docx({
      body: '<w:p><w:hyperlink r:id="rH"><w:r><w:t>site</w:t></w:r></w:hyperlink></w:p>',
      rels: [
        [
          'rH',
          'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink',
          'https://example.com/',
          true,
        ],
      ],
    });
    expect((await convert(linked, 'docx')).toString()).toBe('%PDF-1.4 ok');
  });

  it('refuses a spreadsheet formula that fetches and a DDE link', async () => {
    const sheet = (xml: string) =>
      zip([
        {
          name: '[Content_Types].xml',
          data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
        },
        { name: 'xl/workbook.xml', data: '<workbook/>' },
        { name: 'xl/worksheets/sheet1.xml', data: xml },
      ]);
    await refused(
      await sheet(`<sheetData><row><c r="A1"><f>_xlfn.WEBSERVICE("${base}/w")</f></c></row></sheetData>`),
      'xlsx',
      /formula in "xl\/worksheets\/sheet1\.xml" that fetches/,
    );
    await refused(
      await sheet(`<sheetData><row><c r="A1"><f>cmd|' /c calc'!A0</f></c></row></sheetData>`),
      'xlsx',
      /formula .* that fetches/,
    );
    await refused(
      await sheet('<externalLink><ddeLink ddeService="cmd" ddeTopic="x"/></externalLink>'),
      'xlsx',
      /holds a DDE link/,
    );
    expect(
      (
        await convert(await sheet('<sheetData><row><c r="A1"><f>SUM(B1:B3)</f></c></row></sheetData>'), 'xlsx')
      ).toString(),
    ).toBe('%PDF-1.4 ok');
  });

  it('without a sandbox, refuses a 97-2003 file that names an address anywhere', async () => {
    const saved = process.env.ESIGN_BWRAP;
    const doc = compound({ WordDocument: Buffer.from(`text and ${base}/img.png`, 'utf16le') });
    try {
      await expect(checkOfficeFile(doc, 'doc', { boxed: false })).rejects.toThrow(
        /names an outside address, and this server cannot convert without a sandbox/,
      );
      await expect(checkOfficeFile(doc, 'doc', { boxed: true })).resolves.toBeUndefined();
      process.env.ESIGN_BWRAP = 'off';
      expect(findBwrap()).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.ESIGN_BWRAP;
      else process.env.ESIGN_BWRAP = saved;
    }
  });
});

describe('ZIP bombs are bounded before LibreOffice', () => {
  it('refuses a body that inflates 1000 to 1 without inflating it', async () => {
    const bomb = await docxBomb(64 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(OFFICE_ZIP_LIMITS.inflatedBytes / 1000);
    const why = /^The \.docx file holds "word\/document\.xml", compressed more than 200 to 1: a ZIP bomb\.$/;
    await refused(bomb, 'docx', why);
    // Without inflating it: the same bomb with its compressed bytes made undecodable (0xFF opens a
    // block of a type deflate does not have) is refused for the same reason, which only its sizes
    // in the ZIP's directory can give.
    const name = Buffer.from('word/document.xml');
    const at = bomb.indexOf(name) + name.length;
    const compressed = bomb.readUInt32LE(at - name.length - 30 + 18);
    const broken = Buffer.from(bomb);
    broken.fill(0xff, at, at + compressed);
    await refused(broken, 'docx', why);
  });

  it('refuses too many entries, too many bytes in all, and an entry larger than it says', async () => {
    const many = await zip(
      Array.from({ length: OFFICE_ZIP_LIMITS.entries + 1 }, (_, i) => ({ name: `e${i}`, data: '' })),
    );
    await refused(many, 'docx', /holds 5001 entries; at most 5000 are accepted\./);
    // Each entry compressed less than the ratio, together past the total (random bytes do not compress).
    const { randomBytes } = await import('node:crypto');
    const chunk = randomBytes(1024 * 1024);
    const claimed = 40 * 1024 * 1024;
    const big = await zip(
      Array.from({ length: 7 }, (_, i) => ({ name: `m${i}.bin`, data: chunk, claimedSize: claimed })),
    );
    await refused(big, 'docx', /inflates past 256 MB/);
    // The directory says 100 bytes; the entry inflates to 4 MB: caught as it inflates.
    const liar = await zip([
      {
        name: '[Content_Types].xml',
        data: '<Types><Override ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      },
      { name: 'word/media/big.bin', repeat: { fill: 'a', size: 4 * 1024 * 1024 }, claimedSize: 100 },
    ]);
    await refused(liar, 'docx', /entry "word\/media\/big\.bin" is damaged/);
  });
});

// ---- The box itself, with real programs (bubblewrap, LibreOffice), as CI installs them ----

const bwrap = findBwrap();
const soffice = findSoffice();
const isRoot = process.getuid?.() === 0;
/** An image any Debian system has, readable by anyone: what a document must not be able to take. */
const SERVER_IMAGE = '/usr/share/pixmaps/debian-logo.png';

/** Runs `args` in the box over `dir`; resolves with its exit code and output. */
async function inBox(dir: string, args: string[], memoryBytes = 1024 * 1024 * 1024, env: Record<string, string> = {}) {
  const box = await boxCommand(args, { scratch: dir, memory: { kind: 'address-space', bytes: memoryBytes } });
  return new Promise<{ code: number | null; out: string; boxed: boolean }>((resolve) => {
    const child = spawn(box.command, box.args, { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir, ...env } });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('close', (code) => resolve({ code, out, boxed: box.boxed }));
  });
}

describe("the converters' box (bubblewrap)", () => {
  it('is here (apt-get install bubblewrap)', () => {
    expect(bwrap, 'bwrap on PATH and able to start a box here').toBeDefined();
  });

  it('sees only its scratch directory and the system, reaches no address, and runs as nobody when root', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-box-'));
    const outside = mkdtempSync(join(tmpdir(), 'esign-secret-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    try {
      const probe = `
        const fs = require('node:fs'), net = require('node:net');
        const r = { uid: process.getuid() };
        for (const p of ['/home', '/root', '/etc/passwd', '/var/lib', '/var/log', ${JSON.stringify(SERVER_IMAGE)}, ${JSON.stringify(join(outside, 'secret.txt'))}, ${JSON.stringify(process.cwd())}])
          r[p] = fs.existsSync(p);
        r.tmp = fs.readdirSync('/tmp').filter((n) => !${JSON.stringify(dir)}.startsWith('/tmp/' + n));
        r.bin = fs.readdirSync('/usr/bin');
        r.lib = fs.readdirSync('/usr/lib');
        r.writable = ['/x', '/usr/x', '/usr/lib/x', '/etc/x'].filter((p) => { try { fs.writeFileSync(p, 'x'); return true } catch { return false } });
        fs.writeFileSync(${JSON.stringify(join(dir, 'written'))}, 'ok');
        const s = net.connect(${Number(new URL(base).port)}, '127.0.0.1');
        s.on('connect', () => { r.connected = true; done() }); s.on('error', (e) => { r.connected = e.code; done() });
        function done() { console.log(JSON.stringify(r)); process.exit(0) }`;
      const { code, out, boxed } = await inBox(dir, ['/usr/bin/node', '-e', probe]);
      expect(boxed).toBe(true);
      expect(code, out).toBe(0);
      const r = JSON.parse(out.trim().split('\n').at(-1)!);
      expect(r).toMatchObject({
        '/home': false,
        '/root': false,
        '/etc/passwd': false,
        '/var/lib': false,
        '/var/log': false,
        [SERVER_IMAGE]: false,
        [join(outside, 'secret.txt')]: false,
        [process.cwd()]: false,
        tmp: [],
        writable: [],
        connected: 'ECONNREFUSED',
      });
      if (isRoot) expect(r.uid).toBe(NOBODY);
      // Of the system's programs only those the converters' scripts run, and the program itself;
      // of /usr/lib only the libraries, locales and the converters' own installations.
      expect((r.bin as string[]).filter((b) => !SCRIPT_TOOLS.includes(b))).toEqual(['node']);
      expect((r.lib as string[]).filter((d) => !/-linux-gnu[a-z]*$|^(locale|libreoffice|chromium)$/.test(d))).toEqual(
        [],
      );
      expect(readFileSync(join(dir, 'written'), 'utf8')).toBe('ok');
      expect(hits).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it.runIf(isRoot)('refuses, saying why, a scratch directory nobody cannot reach', async () => {
    const closed = mkdtempSync(join(tmpdir(), 'esign-closed-')); // 0700
    const dir = mkdtempSync(join(closed, 'scratch-'));
    try {
      await expect(
        boxCommand(['/bin/true'], { scratch: dir, memory: { kind: 'address-space', bytes: 1024 ** 3 } }),
      ).rejects.toThrow(`${closed} is closed to other users (set TMPDIR to a directory such as /tmp)`);
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  });

  it('holds a CPU limit for each process, boxed or not: a converter whose host was killed cannot spin on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-box-'));
    const setting = process.env.ESIGN_BWRAP;
    const read = "console.log(/^Max cpu time.*$/m.exec(require('fs').readFileSync('/proc/self/limits', 'utf8'))[0])";
    const cpu = new RegExp(`^Max cpu time\\s+${CONVERTER_CPU_SECONDS}\\s+${CONVERTER_CPU_SECONDS}\\s+seconds`, 'm');
    try {
      const boxed = await inBox(dir, ['/usr/bin/node', '-e', read]);
      process.env.ESIGN_BWRAP = 'off';
      const unboxed = await inBox(dir, ['/usr/bin/node', '-e', read]);
      expect({ boxed: boxed.boxed, unboxed: unboxed.boxed }).toEqual({ boxed: true, unboxed: false });
      expect(boxed.out).toMatch(cpu);
      expect(unboxed.out).toMatch(cpu);
    } finally {
      if (setting === undefined) delete process.env.ESIGN_BWRAP;
      else process.env.ESIGN_BWRAP = setting;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds a memory limit: an allocation past it fails', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-box-'));
    try {
      const grab =
        'try { Buffer.allocUnsafe(1536 * 1024 * 1024); console.log("GOT") } catch (e) { console.log("REFUSED") }';
      expect((await inBox(dir, ['/usr/bin/node', '-e', grab], 1024 ** 3)).out).toContain('REFUSED');
      expect((await inBox(dir, ['/usr/bin/node', '-e', grab], 4 * 1024 ** 3)).out).toContain('GOT');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Whether a process still runs: a zombie is dead (its parent has yet to reap it). */
const running = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('LibreOffice in the box', () => {
  it('finds LibreOffice', () => {
    expect(soffice, 'soffice on PATH or ESIGN_SOFFICE').toBeDefined();
  });

  /** LibreOffice converting an HTML page that loads a file of the server and an image from the listener. */
  const convertHtml = async (boxed: boolean) => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-office-'));
    try {
      writeFileSync(
        join(dir, 'page.html'),
        `<html><body><p>Page body</p><img src="${base}/boxed-${boxed}.png"><img src="file://${SERVER_IMAGE}"></body></html>`,
      );
      const args = [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${dir}/profile`,
        '--convert-to',
        'pdf',
        '--outdir',
        join(dir, 'out'),
        join(dir, 'page.html'),
      ];
      if (boxed) await inBox(dir, [soffice!, ...args], 3 * 1024 ** 3, { SAL_USE_VCLPLUGIN: 'svp' });
      else
        await new Promise((r) =>
          spawn(soffice!, args, { env: { PATH: '/usr/bin:/bin', HOME: dir, SAL_USE_VCLPLUGIN: 'svp' } }).on('close', r),
        );
      return readFileSync(join(dir, 'out', 'page.pdf'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('converts a page that links outside with no request reaching the listener (unboxed, it does)', {
    timeout: 300_000,
  }, async () => {
    const pdf = await convertHtml(true);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(hits).toEqual([]);
    expect(pdf.includes('/Subtype/Image') || pdf.includes('/Subtype /Image'), 'no image of the server in the PDF').toBe(
      false,
    );
    // The same page, unboxed: LibreOffice fetches from the listener and embeds the server's image
    // (so the assertions above can fail).
    const unboxed = await convertHtml(false);
    expect(hits.filter((h) => h.includes('/boxed-false.png')).length).toBeGreaterThan(0);
    expect(unboxed.includes('/Subtype/Image') || unboxed.includes('/Subtype /Image')).toBe(true);
    hits = [];
  });

  it("leaves nothing of an unboxed conversion whose host was killed: the next host's sweep ends it", {
    timeout: 120_000,
  }, async () => {
    const engine = new URL('../../dist/engine.js', import.meta.url).href;
    // Each host a script using the built engine, in a TMPDIR of its own; unboxed, LibreOffice's
    // soffice.bin is its launcher's child, not the host's, and nothing ends it with the host.
    const root = mkdtempSync(join(tmpdir(), 'esign-office-killed-'));
    chmodSync(root, 0o755); // the converter runs as nobody when the tests run as root
    const data = mkdtempSync(join(scratch, 'data-'));
    const script = `
      import { readFileSync } from 'node:fs';
      import { LocalEngine } from '${engine}';
      const [dataDir, filename, path] = process.argv.slice(1);
      const engine = new LocalEngine({ dataDir });
      engine.account.setFeatures(['office_upload'], true);
      const packets = [{ key: 'a', name: 'Ada', email: 'ada@example.com' }];
      await engine.createBundle({ packets, documents: [{ key: 'd', file_index: 0 }] }, [{ filename, data: readFileSync(path) }]);
      await engine.settle();
      await engine.close();
    `;
    const host = (document: string) =>
      spawn(process.execPath, ['--input-type=module', '-e', script, data, basename(document), document], {
        env: { ...process.env, TMPDIR: root, ESIGN_BWRAP: 'off' },
        stdio: 'ignore',
      });
    const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
    /** LibreOffice's processes whose arguments name a conversion's directory under root. */
    const converters = () =>
      execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(join(root, 'esign-office-')) && /soffice|oosplash/.test(l))
        .map((l) => ({ pid: Number.parseInt(l, 10), main: l.includes('soffice.bin') }));
    const killed = host(join(fixtures, 'contract.docx'));
    try {
      let found: number[] = [];
      for (const start = Date.now(); Date.now() - start < 60_000; await new Promise((r) => setTimeout(r, 20))) {
        const now = converters();
        found = now.map((c) => c.pid);
        if (now.some((c) => c.main)) break;
      }
      expect(found.length, 'LibreOffice was found running').toBeGreaterThan(0);
      // Stopped, so that it cannot finish on its own while the host dies (a soffice.bin may have just
      // ended: on a new profile, its launcher starts it again).
      for (const pid of found)
        try {
          process.kill(pid, 'SIGSTOP');
        } catch {
          // ended meanwhile
        }
      killed.kill('SIGKILL');
      await once(killed, 'exit');
      await new Promise((r) => setTimeout(r, 500));
      expect(found.filter(running).length, 'LibreOffice outlived its killed host').toBeGreaterThan(0);
      // The next host, sending a PDF, starts a sandbox process, and sweeps before it does: that ends
      // and removes them, whether or not a loaded machine lets its check finish (a 503, busy).
      await once(host(join(fixtures, 'contract.pdf')), 'exit');
      for (const start = Date.now(); found.some(running) && Date.now() - start < 5000; )
        await new Promise((r) => setTimeout(r, 50));
      expect(found.filter(running)).toEqual([]);
      expect(readdirSync(root).filter((f) => f.startsWith('esign-office-'))).toEqual([]);
    } finally {
      for (const { pid } of converters())
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // ended meanwhile
        }
      killed.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('stops a boxed conversion at its deadline, leaving no process behind', { timeout: 120_000 }, async () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'contract.docx'));
    // The conversion's scratch directory under a root of its own, so that this test finds its own
    // processes among other tests' and stops each as it appears (SIGSTOP): the deadline decides how
    // the conversion ends, not how fast this machine converts (a warm one took 1.47 s in all).
    const root = mkdtempSync(join(tmpdir(), 'esign-office-deadline-'));
    chmodSync(root, 0o755); // the converter runs as nobody, and must reach its directory within
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = root;
    const stopped = new Set<number>();
    try {
      let settled = false;
      const outcome = expect(
        convertOfficeToPdf(doc, 'docx', { timeoutMs: 1500 }).finally(() => {
          settled = true;
        }),
      ).rejects.toThrow('LibreOffice did not convert the document within 1.5 s and was stopped.');
      while (!settled) {
        for (const line of execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n')) {
          const pid = Number.parseInt(line, 10);
          // LibreOffice's own processes (their arguments name the conversion's directory), not the
          // box's: a bwrap stopped while it sets the box up would outlive its parent's death. Nor the
          // document sandbox that checks the file first: one started now has its directory in root too.
          const command = line.trim().split(/\s+/)[1] ?? '';
          if (line.includes(join(root, 'esign-office-')) && !command.endsWith('bwrap') && !stopped.has(pid)) {
            stopped.add(pid);
            try {
              process.kill(pid, 'SIGSTOP');
            } catch {
              // gone already
            }
          }
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      await outcome;
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(root, { recursive: true, force: true });
    }
    expect(stopped.size, 'LibreOffice was found running').toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000));
    // Each process it stopped was killed, not left stopped (a zombie is dead: its parent reaps it).
    expect([...stopped].filter(running)).toEqual([]);
    // Any soffice still running on a scratch directory that is gone was left behind by this test.
    const orphans = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /soffice/.test(l))
      .map((l) => /(\/\S*esign-office-[^/\s]+)/.exec(l)?.[1])
      .filter((d): d is string => Boolean(d) && !existsSync(d!));
    expect(orphans).toEqual([]);
  });
});

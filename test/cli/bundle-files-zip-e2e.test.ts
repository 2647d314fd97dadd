// esign bundle files ID --zip FILE|-: the console's "download all" zip from the terminal, run from
// the built bundle (dist/ must be built) on the local engine and over a real `esign serve`; the zip
// opened by unzip(1), each entry checked against the API's SHA-256 and read back as a PDF.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../../src/app/download.js';
import { filesZip } from '../../src/app/filesZip.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { LocalEngine } from '../../src/local/engine.js';
import type { FileObject } from '../../src/service/types.js';
import { bundleRequest, programEnv, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN, type ServeProcess, startServe } from './serveProcess.js';

const data = tempDir('esign-zip-');
const out = tempDir('esign-zip-out-');
let serve: ServeProcess;
let slug = '';
let files: FileObject[] = [];
let backends: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  const b = await engine.createBundle(
    bundleRequest({
      packets: [
        { key: 'vi', name: 'Nguyễn Thị Minh Khai', email: 'khai@example.com' },
        { key: 'ru', name: 'Борис Пастернак', email: 'boris@example.com' },
      ],
    }),
  );
  await engine.settle();
  for (const p of b.packets) await engine.signPacket(p.id, {});
  await engine.settle();
  slug = b.id;
  files = await engine.getBundleFiles(slug);
  const key = engine.keys.create('zip').key;
  await engine.close();
  const base = { ...programEnv(), NO_COLOR: '1', ESIGN_PROFILE: '' };
  serve = await startServe({ ...base, ESIGN_DATA_DIR: data.dir });
  backends = {
    local: { ...base, ESIGN_DATA_DIR: data.dir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' },
    remote: {
      ...base,
      ESIGN_DATA_DIR: join(out.dir, 'elsewhere'),
      ESIGN_BASE_URL: `${serve.address}/api/v2`,
      ESIGN_API_KEY: key,
    },
  };
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  data.cleanup();
  out.cleanup();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Each entry of the zip at `path`, read by unzip(1): its name and bytes. */
async function entries(path: string): Promise<Map<string, Buffer>> {
  const list = await execa('unzip', ['-Z1', path]);
  const names = list.stdout.split('\n').filter(Boolean);
  const got = new Map<string, Buffer>();
  for (const n of names)
    got.set(
      n,
      Buffer.from((await execa('unzip', ['-p', path, n], { encoding: 'buffer', stripFinalNewline: false })).stdout),
    );
  return got;
}

async function expectTheFiles(path: string): Promise<void> {
  const got = await entries(path);
  expect([...got.keys()].sort()).toEqual(files.map((f) => f.name).sort());
  expect([...got.keys()]).toContain(`coe-${slug}-Nguyễn-Thị-Minh-Khai.pdf`);
  for (const f of files) {
    const bytes = got.get(f.name!)!;
    expect(sha(bytes), f.name!).toBe(f.sha256);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(0);
  }
  const coe = got.get(`coe-${slug}-Борис-Пастернак.pdf`)!;
  const coePath = join(out.dir, `coe-${sha(coe).slice(0, 8)}.pdf`);
  writeFileSync(coePath, coe);
  expect((await execa('pdftotext', [coePath, '-'])).stdout).toContain('Борис Пастернак');
}

describe.each(['local', 'remote'])('bundle files --zip (%s)', (backend) => {
  const esign = (args: string[], encoding: 'utf8' | 'buffer' = 'utf8') =>
    execa('node', [BIN, ...args], { env: backends[backend], reject: false, encoding, extendEnv: false });

  it('saves every file in one zip that unzip opens, each as the API describes it', async () => {
    const path = join(out.dir, `${backend}.zip`);
    const r = await esign(['bundle', 'files', slug, '--zip', path]);
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^path\\t${path}\\nfiles\\t${files.length}\\nbytes\\t\\d+\\nsha256\\t[0-9a-f]{64}$`),
    );
    expect(r.stderr).toBe(`Saved ${files.length} files in ${path}.`);
    await expectTheFiles(path);
    // An existing file is kept unless --clobber (as --download does).
    const before = readFileSync(path);
    const again = await esign(['bundle', 'files', slug, '--zip', path]);
    expect(again.exitCode).toBe(EXIT.FAILURE);
    expect(again.stderr).toBe(`esign: ${path} exists; pass --clobber to replace it.`);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect((await esign(['bundle', 'files', slug, '--zip', path, '--clobber'])).exitCode).toBe(0);
    expect(readdirSync(out.dir).filter((n) => n.endsWith('.part'))).toEqual([]);
  }, 60_000);

  it('writes the zip to stdout with -, and nothing else there', async () => {
    const r = await esign(['bundle', 'files', slug, '--zip', '-'], 'buffer');
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const path = join(out.dir, `${backend}-stdout.zip`);
    writeFileSync(path, r.stdout as unknown as Uint8Array);
    await expectTheFiles(path);
    expect(Buffer.from(r.stderr as unknown as Uint8Array).toString()).toBe(
      `Wrote ${files.length} files as a zip to stdout.`,
    );
  }, 60_000);

  it('refuses a zip it cannot make, with its exit code and no file', async () => {
    const path = join(out.dir, `${backend}-none.zip`);
    const both = await esign(['bundle', 'files', slug, '--zip', path, '--download', out.dir]);
    expect(both.exitCode).toBe(EXIT.USAGE);
    expect(both.stderr).toBe('esign: Give --download or --zip, not both.');
    const missing = await esign(['bundle', 'files', 'NoSuchBndl', '--zip', path]);
    expect(missing.exitCode).toBe(EXIT.NOT_FOUND);
    expect(existsSync(path)).toBe(false);
  }, 60_000);
});

it('refuses --zip - when stdout is a terminal, before asking the backend anything', async () => {
  const r = await esignIn(['bundle', 'files', slug, '--zip', '-'], {
    tty: true,
    env: { ESIGN_DATA_DIR: data.dir, ESIGN_BASE_URL: 'http://127.0.0.1:9/api/v2', ESIGN_API_KEY: 'k' },
  });
  expect(r.exitCode).toBe(EXIT.USAGE);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(
    'esign: --zip -: stdout is a terminal, which a zip would garble: redirect it (> files.zip) or give a file name.',
  );
});

it('ends the zip with an error when a file is not the one the API described', async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  try {
    const listed = await engine.getBundleFiles(slug);
    const wrong = listed.map((f, i) => (i === 1 ? { ...f, sha256: '0'.repeat(64) } : f));
    const zip = await filesZip(engine, wrong);
    const read = (async () => {
      for await (const _ of zip);
    })();
    await expect(read).rejects.toThrow(
      `${listed[1]!.name}: the file's SHA-256 is ${listed[1]!.sha256}, not ${'0'.repeat(64)}`,
    );
  } finally {
    await engine.close();
  }
});

it("verify at 80 columns keeps a match's document type whole, cutting the path from its left instead", async () => {
  const dir = join(out.dir, 'a', 'long', 'folder', 'the', 'customer', 'sent', 'back', 'to', 'support');
  mkdirSync(dir, { recursive: true });
  const engine = new LocalEngine({ dataDir: data.dir });
  try {
    const signed = files.find((f) => f.kind === 'signed_pdf')!;
    await download({ service: async () => engine }, signed.file_url, join(dir, 'contract-from-customer.pdf'));
  } finally {
    await engine.close();
  }
  const r = await esignIn(['verify', join(dir, 'contract-from-customer.pdf')], {
    tty: true,
    columns: 80,
    env: { ESIGN_DATA_DIR: data.dir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' },
  });
  expect(r.exitCode, r.stderr).toBe(0);
  const row = r.stdout.split('\n')[1]!;
  expect(row).toMatch(new RegExp(`^…\\S*/contract-from-customer\\.pdf +match +signed_pdf +${slug} `));
});

// The engine's one way to parse, search or render a client's document: in a sandbox process (pool.ts).
// A document is joined while it is being checked (a retried create starts no second parse) and a
// refusal over the limits is remembered by sha256 for a while (a client that retries gets it again
// at once). Field derivation that needs no look at the PDF stays here, and costs nothing.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../../domain/errors.js';
import type { PdfInfo } from '../../../domain/documentChecks.js';
import { HTML_JOB_DEADLINE_MS, REFUSAL_MEMORY_MS, SANDBOX_JOB_DEADLINE_MS } from '../../../domain/documentLimits.js';
import type { RenderedHtml } from '../intake/renderTypes.js';
import type { EvidenceBundle, EvidenceDocument, EvidencePacket, EvidenceValue } from '../../evidence/evidence.js';
import type { CertifiedDocument } from './protocol.js';

/** html.ts's own limit (kept here as a figure: html.ts loads parse5 and the renderers). */
const DEFAULT_HTML_TIMEOUT_MS = 30_000;
import type { PreparedSpec, Problem } from '../intake/prepare.js';
import { SandboxFailure, SandboxPool } from './pool.js';

type Inspected = PdfInfo | { problem: string };
type Derived = { spec: PreparedSpec; problems: Problem[] };

let shared: SandboxPool | undefined;
const pool = () => (shared ??= new SandboxPool());

/** A job the sandbox had no process or no CPU for before its deadline (as thrown here: a 503, or the pool's own failure). */
export const sandboxBusy = (e: unknown): boolean =>
  (e instanceof SandboxFailure && e.kind === 'busy') ||
  (e instanceof ApiError && e.status === 503 && e.code === 'unavailable');

/** Ends the idle sandbox processes now (the next document starts them again). */
export function closeSandbox(): void {
  shared?.close();
}

const inFlight = new Map<string, Promise<unknown>>();
const refused = new Map<string, { problem: string; until: number }>();
/** The last PDFs checked, by hash: a check stores none, so a batch check would open one PDF per row. */
const checked = new Map<string, Inspected>();

/** One run per key at a time; a refusal over the limits remembered for REFUSAL_MEMORY_MS. */
async function once<T>(key: string, run: () => Promise<T>): Promise<T | { problem: string }> {
  const known = refused.get(key);
  if (known && known.until > Date.now()) return { problem: known.problem };
  if (known) refused.delete(key);
  const joined = inFlight.get(key) as Promise<T | { problem: string }> | undefined;
  if (joined) return joined;
  const p = run().then(
    (v) => v,
    (e: unknown) => {
      if (!(e instanceof SandboxFailure)) throw e;
      if (e.kind === 'busy') throw new ApiError(503, 'unavailable', e.message);
      if (e.kind === 'limits') {
        if (refused.size >= 1024) refused.delete(refused.keys().next().value!);
        refused.set(key, { problem: e.message, until: Date.now() + REFUSAL_MEMORY_MS });
      }
      return { problem: e.message };
    },
  );
  inFlight.set(key, p);
  try {
    return await p;
  } finally {
    inFlight.delete(key);
  }
}

/**
 * `background`: work after the create (the document's processing), with the longer deadline counted
 * from the job's start; otherwise a create's check (createCheck), over the limits past `deadlineMs`
 * with the CPU, and busy when starved of it `waitMs` in all.
 */
export type ApartOptions = { hash?: string } & ({ background: true } | { deadlineMs: number; waitMs?: number });

/** A create's checks as the engine times them (its documentTimes). */
export const createCheck = (t: { createCheckMs: number; createCheckWaitMs: number }) => ({
  deadlineMs: t.createCheckMs,
  waitMs: t.createCheckWaitMs,
});

const jobOptions = (opts: ApartOptions) =>
  'background' in opts
    ? {
        deadlineMs: SANDBOX_JOB_DEADLINE_MS,
        subject: 'The PDF',
        counting: 'started' as const,
        cpuOf: 'process' as const,
      }
    : { deadlineMs: opts.deadlineMs, waitMs: opts.waitMs, subject: 'The PDF', cpuOf: 'process' as const };

/** `data` in a private file (its own 0700 directory, removed after) for the time of `use`, written without blocking the event loop. */
async function asFile<T>(data: Buffer | string, use: (path: string) => Promise<T>, name = 'document.pdf'): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'esign-documents-'));
  try {
    const path = join(dir, name);
    await writeFile(path, data, { mode: 0o600 });
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The hex SHA-256 of `data`, 4 MB at a time with a turn of the event loop between (40 MB took ~1 s at once under load). */
export async function sha256Yielding(data: Uint8Array): Promise<string> {
  const h = createHash('sha256');
  const STEP = 4 * 1024 * 1024;
  for (let at = 0; at < data.length; at += STEP) {
    h.update(data.subarray(at, at + STEP));
    if (at + STEP < data.length) await new Promise((r) => setImmediate(r));
  }
  return h.digest('hex');
}

/** Why `data` is not a usable PDF, or its page count: checked apart, within `deadlineMs`. */
export async function inspectPdfApart(data: Buffer, opts: ApartOptions): Promise<Inspected> {
  const hash = opts.hash ?? (await sha256Yielding(data));
  const done = checked.get(hash);
  if (done) return done;
  const info = await once(`inspect:${hash}`, () =>
    asFile(data, (pdfPath) => pool().run<Inspected>({ kind: 'inspect', pdfPath }, jobOptions(opts))),
  );
  if (!('problem' in info) || !info.problem.includes('exceeds the processing limits')) {
    if (checked.size >= 64) checked.delete(checked.keys().next().value!);
    checked.set(hash, info);
  }
  return info;
}

/** Whether placing a document's fields needs a look inside its PDF (form fields, text searches). */
const needsPdf = (spec: PreparedSpec) =>
  Boolean(
    spec.converted_pdf_fields_to ||
      Object.keys(spec.adobe_field_assignments ?? {}).length ||
      (spec.auto_placements ?? []).length,
  );

/** deriveFields (intake/prepare.ts) of a checked PDF, apart; a refusal is a problem of the document's file field. */
export async function deriveFieldsApart(
  pdf: Buffer,
  spec: PreparedSpec,
  index: number,
  opts: ApartOptions & { field: string },
): Promise<Derived> {
  if (!needsPdf(spec)) {
    const { deriveFields } = await import('../intake/prepare.js');
    return deriveFields(pdf, spec, index);
  }
  const hash = opts.hash ?? (await sha256Yielding(pdf));
  const key = `derive:${hash}:${index}:${JSON.stringify(spec)}`;
  const out = await once(key, () =>
    asFile(pdf, (pdfPath) =>
      pool().run<Derived | { problem: string }>({ kind: 'derive', pdfPath, spec, index }, jobOptions(opts)),
    ),
  );
  if ('problem' in out) return { spec, problems: [{ field: opts.field, message: out.problem }] };
  return out;
}

/**
 * html.ts's renderHtml, apart: the HTML (a file, or text written to one) is parsed (parse5), its
 * fields found and the page laid out in the sandbox process, by Chromium when it is installed
 * (`auto`) or the built-in renderer; the renderer's own time limit is within the job's deadline.
 */
export async function renderHtmlApart(
  source: { path: string } | { html: string },
  fieldsMode: 'native' | 'none',
  opts: { renderer?: 'auto' | 'builtin'; deadlineMs?: number } = {},
): Promise<RenderedHtml> {
  if (!('path' in source))
    return asFile(source.html, (path) => renderHtmlApart({ path }, fieldsMode, opts), 'document.html');
  const deadlineMs = opts.deadlineMs ?? HTML_JOB_DEADLINE_MS;
  const r = await pool().run<RenderedHtml & { pdf: Uint8Array }>(
    {
      kind: 'html',
      htmlPath: source.path,
      fieldsMode,
      renderer: opts.renderer ?? 'auto',
      timeoutMs: Math.max(1000, Math.min(DEFAULT_HTML_TIMEOUT_MS, deadlineMs - 5000)),
    },
    // Chromium's CPU is its processes', below the sandbox process: a render starved of CPU until its
    // deadline (a loaded machine) is 'busy', not over the limits.
    { deadlineMs, subject: 'The HTML document', counting: 'started', cpuOf: 'tree' },
  );
  return { ...r, pdf: Buffer.from(r.pdf.buffer, r.pdf.byteOffset, r.pdf.byteLength) };
}

/**
 * checkOfficeFile (intake/officeCheck.ts) of the file at `path`, apart: the package's directory is
 * read and every part inflated and scanned in the sandbox process. Throws the reason it is refused.
 */
export async function checkOfficeApart(path: string, type: string, boxed: boolean): Promise<void> {
  try {
    await pool().run(
      { kind: 'office', path, type, boxed },
      { deadlineMs: SANDBOX_JOB_DEADLINE_MS, subject: 'The office document', counting: 'started' },
    );
  } catch (e) {
    throw e instanceof SandboxFailure ? new Error(e.message) : e;
  }
}

/** What a sandbox job writes to `outPath` (a private file, removed after), read without blocking. */
async function written(run: (outPath: string) => Promise<unknown>): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'esign-documents-'));
  try {
    const outPath = join(dir, 'out.pdf');
    await run(outPath);
    return await readFile(outPath);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const evidenceJob = { deadlineMs: SANDBOX_JOB_DEADLINE_MS, counting: 'started' as const, cpuOf: 'process' as const };

/**
 * evidence.ts's signedPdf of the stored PDF at `pdfPath`, apart: the client's PDF is loaded, its form
 * flattened and the values drawn in the sandbox process, not on the server's event loop.
 */
export function signedPdfApart(
  bundle: EvidenceBundle,
  doc: Omit<EvidenceDocument, 'pdf'> & { pdfPath: string },
  values: EvidenceValue[],
  interim = false,
): Promise<Buffer> {
  const { pdfPath, ...rest } = doc;
  const mine = values.filter((v) => v.doc_key === doc.key);
  return written((outPath) =>
    pool().run(
      { kind: 'signed', pdfPath, outPath, bundle, doc: rest, values: mine, interim },
      { ...evidenceJob, subject: `The signed copy of "${doc.name}"` },
    ),
  );
}

/** evidence.ts's combinedPdf of the signed copies at `pdfPaths`, apart. */
export function combinedPdfApart(bundle: EvidenceBundle, pdfPaths: string[]): Promise<Buffer> {
  return written((outPath) =>
    pool().run({ kind: 'combined', pdfPaths, outPath, bundle }, { ...evidenceJob, subject: 'The combined PDF' }),
  );
}

/**
 * evidence.ts's certificateOfEvidence, apart: drawn where the signed copies are (the server loads
 * neither pdf-lib nor the fonts for it; their first load held other requests for seconds).
 */
export function certificateApart(
  bundle: EvidenceBundle,
  packet: EvidencePacket,
  docs: CertifiedDocument[],
  values: EvidenceValue[],
  combinedSha256: string,
): Promise<Buffer> {
  const certified = docs.map(({ key, name, sha256, fields, signedSha256, pages }) => ({
    key,
    name,
    sha256,
    fields,
    signedSha256,
    pages,
  }));
  return written((outPath) =>
    pool().run(
      { kind: 'certificate', outPath, bundle, packet, docs: certified, values, combinedSha256 },
      { ...evidenceJob, subject: 'The Certificate of Evidence' },
    ),
  );
}

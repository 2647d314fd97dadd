// One way to receive a multipart body, for the API's Bundle creation and the pages' forms alike:
// files are streamed to a private temporary directory (0700, files 0600), never held in memory, and
// every count and size is bounded while the body arrives: per file, all files, per text field, all
// text fields, and the number of each. Past a bound the request is refused at once, unread.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { type FormLimits, megabytes } from './limits.js';
import { fileTooLarge, type RefusalLimits } from './refusals.js';

/**
 * A file part saved on disk (at `path`, until cleanup): read only when asked for, and then off the
 * event loop (a 40 MB file read at once held every other request for a tenth of a second and more).
 */
interface ReceivedFile {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  path: string;
  read(): Promise<Buffer>;
}

export interface ReceivedForm {
  /** Text fields in the order sent (repeated names kept). */
  fields: [string, string][];
  files: ReceivedFile[];
  /** Removes the temporary directory; call it once the request is answered. */
  cleanup(): Promise<void>;
}

export interface ReceiveOptions {
  /** File fields worth keeping; any other file part is drained unread (it still counts toward the limits). */
  keepFile?: (field: string) => boolean;
  /** The limits as the refusal messages name them. */
  refusal?: RefusalLimits;
}

function storedFile(field: string, filename: string, contentType: string, size: number, path: string): ReceivedFile {
  return { field, filename, contentType, size, path, read: () => readFile(path) };
}

const tooBig = (message: string) => new ApiError(413, 'invalid', message);

const cutShort = () =>
  new ApiError(
    400,
    'parse_error',
    'Malformed multipart body: it ends inside a file part, before the closing boundary.',
  );

/** busboy's ways of saying the body ended inside a part: a premature close, or its own error. */
const endedInside = (e: unknown) =>
  (e as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE' ||
  /terminated early due to unexpected end of multipart data/.test((e as Error).message);

/** A part whose Content-Disposition names no field: nothing can say what it is for. */
const nameless = (type: 'file' | 'field') =>
  malformed(
    `a ${type === 'file' ? 'file ' : ''}part has no name (its Content-Disposition needs form-data; name="...")`,
  );

/**
 * A field's text. A part sent as application/json comes parsed (by @fastify/multipart): it is the
 * JSON it was, written back, for whoever reads the field to parse within its own bounds.
 */
function fieldText(value: unknown, mimetype: string): string {
  if (typeof value === 'string' || !/^application\/json/i.test(mimetype)) return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    throw malformed('a JSON part is nested too deeply to read');
  }
}

const malformed = (what: string) => new ApiError(400, 'parse_error', `Malformed multipart body: ${what}.`);

/**
 * Counts the delimiters of the body as it streams past: busboy (through @fastify/multipart) drops a
 * part whose headers are broken and ends quietly at a body cut short, which would leave a form
 * that merely looks incomplete. A boundary never occurs inside a part, so the count is exact.
 */
function watchDelimiters(req: FastifyRequest): (parts: number) => ApiError | undefined {
  const m = /boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(req.headers['content-type'] ?? '');
  if (!m) return () => undefined;
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const closing = `${delimiter.toString('latin1')}--`;
  let count = 0;
  // Too few bytes to hold a whole delimiter, so none is counted twice.
  let carry = Buffer.alloc(0);
  // The body's last characters (latin1: one per byte). Kept as a string: a Buffer.concat per chunk
  // left pool slabs to the next GC, and the server's peak grew 5 MB more under a large upload.
  let last = '';
  const keep = closing.length + 4;
  req.raw.on('data', (chunk: Buffer) => {
    const text = Buffer.concat([carry, chunk]);
    for (let i = text.indexOf(delimiter); i >= 0; i = text.indexOf(delimiter, i + delimiter.length)) count++;
    carry = text.subarray(Math.max(0, text.length - delimiter.length + 1));
    last = (last + chunk.toString('latin1', Math.max(0, chunk.length - keep))).slice(-keep);
  });
  return (parts) => {
    if (!last.trimEnd().endsWith(closing)) return malformed('it ends before its closing boundary');
    if (parts < count - 1) return malformed('a part without a form-data Content-Disposition naming it');
    return undefined;
  };
}

/** Receives the multipart body of `req` within `limits`; on any refusal the temporary files are gone. */
export async function receiveForm(
  req: FastifyRequest,
  limits: FormLimits,
  opts: ReceiveOptions = {},
): Promise<ReceivedForm> {
  const dir = await mkdtemp(join(tmpdir(), 'esign-upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const fields: [string, string][] = [];
  const files: ReceivedFile[] = [];
  let fileBytes = 0;
  let fieldBytes = 0;
  const received = new Promise<void>((r) => (req.raw.readableEnded ? r() : req.raw.once('end', () => r())));
  const tooMuch = () =>
    new ApiError(413, 'invalid', `The files of one request may total at most ${megabytes(limits.totalFileBytes)}.`);
  const tooLarge = (name: string) => fileTooLarge({ ...opts.refusal, fileBytes: limits.fileBytes }, name);
  const delimiters = watchDelimiters(req);
  let parts = 0;
  try {
    const iterator = req.parts({
      limits: {
        fileSize: limits.fileBytes,
        files: limits.files,
        fieldSize: limits.fieldBytes,
        fields: limits.fields,
        parts: limits.files + limits.fields,
      },
    });
    for await (const part of iterator) {
      parts++;
      if (typeof part.fieldname !== 'string' || !part.fieldname) throw nameless(part.type);
      if (part.type === 'field') {
        const value = fieldText(part.value, part.mimetype);
        fieldBytes += Buffer.byteLength(value) + Buffer.byteLength(part.fieldname);
        if (part.valueTruncated)
          throw tooBig(`${part.fieldname}: a form field may be at most ${kilobytes(limits.fieldBytes)}.`);
        if (fieldBytes > limits.totalFieldBytes)
          throw tooBig(`The form's fields may total at most ${kilobytes(limits.totalFieldBytes)}.`);
        fields.push([part.fieldname, value]);
        continue;
      }
      // A body that ends inside a file part gives a part already destroyed, or one left open forever
      // (once all of the request is in and the part has nothing left to give, it was cut short).
      if (part.file.destroyed) throw cutShort();
      const keep = opts.keepFile?.(part.fieldname) ?? true;
      const path = join(dir, String(files.length));
      let size = 0;
      const count = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          fileBytes += chunk.length;
          done(fileBytes > limits.totalFileBytes ? tooMuch() : null, keep ? chunk : undefined);
        },
      });
      // Past its limit a file is refused at once, not read to its end and dropped.
      part.file.once('limit', () => part.file.destroy(tooLarge(part.filename)));
      const sink = keep ? createWriteStream(path, { mode: 0o600 }) : nowhere();
      const writing = pipeline(part.file, count, sink);
      void received.then(async () => {
        while (!part.file.readableEnded && !part.file.destroyed) {
          const before = fileBytes;
          await new Promise((r) => setTimeout(r, 250));
          const stalled = fileBytes === before && part.file.readableLength === 0 && !part.file.readableEnded;
          if (stalled) part.file.destroy(cutShort());
        }
      });
      // A part that closes without its end: the body ended inside it (busboy closes it or fails it,
      // or our stall check).
      await writing.catch((e: unknown) => {
        throw endedInside(e) ? cutShort() : e;
      });
      if (part.file.truncated) throw tooLarge(part.filename);
      if (keep) files.push(storedFile(part.fieldname, part.filename, part.mimetype, size, path));
    }
    // The whole body is in before its delimiters are judged.
    await received;
    const broken = delimiters(parts);
    if (broken) throw broken;
  } catch (e) {
    // Refused: the rest of the body is read no further while the files are removed (on a loaded
    // disk that takes a while, and a client still sending would be read on all that time).
    req.raw.unpipe();
    req.raw.pause();
    await cleanup();
    throw e;
  }
  return { fields, files, cleanup };
}

/** The text fields of a form that carries no files worth keeping, its temporary directory already gone. */
export async function receiveFields(req: FastifyRequest, limits: FormLimits): Promise<[string, string][]> {
  const form = await receiveForm(req, limits, { keepFile: () => false });
  await form.cleanup();
  return form.fields;
}

const kilobytes = (n: number) => (n >= 1024 * 1024 ? megabytes(n) : `${Math.round(n / 1024)} KB`);

/** A writable that drops what it is given (a part no one asked for). */
function nowhere(): Transform {
  return new Transform({ transform: (_chunk, _enc, done) => done() }).resume() as Transform;
}

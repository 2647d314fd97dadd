// JSON request text as a value, one rule for every JSON body the server reads (a request body, and
// the `bundle_request` field of a multipart create): prototype keys and nesting deeper than the API
// uses are a parse_error. A large body is decoded and parsed on a worker thread: a 9 MB create
// parsed on the event loop held every other request for 350-470 ms (2 busy cores).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import secureJson from 'secure-json-parse';
import { ApiError } from '../domain/errors.js';
import { nestedDeeperThan } from './limits.js';

/** Bodies past this are parsed off the event loop (a worker costs a few ms to start; a 1 MB parse about as much). */
const OFF_LOOP_JSON_BYTES = 1024 * 1024;

const SECURE = { protoAction: 'error', constructorAction: 'error' } as const;

const malformed = (what: string, message: string) => new ApiError(400, 'parse_error', `${what}: ${message}`);

function shallowEnough<T>(value: T, maxDepth: number, what: string): T {
  if (nestedDeeperThan(value, maxDepth)) throw malformed(what, `nested deeper than ${maxDepth} levels.`);
  return value;
}

/** JSON text as a value, here and now. */
export function parseJson(text: string, maxDepth: number, what = 'Malformed JSON'): unknown {
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, SECURE);
  } catch (e) {
    throw malformed(what, (e as Error).message);
  }
  return shallowEnough(value, maxDepth, what);
}

/** The worker: the same library and options, on the bytes handed over (transferred, not copied). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const secureJson = require(workerData.library);
const text = Buffer.from(workerData.bytes).toString('utf8');
if (!text.trim()) parentPort.postMessage({ empty: true });
else {
  let value;
  try {
    value = secureJson.parse(text, undefined, workerData.options);
  } catch (e) {
    parentPort.postMessage({ error: e.message });
  }
  if (value !== undefined) parentPort.postMessage({ value });
}
`;

let library: string | undefined;

/**
 * A request body as JSON (an empty or blank body is no body): parsed here when small, else on a
 * worker thread of its own, the value handed back by structured clone.
 */
export async function parseJsonBody(bytes: Buffer, maxDepth: number): Promise<unknown> {
  if (bytes.length <= OFF_LOOP_JSON_BYTES) {
    const text = bytes.toString('utf8');
    return text.trim() ? parseJson(text, maxDepth) : undefined;
  }
  library ??= createRequire(import.meta.url).resolve('secure-json-parse');
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const buffer = (
    own ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
  ) as ArrayBuffer;
  const answer = await new Promise<{ value?: unknown; error?: string; empty?: true }>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes: buffer, library, options: SECURE },
      transferList: [buffer],
    });
    worker.once('message', (m) => {
      resolve(m);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('The JSON parser stopped before it answered.')));
  });
  if (answer.empty) return undefined;
  if (answer.error !== undefined) throw malformed('Malformed JSON', answer.error);
  return shallowEnough(answer.value, maxDepth, 'Malformed JSON');
}

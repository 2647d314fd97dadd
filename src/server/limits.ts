// What one client may take from esign serve: time to send a request, open connections, body sizes
// and nesting. Every limit is here, with its default, and `esign serve` flags change them.
import { MAX_ATTACHMENT_BYTES } from '../service/hosting.js';

export interface ServerLimits {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body (a slower one gets a 408 and is closed). */
  requestTimeoutMs: number;
  /** A connection with no traffic for this long is closed. */
  idleTimeoutMs: number;
  /** Open connections per client address; a new one beyond it closes that address's oldest idle one. */
  connectionsPerAddress: number;
  /** Open connections in all; a new one beyond it closes the oldest that showed no key (connections.ts). */
  maxConnections: number;
  /** File-link downloads answered at once to callers that show no key; past it, a 503 (Retry-After). */
  publicDownloads: number;
  /** An answer read slower than this (bytes per second over `readWindowMs`) is cut; 0: never. */
  readFloorBytes: number;
  readWindowMs: number;
  /** JSON and form bodies of every route but those below. */
  jsonBytes: number;
  /** JSON bodies that may carry documents or attachments as base64 (Bundle creation, signing). */
  documentJsonBytes: number;
  /** One uploaded file (multipart). */
  uploadFileBytes: number;
  /** All the files of one multipart request. */
  uploadRequestBytes: number;
  /** Files in one multipart request. */
  uploadFiles: number;
  /** Nesting of arrays and objects in a JSON body (the API itself never goes past 6). */
  maxDepth: number;
  /** JSON and form bodies past `jsonBytes` held in memory at once, of key holders (bodyIntake.ts). */
  keyedBodyMemoryBytes: number;
  /** The same for everyone else: link holders and the public. */
  publicBodyMemoryBytes: number;
  /** How long a connection whose body was refused unread stays open after the answer, unread. */
  unreadLingerMs: number;
}

/** What one multipart form may hold (multipartForm.ts receives it within these). */
export interface FormLimits {
  files: number;
  /** One file; a larger one is a 413 naming it. */
  fileBytes: number;
  /** All files of the request. */
  totalFileBytes: number;
  fields: number;
  /** One text field's value. */
  fieldBytes: number;
  /** All text fields' values. */
  totalFieldBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 30_000,
  connectionsPerAddress: 32,
  maxConnections: 4096,
  publicDownloads: 256,
  readFloorBytes: 4096,
  readWindowMs: 10_000,
  jsonBytes: 1 * MB,
  documentJsonBytes: 64 * MB,
  uploadFileBytes: 50 * MB,
  uploadRequestBytes: 200 * MB,
  uploadFiles: 100,
  maxDepth: 32,
  keyedBodyMemoryBytes: 64 * MB,
  publicBodyMemoryBytes: 64 * MB,
  unreadLingerMs: 2_000,
};

/** The signing page's form: a signer's attachments (the engine names one past its limit) and values. */
export const SIGNING_FORM: FormLimits = {
  files: 20,
  fileBytes: MAX_ATTACHMENT_BYTES + 1,
  totalFileBytes: 5 * MAX_ATTACHMENT_BYTES,
  fields: 500,
  fieldBytes: 1 * MB,
  totalFieldBytes: 2 * MB,
};

/** The preparation pages' form: one PDF, the signers and roles, the placed fields as JSON. */
export const PREPARATION_FORM: FormLimits = {
  files: 5,
  fileBytes: 50 * MB,
  totalFileBytes: 50 * MB,
  fields: 2000,
  fieldBytes: 1 * MB,
  totalFieldBytes: 2 * MB,
};

/** Forms of a few short fields and no file (decline, reassign). */
export const SMALL_FORM: FormLimits = {
  files: 0,
  fileBytes: 0,
  totalFileBytes: 0,
  fields: 10,
  fieldBytes: 64 * 1024,
  totalFieldBytes: 64 * 1024,
};

export const megabytes = (n: number) => `${Math.round((n / MB) * 100) / 100} MB`;

/** Pages whose JSON bodies may carry files as base64 (the API's are marked in the operations table). */
export const DOCUMENT_JSON_ROUTES = [/^\/sign\/session\/:session\/sign$/];

/** Deeper than `max` arrays/objects? Iterative, so a hostile depth cannot overflow the stack. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

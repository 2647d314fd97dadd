// What one client may take from esign serve: time to send a request, open connections, body sizes
// and nesting. Every limit is here, with its default, and `esign serve` flags change them.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_ATTACHMENT_BYTES } from '../service/hosting.js';
import type { FormLimits } from './multipartForm.js';

export interface ServerLimits {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body (a slower one gets a 408 and is closed). */
  requestTimeoutMs: number;
  /** A connection with no traffic for this long is closed. */
  idleTimeoutMs: number;
  /** Open connections per client address; a new one beyond it closes that address's oldest idle one. */
  connectionsPerAddress: number;
  /** Open connections in all. */
  maxConnections: number;
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
}

const MB = 1024 * 1024;

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 30_000,
  connectionsPerAddress: 32,
  maxConnections: 4096,
  jsonBytes: 1 * MB,
  documentJsonBytes: 64 * MB,
  uploadFileBytes: 50 * MB,
  uploadRequestBytes: 200 * MB,
  uploadFiles: 100,
  maxDepth: 32,
};

/** The signing page's form: a signer's attachments (the engine names one past its limit) and values. */
export const SIGNING_FORM: FormLimits = {
  files: 20, fileBytes: MAX_ATTACHMENT_BYTES + 1, totalFileBytes: 5 * MAX_ATTACHMENT_BYTES,
  fields: 500, fieldBytes: 1 * MB, totalFieldBytes: 2 * MB,
};

/** The preparation pages' form: one PDF, the signers and roles, the placed fields as JSON. */
export const PREPARATION_FORM: FormLimits = {
  files: 5, fileBytes: 50 * MB, totalFileBytes: 50 * MB, fields: 2000, fieldBytes: 1 * MB, totalFieldBytes: 2 * MB,
};

/** Forms of a few short fields and no file (decline, reassign). */
export const SMALL_FORM: FormLimits = {
  files: 0, fileBytes: 0, totalFileBytes: 0, fields: 10, fieldBytes: 64 * 1024, totalFieldBytes: 64 * 1024,
};

export const megabytes = (n: number) => `${Math.round((n / MB) * 100) / 100} MB`;

/** Pages whose JSON bodies may carry files as base64 (the API's are marked in the operations table). */
export const DOCUMENT_JSON_ROUTES = [
  /^\/sign\/session\/:session\/sign$/,
];

/** Deeper than `max` arrays/objects? Iterative, so a hostile depth cannot overflow the stack. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Bounds the connections of each client address. At the bound, the address's oldest connection
 * that is not being answered (still sending its request, or idle) is closed to make room: one client
 * cannot hold the server with half-sent requests, and its own newest request still gets through.
 */
export function guardConnections(server: Server, perAddress: number): { busy(socket: Socket): void; idle(socket: Socket): void } {
  const byAddress = new Map<string, Set<Socket>>();
  const answering = new WeakSet<Socket>();
  /** Connections that have had an answer: a client's keep-alive connection goes after half-sent ones. */
  const served = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    let open = byAddress.get(address);
    if (!open) byAddress.set(address, (open = new Set()));
    if (open.size >= perAddress) {
      // Oldest first (a Set keeps insertion order): one that never got an answer, else any idle one.
      let victim: Socket | undefined;
      for (const s of open) if (!answering.has(s) && !served.has(s)) { victim = s; break; }
      if (!victim) for (const s of open) if (!answering.has(s)) { victim = s; break; }
      if (!victim) {
        socket.destroy();
        return;
      }
      open.delete(victim);
      victim.destroy();
    }
    const mine = open;
    mine.add(socket);
    socket.once('close', () => {
      mine.delete(socket);
      if (!mine.size && byAddress.get(address) === mine) byAddress.delete(address);
    });
  });
  return {
    busy: (s) => void answering.add(s),
    idle: (s) => {
      answering.delete(s);
      served.add(s);
    },
  };
}

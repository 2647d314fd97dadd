// Raw HTTP to a server under test, as a stranger's client reads it: status, headers and the bytes of
// the body, with nothing forgiven (undici's request, not the remote adapter).
import { connect } from 'node:net';
import { request } from 'undici';
import type { WireResponse } from './wireCheck.js';

export interface RawResponse extends WireResponse {
  text: string;
  json(): unknown;
}

export interface RawInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The API key (sent as `Authorization: Token <key>`). */
  key?: string;
}

/** One request to `origin` + `path`, read whole. */
export async function raw(origin: string, path: string, init: RawInit = {}): Promise<RawResponse> {
  const method = init.method ?? 'GET';
  const headers = { ...(init.key ? { authorization: `Token ${init.key}` } : {}), ...init.headers };
  const res = await request(`${origin}${path}`, { method: method as 'GET', headers, body: init.body });
  const body = Buffer.from(await res.body.arrayBuffer());
  const text = body.toString('utf8');
  return { method, url: path, status: res.statusCode, headers: res.headers, body, text, json: () => JSON.parse(text) };
}

/** Bytes written to the server's socket as they are (a request no HTTP client would send); the answer as text. */
export function rawSocket(origin: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

/** A raw HTTP/1.1 answer (from rawSocket) as status, headers and body. */
export function parseRawAnswer(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

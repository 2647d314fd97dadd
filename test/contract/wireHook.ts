// The contract suite's one hook in its HTTP path: an undici interceptor on the remote adapter's
// dispatcher that reads every response of esign serve as it arrives (status, headers, the body's
// bytes) and holds it to the operations table (wireCheck.ts). What is wrong is kept, and the
// backend's close (after each test) fails the test with it: every scenario checks the wire.
import { Agent, type Dispatcher } from 'undici';
import { type WireResponse, wireProblems } from '../wireCheck.js';

export interface WireWatch {
  /** The remote adapter's dispatcher: an agent whose every response is checked. */
  dispatcher: Dispatcher;
  /** Responses seen, and what was wrong with each. */
  readonly seen: number;
  readonly problems: string[];
  /** Throws with every problem seen, if any. */
  assertClean(): void;
}

export function watchWire(check: (r: WireResponse) => string[] = wireProblems): WireWatch {
  const problems: string[] = [];
  let seen = 0;
  const record = (r: WireResponse) => {
    seen++;
    for (const p of check(r)) problems.push(`${r.method} ${r.url} -> ${r.status}: ${p}`);
  };
  const interceptor: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    let status = 0;
    let headers: WireResponse['headers'] = {};
    const chunks: Buffer[] = [];
    return dispatch(opts, {
      onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
      onRequestUpgrade: (controller, statusCode, h, socket) =>
        handler.onRequestUpgrade?.(controller, statusCode, h, socket),
      onResponseStart: (controller, statusCode, h, statusMessage) => {
        status = statusCode;
        headers = h as WireResponse['headers'];
        return handler.onResponseStart?.(controller, statusCode, h, statusMessage);
      },
      onResponseData: (controller, chunk) => {
        chunks.push(chunk);
        return handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (controller, trailers) => {
        record({ method: opts.method, url: opts.path, status, headers, body: Buffer.concat(chunks) });
        return handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
    });
  };
  return {
    dispatcher: new Agent({ keepAliveTimeout: 10_000 }).compose(interceptor),
    get seen() {
      return seen;
    },
    problems,
    assertClean() {
      if (problems.length) throw new Error(`The wire differs from the operations table:\n${problems.join('\n')}`);
    },
  };
}

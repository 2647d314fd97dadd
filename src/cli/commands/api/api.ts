// esign api METHOD PATH: a raw API v2 call, like `gh api`, on whichever backend is configured.
import { readFile } from 'node:fs/promises';
import { ApiError } from '../../../domain/errors.js';
import { fillPath, operationAt, operationRow, withinApi } from '../../../service/operationTable.js';
import { CliError, EXIT, rethrowAsStateConflict, STATE_GATED } from '../../exitCodes.js';
import { readAll } from '../../io.js';
import { collect } from '../../run.js';
import { safeJson, stripControl } from '../../../app/sanitize.js';
import { defineVerb } from '../../verb.js';
import type { Factory } from '../../factory.js';
import type { Transport } from './transport.js';
import { parseField, setField, toQuery, typedValue } from './fields.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export const api = defineVerb(
  'api <method> <path>',
  'Call API v2 directly (remote server, or the local engine in-process) and print the JSON answer',
  {
    flags: (c) =>
      c
        .option('-f, --raw-field <key=value>', 'a string field (repeatable; name[sub] and name[] nest)', collect)
        .option(
          '-F, --field <key=value>',
          'a typed field: true, false, null, numbers; @FILE reads a file (repeatable)',
          collect,
        )
        .option(
          '--input <file>',
          'the raw request body from a file, or - for stdin (fields then go to the query string)',
        )
        .option('-H, --header <name:value>', 'an extra request header (repeatable)', collect)
        .option('--paginate', 'follow X-Blueink-Pagination and print every page as one JSON array')
        .option('-i, --include', 'print the status line and response headers before the body'),
    examples: [
      'esign api GET /bundles/ -F per_page=100 --paginate',
      'esign api POST /persons/ -f name="Ada Lovelace" -f "channels[][email]=ada@example.com"',
      'esign api PUT /bundles/9KwSrpJdyp/add_tags/ --input tags.json -i',
    ],
    async run(f, o, methodName, path) {
      const method = methodName.toUpperCase();
      if (!METHODS.includes(method))
        throw new CliError(`Unknown method "${methodName}": one of ${METHODS.join(', ')}.`, EXIT.USAGE);
      const fields: Record<string, unknown> = {};
      for (const item of o.rawField ?? []) setField(fields, ...parseField(item, '-f'));
      for (const item of o.field ?? []) {
        const [k, v] = parseField(item, '-F');
        setField(fields, k, await typedValue(f.io, v));
      }
      const headers: Record<string, string> = {};
      for (const h of o.header ?? []) {
        const i = h.indexOf(':');
        if (i < 1) throw new CliError(`-H expects "Name: value", got "${h}".`, EXIT.USAGE);
        headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
      }

      const { pathname, fromRoot, query } = target(path);
      let body: Buffer | undefined;
      const hasFields = Object.keys(fields).length > 0;
      if (o.input !== undefined) {
        body = await readInput(f, o.input);
        toQuery(fields, query);
      } else if (hasFields && method !== 'GET' && method !== 'HEAD') body = Buffer.from(JSON.stringify(fields));
      else toQuery(fields, query);
      if (body && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
        headers['Content-Type'] = 'application/json';
      if (o.paginate && method !== 'GET') throw new CliError('--paginate applies to GET lists.', EXIT.USAGE);

      const transport = await f.apiTransport();
      // What the server sent, as it sent it when piped (a script's data); on a terminal without controls.
      const onTerminal = (t: string) => (f.io.out.isTTY ? stripControl(t) : t);
      try {
        const items: unknown[] = [];
        for (let page = Number(query.get('page') ?? 1); ; page++) {
          if (o.paginate) query.set('page', String(page));
          const qs = query.toString();
          const res = await transport.send({
            method,
            path: `${pathname}${qs ? `?${qs}` : ''}`,
            fromRoot,
            headers,
            body,
          });
          if (o.include) f.io.out.write(onTerminal(statusBlock(res.status, res.headers)));
          const text = res.body.toString('utf8');
          const parsed = parseJson(text, res.headers['content-type']);
          if (res.status >= 400) {
            f.io.out.write(onTerminal(show(parsed, text)));
            throw await refusal(transport, method, pathname, ApiError.fromWire(res.status, parsed));
          }
          if (!o.paginate) return void f.io.out.write(onTerminal(show(parsed, text)));
          if (!Array.isArray(parsed)) throw new CliError(`--paginate: ${path} did not answer a list.`, EXIT.FAILURE);
          items.push(...parsed);
          const [current, totalPages] = String(res.headers['x-blueink-pagination'] ?? '')
            .split(',')
            .map(Number);
          if (!(current < totalPages)) break;
        }
        f.io.out.write(`${safeJson(items, 2)}\n`);
      } finally {
        await transport.close();
      }
    },
  },
);

/**
 * The error of a refused call as the verb for the same operation would have it: a send or an update
 * refused by the Bundle's state (read again) is a state conflict, exit 7 (exitCodes.ts STATE_GATED).
 */
async function refusal(transport: Transport, method: string, path: string, e: ApiError): Promise<unknown> {
  const at = operationAt(method, path);
  if (!at || !STATE_GATED[at.row.name]) return e;
  const statusOf = async () => {
    const res = await transport.send({
      method: 'GET',
      path: fillPath(operationRow('getBundle')!.path, { slug: at.params.slug ?? '' }),
      fromRoot: false,
      headers: {},
    });
    return String((parseJson(res.body.toString('utf8'), res.headers['content-type']) as { status?: unknown })?.status);
  };
  return rethrowAsStateConflict(e, at.row.name, statusOf).catch((refused: unknown) => refused);
}

/** `bundles/`, `/bundles/?page=2`, `/api/v2/bundles/` are the API's; `/sandbox/...` and `/files/...` the server root's. */
function target(path: string): { pathname: string; fromRoot: boolean; query: URLSearchParams } {
  const u = new URL(path.startsWith('/') ? path : `/${path}`, 'http://x');
  const pathname = withinApi(u.pathname);
  return { pathname, fromRoot: /^\/(sandbox|files)\//.test(pathname), query: u.searchParams };
}

async function readInput(f: Factory, input: string): Promise<Buffer> {
  try {
    return input === '-' ? Buffer.from(await readAll(f.io.stdin)) : await readFile(input);
  } catch (e) {
    throw new CliError(
      `--input ${input}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
      EXIT.USAGE,
    );
  }
}

function parseJson(text: string, contentType: unknown): unknown {
  if (!text || !/json/.test(String(contentType ?? ''))) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const show = (parsed: unknown, text: string) =>
  parsed !== undefined ? `${safeJson(parsed, 2)}\n` : text && !text.endsWith('\n') ? `${text}\n` : text;

function statusBlock(status: number, headers: Record<string, string | string[] | number | undefined>): string {
  // node:http is loaded here, not at start-up: every command would pay for it (about 1.5 ms).
  const { STATUS_CODES } = process.getBuiltinModule('node:http');
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  for (const [k, v] of Object.entries(headers))
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [String(v)]) lines.push(`${k}: ${one}`);
  return `${lines.join('\n')}\n\n`;
}

// The request body or query of `esign api`, from -f/-F fields (as `gh api` reads them).
import { readFile } from 'node:fs/promises';
import { CliError, EXIT } from '../../exitCodes.js';
import { type IO, readAll } from '../../io.js';

type Obj = Record<string, unknown>;

/** `-F` values: true/false/null and numbers are typed, `@file` is the file's text (`@-` stdin), the rest a string. */
export async function typedValue(io: IO, value: string): Promise<unknown> {
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(value) && Number.isFinite(Number(value))) return Number(value);
  if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      return (path === '-' ? await readAll(io.stdin) : await readFile(path, 'utf8')).replace(/\r?\n$/, '');
    } catch (e) {
      throw new CliError(
        `-F ${value}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
        EXIT.USAGE,
      );
    }
  }
  return value;
}

/** `a[b][]=v` as path ['a', 'b', ''] (an empty segment appends to a list). */
function keyPath(key: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new CliError(`Field name "${key}" is malformed (use name, name[sub] or name[]).`, EXIT.USAGE);
  return [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1])];
}

/** Sets `value` at a `-f` key in `into`: nested objects for `[sub]`, lists for `[]`. */
export function setField(into: Obj, key: string, value: unknown): void {
  const path = keyPath(key);
  let node: Obj | unknown[] = into;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    const nextIsList = !last && path[i + 1] === '';
    const fresh = () => (nextIsList ? [] : {});
    if (Array.isArray(node)) {
      if (seg !== '') throw new CliError(`Field "${key}": a list item needs "[]".`, EXIT.USAGE);
      if (last) node.push(value);
      else {
        // `a[][x]=1` then `a[][y]=2`: a member already set starts a new item.
        const tail = node[node.length - 1] as Obj | undefined;
        const nextKey = path[i + 1];
        if (!tail || typeof tail !== 'object' || nextKey in tail) node.push(fresh());
        node = node[node.length - 1] as Obj;
      }
      continue;
    }
    if (last) node[seg] = value;
    else {
      const child = node[seg];
      if (child === undefined || typeof child !== 'object' || child === null) node[seg] = fresh();
      node = node[seg] as Obj | unknown[];
    }
  }
}

export function parseField(item: string, flag: string): [string, string] {
  const i = item.indexOf('=');
  if (i < 1) throw new CliError(`${flag} expects KEY=VALUE, got "${item}".`, EXIT.USAGE);
  return [item.slice(0, i), item.slice(i + 1)];
}

/** Query parameters from fields: a list repeats its name, an object is spelled `name[sub]`. */
export function toQuery(fields: Obj, params: URLSearchParams, prefix = ''): void {
  for (const [k, v] of Object.entries(fields)) {
    const name = prefix ? `${prefix}[${k}]` : k;
    if (Array.isArray(v)) for (const item of v) params.append(name, String(item));
    else if (v && typeof v === 'object') toQuery(v as Obj, params, name);
    else params.append(name, v === null ? '' : String(v));
  }
}

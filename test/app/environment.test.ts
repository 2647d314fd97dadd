// One place reads the environment: every ESIGN_* variable the source names is in the table that
// `esign help environment` prints, and no module but src/app/environment.ts reads one.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIABLES, environment } from '../../src/app/environment.js';
import { esignIn } from '../cli/inProcess.js';

const src = join(import.meta.dirname, '../../src');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
/** Codes that look like variables but name a warning and an error, not a setting. */
const CODES = new Set(['ESIGN_REPORT', 'ESIGN_REFUSED_ADDRESS']);
/** A variable of the user's own shell that an example reads a key from (esign profile add --help). */
const EXAMPLES = new Set(['ESIGN_KEY']);

describe('the environment', () => {
  const named = new Map<string, string[]>();
  for (const file of files(src))
    for (const [name] of readFileSync(file, 'utf8').matchAll(/\bESIGN_[A-Z0-9_]+/g))
      named.set(name, [...(named.get(name) ?? []), file]);

  it('names every variable the source names, with its meaning', () => {
    const listed = new Set(VARIABLES.map((v) => v.name));
    const missing = [...named.keys()].filter((n) => !listed.has(n) && !CODES.has(n) && !EXAMPLES.has(n));
    expect(missing).toEqual([]);
    for (const v of VARIABLES) expect(v.meaning.length).toBeGreaterThan(10);
  });

  it("is read in one module (the engine's helper programs in one more): no other reads an ESIGN_* variable", () => {
    const readers = files(src).filter(
      (f) =>
        !f.endsWith(join('app', 'environment.ts')) &&
        !f.endsWith(join('intake', 'findExecutable.ts')) &&
        /\benv(\.|\[')ESIGN_/.test(readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')),
    );
    expect(readers.map((f) => f.slice(src.length + 1))).toEqual([]);
  });

  it('treats an empty value as unset, but keeps an empty pager (no pager)', () => {
    const e = environment({ ESIGN_BASE_URL: '', ESIGN_API_KEY: ' ', ESIGN_PAGER: '', ESIGN_DEBUG: 'api, sql' });
    expect(e.baseUrl).toBeUndefined();
    expect(e.apiKey).toBeUndefined();
    expect(e.pager).toBe('');
    expect(e.debug).toEqual({ words: ['api', 'sql'], stacks: true });
  });

  it('is what esign help environment prints, one variable a line', async () => {
    const r = await esignIn(['help', 'environment']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(VARIABLES.map((v) => v.name));
    expect(r.stdout).toMatch(/^ESIGN_BASE_URL\s+a remote API v2 server's base URL/m);
  });
});

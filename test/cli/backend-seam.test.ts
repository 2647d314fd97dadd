// The CLI never asks which backend it has (docs/design.md): no command branches on the base URL or on the
// class of its service. What differs is a capability of the port, or a method of the Factory, which
// builds the backend and is the one place that knows.
import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { expect, test } from 'vitest';

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli');

/**
 * Files where the base URL is data, not a branch: the Factory, the profiles it is stored in, and what
 * describes the connection itself (esign auth status; the next step a connection's failure names).
 */
const EXEMPT = [/^factory\.ts$/, /^profiles\.ts$/, /^commands\/profile\//, /^commands\/auth\//, /^nextStep\.ts$/];

/**
 * A decision on the backend: a condition or a choice that reads `baseUrl`. (An instanceof of a
 * backend cannot be written: src/cli imports no adapter, which the dependency rules hold.)
 */
const BRANCH = [
  /\bif\s*\(.*\bbaseUrl\b/,
  /\bbaseUrl\b[^;\n]*\?[^;\n]*:/,
  /\bbaseUrl\s*(&&|\|\|)/,
  /(&&|\|\|)\s*[\w.()]*\bbaseUrl\b/,
];

test('no command or CLI module branches on which backend it has', () => {
  const found: string[] = [];
  for (const f of readdirSync(CLI, { recursive: true, encoding: 'utf8' })) {
    const file = f.split(sep).join('/');
    if (!/\.tsx?$/.test(file) || EXEMPT.some((r) => r.test(file))) continue;
    readFileSync(join(CLI, f), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (BRANCH.some((r) => r.test(line))) found.push(`src/cli/${file}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(found).toEqual([]);
});

test('the check sees the branches it names', () => {
  const lines = [
    'if ((await f.settings()).baseUrl) return [];',
    'return s.baseUrl ? remote(s.baseUrl) : local(f);',
    'if (settings.baseUrl && pending) {',
    'if (!s.baseUrl) return join(base, "batches");',
  ];
  for (const l of lines)
    expect(
      BRANCH.some((r) => r.test(l)),
      l,
    ).toBe(true);
  expect(BRANCH.some((r) => r.test('export async function remoteTransport(baseUrl: string) {'))).toBe(false);
});

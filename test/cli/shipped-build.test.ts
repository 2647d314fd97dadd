// The shipped program (dist/, run by bin/esign.js) loads every package through Node itself, so a
// package has the same shape there as under the test runner: no package code is copied into dist/.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist/', import.meta.url);

describe('the built program', () => {
  it('bundles no package: each is imported from node_modules, as plain Node does', () => {
    const maps = readdirSync(DIST).filter((n) => n.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const inlined = maps.flatMap((n) => {
      const { sources } = JSON.parse(readFileSync(new URL(n, DIST), 'utf8')) as { sources: string[] };
      return sources.filter((s) => s.includes('node_modules/')).map((s) => `${n}: ${s}`);
    });
    expect(inlined).toEqual([]);
  });

});

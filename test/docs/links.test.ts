// The documents a maintainer reads hold together: every link in the README and docs/ names a file
// the repository holds (and a heading of it, for a #anchor), and none cites a file it does not hold.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCS = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter(
  (f) => f.endsWith('.md') && existsSync(join(ROOT, f)),
);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Markdown links outside code: [text](target). */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

describe.each(DOCS)('%s', (doc) => {
  const text = readFileSync(join(ROOT, doc), 'utf8');

  it('links to files the repository holds, and to headings they have', () => {
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path ? join(dirname(join(ROOT, doc)), decodeURIComponent(path)) : join(ROOT, doc);
      if (!existsSync(target)) broken.push(`${link}: no file ${relative(ROOT, target)}`);
      else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
    }
    expect(broken).toEqual([]);
  });

  it('cites no file the repository does not hold', () => {
    expect(text).not.toMatch(/\b(api-v2\.md|wire-facts\.md|GUIDE\.md)\b/);
  });
});

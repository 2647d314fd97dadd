// Start-up cost of the built CLI: what `esign <anything>` loads before the command runs is the static
// import graph of dist/cli.js. Commands register there; what they do must load lazily, inside .action().
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIST = new URL('../../dist/', import.meta.url);

/** The files dist/cli.js loads at start-up (static imports, followed), and the bare packages they import. */
function staticGraph(): { files: Map<string, string>; packages: Set<string> } {
  const files = new Map<string, string>();
  const packages = new Set<string>();
  const visit = (name: string) => {
    if (files.has(name)) return;
    const text = readFileSync(new URL(name, DIST), 'utf8');
    files.set(name, text);
    // Static import statements only (`import x from "y"`, `import "y"`, `export ... from "y"`), not import().
    for (const m of text.matchAll(/^(?:import|export)\s(?:[^;'"]*?\sfrom\s*)?["']([^"']+)["']/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('./')) visit(spec.slice(2));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit('cli.js');
  return { files, packages };
}

const sourcesOf = (files: Map<string, string>) =>
  new Set([...files.values()].flatMap((t) => [...t.matchAll(/^\/\/ (src\/\S+)/gm)].map((m) => m[1]!)));

describe('start-up imports of the built CLI', () => {
  it('does not load the database driver (better-sqlite3) for every command', () => {
    const { files, packages } = staticGraph();
    expect([...packages]).not.toContain('better-sqlite3');
    expect([...sourcesOf(files)]).not.toContain('src/local/store/db.ts');
  });

  it('loads the webhook receiver tools only when they run', () => {
    const sources = sourcesOf(staticGraph().files);
    for (const lazy of [
      'src/cli/commands/webhook/receiver.ts',
      'src/cli/commands/webhook/verifyDelivery.ts',
      'src/domain/webhookSignature.ts',
    ])
      expect([...sources]).not.toContain(lazy);
    // ...while the commands themselves are registered up front.
    expect([...sources]).toContain('src/cli/commands/webhook/listen.ts');
    expect([...sources]).toContain('src/cli/commands/webhook/verify.ts');
  });
});

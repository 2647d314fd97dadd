// The layers of src/ hold (.dependency-cruiser.cjs: doors -> app -> port <- adapters, src/wiring on
// top, no cycle, type imports and import() counted), and each rule catches what it names.
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Cruises `src` under `cwd` with the project's rules; the violations found. */
async function violations(cwd: string): Promise<Violation[]> {
  const run = promisify(execFile);
  const args = [CRUISE, 'src', '--config', CONFIG, '--output-type', 'json'];
  const out = await run(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }),
  );
  return (JSON.parse(out.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('the layers of src/', () => {
  it('hold: no rule is broken', async () => {
    const found = await violations(ROOT);
    expect(found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 60_000);

  it('catch a door importing a door, an adapter or the wiring, an upward import, a type-only cycle and a lazy load outside the seam', async () => {
    const d = tempDir('esign-layers-');
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
        'src/cli/toServer.ts': "import { b } from '../server/b.js';\nexport const a = b;\n",
        'src/cli/toLocal.ts': "import type { L } from '../local/l.js';\nexport type C = L;\n",
        'src/cli/fine.ts':
          "import { u } from '../app/u.js';\nimport type { P } from '../service/p.js';\nexport const f: P = u;\n",
        'src/app/u.ts': "export const u = 1;\nexport const late = () => import('../mcp/m2.js');\n",
        'src/mcp/m2.ts': 'export const m2 = 2;\n',
        'src/service/p.ts': "import type { u } from '../app/u.js';\nexport type P = typeof u;\n",
        'src/service/q.ts': "import type { R } from '../domain/r.js';\nexport type Q = R;\n",
        'src/domain/r.ts': "import type { P } from '../service/p.js';\nexport type R = P;\n",
        'src/local/l.ts': "export type L = 1;\nexport const r = () => import('../remote/r.js');\n",
        'src/remote/r.ts': "import { u } from '../app/u.js';\nexport const r = u;\n",
        'src/server/b.ts': "import type { B2 } from './b2.js';\nexport const b = 1;\nexport type B = B2;\n",
        'src/server/b2.ts': "import type { B } from './b.js';\nexport type B2 = B | 2;\n",
        'src/mcp/m.ts': "import { w } from '../wiring/w.js';\nexport const m = w;\n",
        'src/cli/commands/x/late.ts': "export const late = () => import('./body.js');\n",
        'src/cli/commands/x/index.ts': "export const seam = () => import('./body.js');\n",
        'src/cli/commands/x/body.ts': 'export const run = 1;\n',
        'src/wiring/w.ts':
          "import { a } from '../cli/toServer.js';\nimport { r } from '../remote/r.js';\nexport const w = a + r;\n",
      };
      for (const [name, text] of Object.entries(files)) {
        mkdirSync(dirname(join(d.dir, name)), { recursive: true });
        writeFileSync(join(d.dir, name), text);
      }
      const found = (await violations(d.dir)).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
      expect(found).toEqual([
        'adapter-knows-no-door: src/remote/r.ts -> src/app/u.ts',
        'adapters-apart: src/local/l.ts -> src/remote/r.ts',
        'app-knows-no-door: src/app/u.ts -> src/mcp/m2.ts',
        'domain-imports-nothing-outside: src/domain/r.ts -> src/service/p.ts',
        'door-to-adapter: src/cli/toLocal.ts -> src/local/l.ts',
        'door-to-adapter: src/mcp/m.ts -> src/wiring/w.ts',
        'door-to-door: src/cli/toServer.ts -> src/server/b.ts',
        'lazy-in-one-place: src/cli/commands/x/late.ts -> src/cli/commands/x/body.ts',
        'no-cycle: src/server/b.ts -> src/server/b2.ts',
        'nothing-imports-wiring: src/mcp/m.ts -> src/wiring/w.ts',
        'port-imports-nothing-outside: src/service/p.ts -> src/app/u.ts',
      ]);
    } finally {
      d.cleanup();
    }
  }, 60_000);
});

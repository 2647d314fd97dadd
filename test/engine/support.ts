// Small helpers shared by the engine tests (not a test file itself).
import { afterEach, beforeEach, expect } from 'vitest';
import { CONTRACT_B64, bundleRequest, newEngine } from '../helpers.js';

export type TestEngine = ReturnType<typeof newEngine>;

/** A fresh engine for every test of the calling file (made with `opts`), disposed afterwards. */
export function useEngine(opts?: Parameters<typeof newEngine>[0]): { readonly e: TestEngine } {
  const box = {} as { e: TestEngine };
  beforeEach(() => {
    box.e = newEngine(opts);
  });
  afterEach(async () => box.e?.dispose());
  return box;
}

/**
 * Before each test of the calling file: a fresh engine and a receiver from `start`, handed to `use`;
 * after it, both closed, the one named by `closeFirst` first.
 */
export function eachEngineAndReceiver<R extends { close(): Promise<void> }>(
  start: () => Promise<R>,
  use: (e: TestEngine, r: R) => void,
  closeFirst: 'engine' | 'receiver',
): void {
  let made: { e: TestEngine; r: R } | undefined;
  beforeEach(async () => {
    made = { e: newEngine(), r: await start() };
    use(made.e, made.r);
  });
  afterEach(async () => {
    if (!made) return;
    const closes = [() => made!.e.dispose(), () => made!.r.close()];
    for (const close of closeFirst === 'engine' ? closes : closes.reverse()) await close();
  });
}

type Obj = Record<string, unknown>;

/** bundleRequest() with packet `i` merged with `over`. */
export function withPacket(i: number, over: Obj, base: Obj = bundleRequest()): Obj {
  const packets = (base.packets as Obj[]).map((p, j) => (j === i ? { ...p, ...over } : p));
  return { ...base, packets };
}

/** bundleRequest() whose single document is `{key, file_b64}` merged with `over`. */
export function withDocument(over: Obj, base: Obj = bundleRequest()): Obj {
  return { ...base, documents: [{ key: 'contract', file_b64: CONTRACT_B64, ...over }] };
}

/** bundleRequest() with these documents. */
export const withDocuments = (...documents: Obj[]): Obj => bundleRequest({ documents });

/** bundleRequest() whose single document carries one placed field. */
export function withField(field: Obj): Obj {
  return withDocument({ fields: [{ kind: 'inp', page: 1, x: 10, y: 10, w: 100, h: 20, editors: ['ada'], ...field }] });
}

/** The fields stored with document `key` of Bundle `slug` (as the engine wrote them, before any view). */
export const storedFields = (e: TestEngine, slug: string, key: string) => {
  const row = e.db
    .prepare('SELECT d.spec FROM documents d JOIN bundles b ON b.seq = d.bundle_seq WHERE b.id = ? AND d.key = ?')
    .get(slug, key) as { spec: string };
  return JSON.parse(row.spec).fields as Record<string, unknown>[];
};

export const eventKinds = async (e: TestEngine, slug: string) => (await e.listBundleEvents(slug)).map((x) => x.kind);

export const outboxOf = (e: TestEngine, slug: string) => e.outbox({ bundle: slug });

/** A string of exactly `n` characters. */
export const chars = (n: number, c = 'a') => c.repeat(n);

/** A syntactically valid email address of exactly `n` characters. */
export const emailOf = (n: number) => `${chars(n - '@example.com'.length)}@example.com`;

/** Forces a Bundle into a state the API cannot reach yet (signing arrives in a later release). */
export function forceStatus(e: TestEngine, slug: string, status: string, extra: Obj = {}): void {
  const cols = { status, ...extra };
  const sets = Object.keys(cols)
    .map((k) => `${k} = @${k}`)
    .join(', ');
  e.db.prepare(`UPDATE bundles SET ${sets} WHERE id = @id`).run({ ...cols, id: slug });
}

export const DAY_MS = 86_400_000;

/** Runs `fn` with no LibreOffice to be found (PATH and ESIGN_SOFFICE cleared) when `on`, and puts them back. */
export async function withoutSoffice<T>(on: boolean | undefined, fn: () => Promise<T>): Promise<T> {
  if (!on) return fn();
  const saved = { PATH: process.env.PATH, ESIGN_SOFFICE: process.env.ESIGN_SOFFICE };
  process.env.PATH = '';
  process.env.ESIGN_SOFFICE = '';
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * Stops (SIGSTOP) the first process `listed` names that was not in `before`, as soon as it appears
 * (a sandbox process starved of CPU from its start: a loaded machine at its worst); its pid.
 */
export async function stopNewProcess(listed: () => number[], before: Set<number>): Promise<number> {
  let found: number | undefined;
  for (let i = 0; i < 500 && found === undefined; i++) {
    found = listed().find((pid) => !before.has(pid));
    if (found === undefined) await new Promise((r) => setTimeout(r, 10));
  }
  expect(found, 'a new process within 5 s').toBeDefined();
  process.kill(found!, 'SIGSTOP');
  return found!;
}

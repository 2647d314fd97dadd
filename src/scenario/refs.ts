// References in a scenario's values: `${create_nda.id}` and `${create_nda.packets[0].id}` (an
// earlier step's answer, by a path into it), `${env.NAME}` and `${env.NAME:-default}` (the
// environment, then the file's env defaults, then the default written in place), `${now}` and
// `${now+2d}` (a time on the sandbox's clock, ISO 8601, as the step starts). A value that is
// one reference alone takes the referenced value as it is (a number stays a number, an object an
// object); a reference inside other text is written into it.

import { parseDuration } from '../app/duration.js';

const REF = /\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([^}]*)\}$/;
const ENV = /^env\.([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;
const NOW = /^now(?:([+-])\s*(\S+))?$/;
const STEP_REF = /^([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\[\*\])*)$/;

export type Ref =
  | { kind: 'env'; name: string; fallback?: string }
  | { kind: 'step'; step: string; path: string }
  | { kind: 'now'; offsetMs: number };

/** What a reference that is none of the forms should have been. */
export const REF_FORMS = '${step.path}, ${env.NAME:-default} or ${now+2d}';

/** One reference's text (between `${` and `}`), read; undefined when it is neither form. */
function parseRef(inner: string): Ref | undefined {
  const t = inner.trim();
  const now = NOW.exec(t);
  if (now) {
    const ms = now[2] === undefined ? 0 : parseDuration(now[2]);
    return ms === undefined ? undefined : { kind: 'now', offsetMs: now[1] === '-' ? -ms : ms };
  }
  const env = ENV.exec(t);
  if (env) return { kind: 'env', name: env[1]!, ...(env[2] !== undefined ? { fallback: env[2] } : {}) };
  const step = STEP_REF.exec(t);
  if (step) return { kind: 'step', step: step[1]!, path: step[2]!.replace(/^\./, '') };
  return undefined;
}

/** Every reference written in a value (deep), with the reference's text. */
export function refsIn(value: unknown): { text: string; ref: Ref | undefined }[] {
  const found: { text: string; ref: Ref | undefined }[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') for (const m of v.matchAll(REF)) found.push({ text: m[0], ref: parseRef(m[1]!) });
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(value);
  return found;
}

/** A path into a value: `packets[0].id`, `[*].kind` (every item), `` (the value itself). */
function pathParts(path: string): (string | number | '*')[] {
  const parts: (string | number | '*')[] = [];
  for (const m of path.matchAll(/\[(\d+|\*)\]|\.?([^.[\]]+)/g)) {
    if (m[1] === '*') parts.push('*');
    else if (m[1] !== undefined) parts.push(Number(m[1]));
    else parts.push(m[2]!);
  }
  return parts;
}

/** Whether a path is written well enough to follow: members, [N] and [*]. */
export const isPath = (path: string): boolean =>
  path === '' || /^(?:\.?[A-Za-z_$][\w$-]*|\[\d+\]|\[\*\])+$/.test(path.replace(/^\./, ''));

/**
 * The value at `path`; a `[*]` maps the rest of the path over each item. `found` is false when a
 * member or item on the way is missing.
 */
export function valueAt(root: unknown, path: string): { found: boolean; value: unknown } {
  const walk = (v: unknown, parts: (string | number | '*')[]): { found: boolean; value: unknown } => {
    if (!parts.length) return { found: true, value: v };
    const [head, ...rest] = parts;
    if (head === '*') {
      if (!Array.isArray(v)) return { found: false, value: undefined };
      const each = v.map((item) => walk(item, rest));
      return { found: each.every((e) => e.found), value: each.map((e) => e.value) };
    }
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, head as PropertyKey))
      return { found: false, value: undefined };
    return walk((v as Record<string | number, unknown>)[head as string | number], rest);
  };
  return walk(root, pathParts(path));
}

class ScenarioRefError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioReferenceError';
  }
}

export interface Scope {
  env: NodeJS.ProcessEnv;
  /** The file's env defaults. */
  defaults: Record<string, string>;
  /** The answers of the steps run so far, by step name. */
  answers: ReadonlyMap<string, unknown>;
  /** The sandbox clock's time as the step starts (ms), for `${now}`. */
  nowMs?: number;
}

/** What one reference stands for now. */
function resolve(text: string, inner: string, scope: Scope): unknown {
  const ref = parseRef(inner);
  if (!ref) throw new ScenarioRefError(`${text}: not a reference (write ${REF_FORMS}).`);
  if (ref.kind === 'now') return new Date((scope.nowMs ?? Date.now()) + ref.offsetMs).toISOString();
  if (ref.kind === 'env') {
    const v = scope.env[ref.name] ?? scope.defaults[ref.name] ?? ref.fallback;
    if (v === undefined) throw new ScenarioRefError(`${text}: ${ref.name} is not set and has no default.`);
    return v;
  }
  if (!scope.answers.has(ref.step)) throw new ScenarioRefError(`${text}: no step named ${ref.step} has run.`);
  const at = valueAt(scope.answers.get(ref.step), ref.path);
  if (!at.found) throw new ScenarioRefError(`${text}: the answer of ${ref.step} has no ${ref.path}.`);
  return at.value;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** A value with its references replaced, deeply. */
export function interpolate<T>(value: T, scope: Scope): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const whole = WHOLE.exec(v);
      if (whole) return resolve(v, whole[1]!, scope);
      return v.replace(REF, (text, inner: string) => asText(resolve(text, inner, scope)));
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

// Reading a scenario file: YAML (JSON is YAML too), bounded, checked against the format (format.ts)
// and then as a whole (check.ts): every problem is reported with its place in the file
// (`nda.yaml:14:9 steps[3].sign: ...`), and a file with any problem is not run.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { checkScenario } from './check.js';
import { Scenario } from './format.js';

/** A scenario is a few kilobytes; anything near this is not one. */
const MAX_SCENARIO_BYTES = 1024 * 1024;

export interface Problem {
  /** `steps[3].sign.signer`, or '' for the file itself. */
  path: string;
  message: string;
  /** 1-based, when the place is known. */
  line?: number;
  column?: number;
}

export interface LoadedScenario {
  file: string;
  /** The folder files named in it are read from. */
  dir: string;
  /** The file's own name for itself, else its file name. */
  title: string;
  scenario: Scenario;
  /** The line each step starts on (1-based), by step. */
  lines: number[];
}

export type Loaded = { ok: true; loaded: LoadedScenario } | { ok: false; file: string; problems: Problem[] };

/**
 * `step 4.sign.signer` from zod's path: steps are numbered from 1, as `run` numbers them; below a
 * step, the members and items as written (`expect.packets[0].status`).
 */
function pathText(path: readonly PropertyKey[]): string {
  const [head, index, ...rest] = path;
  const start = head === 'steps' && typeof index === 'number' ? `step ${index + 1}` : '';
  return (start ? rest : path).reduce<string>(
    (text, p) => (typeof p === 'number' ? `${text}[${p}]` : text ? `${text}.${String(p)}` : String(p)),
    start,
  );
}

function place(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): { line?: number; column?: number } {
  // The deepest node of the path that exists (a missing member is placed at its parent).
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] };
    if (node && (isMap(node) || isSeq(node) || node.range)) {
      const at = node.range ? counter.linePos(node.range[0]) : undefined;
      return at ? { line: at.line, column: at.col } : {};
    }
  }
  return {};
}

function schemaProblems(error: z.ZodError, doc: Document, counter: LineCounter): Problem[] {
  return error.issues.map((issue) => {
    const path =
      issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : (issue.path as readonly PropertyKey[]);
    const message =
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')}: not a member here.`
        : issue.code === 'invalid_type' && !doc.hasIn(path as (string | number)[])
          ? 'Required.'
          : issue.message;
    return { path: pathText(path), message, ...place(doc, counter, path) };
  });
}

/** Reads, parses and checks one file; never throws for what is in the file. */
export async function loadScenario(file: string, env: NodeJS.ProcessEnv): Promise<Loaded> {
  const fail = (message: string, more: Partial<Problem> = {}): Loaded => ({
    ok: false,
    file,
    problems: [{ path: '', message, ...more }],
  });
  let text: string;
  try {
    if ((await stat(file)).size > MAX_SCENARIO_BYTES)
      return fail(`Larger than ${MAX_SCENARIO_BYTES / 1024} KB: not a scenario.`);
    text = await readFile(file, 'utf8');
  } catch (e) {
    return fail(`Cannot read it: ${(e as Error).message}`);
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length)
    return {
      ok: false,
      file,
      problems: doc.errors.map((e) => ({
        path: '',
        message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''),
        line: e.linePos?.[0].line,
        column: e.linePos?.[0].col,
      })),
    };
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return fail((e as Error).message);
  }
  const parsed = Scenario.safeParse(raw);
  if (!parsed.success) return { ok: false, file, problems: schemaProblems(parsed.error, doc, counter) };
  const dir = dirname(resolve(file));
  const problems = checkScenario(parsed.data, env, dir).map((p) => ({
    ...p,
    ...place(doc, counter, p.at),
  }));
  if (problems.length)
    return { ok: false, file, problems: problems.map(({ at, ...p }) => ({ ...p, path: pathText(at) })) };
  const lines = parsed.data.steps.map((_, i) => place(doc, counter, ['steps', i]).line ?? 0);
  return { ok: true, loaded: { file, dir, title: parsed.data.name ?? basename(file), scenario: parsed.data, lines } };
}

/** `nda.yaml:14:9 steps[3].sign: message` */
export const problemLine = (file: string, p: Problem): string =>
  `${file}${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}${p.path ? ` ${p.path}` : ''}: ${p.message}`;

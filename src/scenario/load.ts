// Reading a scenario file: YAML (JSON is YAML too), bounded, checked against the format (format.ts)
// and then as a whole (check.ts): every problem is reported with its place in the file
// (`nda.yaml:14:9 steps[3].sign: ...`), and a file with any problem is not run.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { checkScenario } from './check.js';
import { Scenario, scenarioJsonSchema } from './format.js';
import { nearest } from './names.js';

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
  /** The line each setup item starts on, by item. */
  setupLines: number[];
}

export type Loaded = { ok: true; loaded: LoadedScenario } | { ok: false; file: string; problems: Problem[] };

/**
 * `step 4.sign.signer` from zod's path: steps are numbered from 1, as `run` numbers them; below a
 * step, the members and items as written (`expect.packets[0].status`).
 */
function pathText(path: readonly PropertyKey[]): string {
  const [head, index, ...rest] = path;
  const start =
    (head === 'steps' || head === 'setup') && typeof index === 'number'
      ? `${head === 'steps' ? 'step' : 'setup'} ${index + 1}`
      : '';
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

type SchemaNode = {
  $ref?: string;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  propertyNames?: { enum?: string[] };
  items?: SchemaNode;
};
type FormatSchema = SchemaNode & { $defs?: Record<string, SchemaNode> };
let formatSchema: FormatSchema | undefined;

/**
 * The members the format takes where `path` leads, read from its JSON Schema (the one the editors
 * get, made from the same zod schema): what a misspelt member is most likely to have meant.
 */
function membersAt(path: readonly PropertyKey[]): string[] {
  const root = (formatSchema ??= scenarioJsonSchema() as FormatSchema);
  const expand = (n: SchemaNode): SchemaNode[] => {
    const target = n.$ref ? (root.$defs?.[n.$ref.replace('#/$defs/', '')] ?? {}) : n;
    return [target, ...[...(target.anyOf ?? []), ...(target.oneOf ?? []), ...(target.allOf ?? [])].flatMap(expand)];
  };
  let nodes: SchemaNode[] = [root];
  for (const part of path)
    nodes = nodes.flatMap(expand).flatMap((n) => {
      if (typeof part === 'number') return n.items ? [n.items] : [];
      const next = n.properties?.[String(part)] ?? n.additionalProperties;
      return next && typeof next === 'object' ? [next] : [];
    });
  const names = nodes
    .flatMap(expand)
    .flatMap((n) => [...Object.keys(n.properties ?? {}), ...(n.propertyNames?.enum ?? [])]);
  return [...new Set(names)];
}

function unknownMembers(keys: string[], at: readonly PropertyKey[]): string {
  const near = keys.length === 1 ? nearest(keys[0]!, membersAt(at)) : undefined;
  return `${keys.join(', ')}: not a member here${near ? `; did you mean ${near}?` : '.'}`;
}

function schemaProblems(error: z.ZodError, doc: Document, counter: LineCounter): Problem[] {
  return error.issues.map((issue) => {
    const path =
      issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : (issue.path as readonly PropertyKey[]);
    const message =
      issue.code === 'unrecognized_keys'
        ? unknownMembers(issue.keys, issue.path)
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
  const setupLines = (parsed.data.setup ?? []).map((_, i) => place(doc, counter, ['setup', i]).line ?? 0);
  const title = parsed.data.name ?? basename(file);
  return { ok: true, loaded: { file, dir, title, scenario: parsed.data, lines, setupLines } };
}

/** `nda.yaml:14:9 steps[3].sign: message` */
export const problemLine = (file: string, p: Problem): string =>
  `${file}${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}${p.path ? ` ${p.path}` : ''}: ${p.message}`;

// A scenario checked as a whole, beyond its schema: step and setup names are unique, every
// `${step...}` names a step or setup item that comes earlier, the PDFs a fixture names exist,
// every `${env.NAME}` is set or has a default, each call names
// the operation's own parameters, and each `expect` path can be followed. What `esign scenario
// check` reports, and what `run` refuses to start with.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { operationRow } from '../service/operationTable.js';
import { actionOf, fixtureOf, type Scenario, type SetupItem, type Step } from './format.js';
import { nearest } from './names.js';
import { isPath, REF_FORMS, refsIn } from './refs.js';

export interface Finding {
  /** Where, as a path into the file. */
  at: (string | number)[];
  message: string;
}

/** The parameters a call may name: the operation's path parameters and query parameters. */
function paramNames(operation: string): { all: string[]; required: string[] } {
  const row = operationRow(operation)!;
  const required: string[] = [];
  const all: string[] = [];
  for (const a of row.args) {
    if (a.in === 'path') required.push(a.name);
    if (a.in === 'path' || (a.in === 'query' && 'name' in a)) all.push(a.name);
    if (a.in === 'query' && !('name' in a)) all.push(...(row.query ?? []).map((p) => p.name));
  }
  return { all, required };
}

function checkCall(step: Step, at: (string | number)[], out: Finding[]): void {
  const operation = step.call!;
  const row = operationRow(operation)!;
  const { all, required } = paramNames(operation);
  for (const name of Object.keys(step.params ?? {}))
    if (!all.includes(name))
      out.push({
        at: [...at, 'params', name],
        message: `${operation} has no parameter ${name}${nearest(name, all) ? `; did you mean ${nearest(name, all)}?` : ''}${all.length ? ` (it takes ${all.join(', ')})` : ''}.`,
      });
  for (const name of required)
    if (step.params?.[name] === undefined)
      out.push({ at: [...at, 'params'], message: `${operation} needs params.${name}.` });
  const takesBody = row.args.some((a) => a.in === 'body');
  if (!takesBody && (step.body !== undefined || step.spec !== undefined))
    out.push({ at: [...at, step.body !== undefined ? 'body' : 'spec'], message: `${operation} takes no body.` });
  const bodyRequired = row.args.some((a) => a.in === 'body' && !('name' in a));
  if (bodyRequired && step.body === undefined && step.spec === undefined)
    out.push({ at, message: `${operation} needs a body (body, or spec naming a file).` });
}

const isFile = (p: string) => existsSync(p) && statSync(p).isFile();
/** A spec file is a few kilobytes; past this it is not read at check time (run says what is wrong with it). */
const MAX_SPEC_BYTES = 1024 * 1024;

/** The files a call attaches (`documents[].file_path`, beside the file or its spec) exist; a spec too. */
function checkFiles(step: Step, at: (string | number)[], dir: string, out: Finding[]): void {
  let body = step.body;
  let baseDir = dir;
  if (step.spec !== undefined) {
    if (step.spec.includes('${')) return;
    const spec = resolve(dir, step.spec);
    if (!isFile(spec)) return void out.push({ at: [...at, 'spec'], message: `${step.spec}: no such file (${spec}).` });
    if (statSync(spec).size > MAX_SPEC_BYTES) return;
    try {
      body = parseYaml(readFileSync(spec, 'utf8'));
    } catch (e) {
      return void out.push({
        at: [...at, 'spec'],
        message: `${step.spec}: not JSON or YAML (${(e as Error).message.split('\n')[0]}).`,
      });
    }
    baseDir = dirname(spec);
  }
  const documents = (body as { documents?: unknown } | undefined)?.documents;
  if (!Array.isArray(documents)) return;
  documents.forEach((d, i) => {
    const file = (d as { file_path?: unknown } | null)?.file_path;
    if (typeof file !== 'string' || file.includes('${')) return;
    if (!isFile(resolve(baseDir, file)))
      out.push({
        at: step.spec === undefined ? [...at, 'body', 'documents', i, 'file_path'] : [...at, 'spec'],
        message: `documents[${i}].file_path ${file}: no such file (${resolve(baseDir, file)}).`,
      });
  });
}

/** The PDFs a fixture reads from beside the file (a template's, an envelope template's documents'). */
function checkFixtureFiles(fixture: string, value: unknown, at: (string | number)[], dir: string, out: Finding[]) {
  const missing = (file: unknown, where: (string | number)[]) => {
    if (typeof file !== 'string' || file.includes('${') || isFile(resolve(dir, file))) return;
    out.push({ at: where, message: `${file}: no such file (${resolve(dir, file)}).` });
  };
  if (fixture === 'template') missing((value as { file?: unknown }).file, [...at, fixture, 'file']);
  if (fixture === 'envelope_template')
    (value as { documents: Record<string, unknown>[] }).documents.forEach((d, i) => {
      for (const m of ['file', 'file_path']) missing(d[m], [...at, fixture, 'documents', i, m]);
    });
}

/** Problems with the references of one step or setup item: unknown forms, steps not (yet) run, env unset. */
function checkRefs(
  step: Step | SetupItem,
  at: (string | number)[],
  earlier: Set<string>,
  scenario: Scenario,
  env: NodeJS.ProcessEnv,
  out: Finding[],
): void {
  const { name: _name, ...members } = step;
  const { expect, ...rest } = members as { expect?: unknown };
  for (const { text, ref } of refsIn([rest, expect])) {
    if (!ref) out.push({ at, message: `${text}: not a reference (write ${REF_FORMS}).` });
    else if (ref.kind === 'now') continue;
    else if (ref.kind === 'env') {
      if (env[ref.name] === undefined && scenario.env?.[ref.name] === undefined && ref.fallback === undefined)
        out.push({
          at,
          message: `${text}: ${ref.name} is not set and has no default (env: in the file, or :-default).`,
        });
    } else if (!earlier.has(ref.step))
      out.push({
        at,
        message:
          ref.step === step.name
            ? `${text}: a step cannot refer to its own answer.`
            : `${text}: no step named ${ref.step} comes before this one.`,
      });
  }
}

/** Steps about the run's receiver: its deliveries, its attempts, how it answers. */
const needsReceiver = (step: Step): boolean =>
  step.respond !== undefined ||
  step.webhooks !== undefined ||
  (step.wait !== undefined && (step.wait.attempts !== undefined || step.wait.delivery !== undefined));

/** `dir`: the file's folder, that the files it names are read from. */
export function checkScenario(scenario: Scenario, env: NodeJS.ProcessEnv, dir: string): Finding[] {
  const out: Finding[] = [];
  const earlier = new Set<string>();
  for (const { text } of refsIn([scenario.receiver, scenario.env]))
    out.push({ at: [], message: `${text}: references belong in steps.` });
  const named = (name: string | undefined, at: (string | number)[]) => {
    if (name !== undefined && earlier.has(name))
      out.push({ at: [...at, 'name'], message: `Another step is already named ${name}.` });
    if (name === 'now')
      out.push({ at: [...at, 'name'], message: '"now" names the clock (${now}): name it otherwise.' });
  };
  (scenario.setup ?? []).forEach((item, i) => {
    const at = ['setup', i];
    named(item.name, at);
    checkFixtureFiles(fixtureOf(item), item[fixtureOf(item)], at, dir, out);
    checkRefs(item, at, earlier, scenario, env, out);
    if (item.name !== undefined) earlier.add(item.name);
  });
  scenario.steps.forEach((step, i) => {
    const at = ['steps', i];
    named(step.name, at);
    const action = actionOf(step);
    checkFixtureFiles(action, step[action], at, dir, out);
    if (action === 'call') {
      checkCall(step, at, out);
      checkFiles(step, at, dir, out);
    }
    if (!scenario.receiver && needsReceiver(step))
      out.push({ at: [...at, action], message: `${action} needs the run's receiver: add "receiver:" to the file.` });
    checkRefs(step, at, earlier, scenario, env, out);
    for (const path of Object.keys(step.expect ?? {}))
      if (!isPath(path))
        out.push({ at: [...at, 'expect', path], message: `"${path}" is not a path (members, [N] and [*]).` });
    if (step.name !== undefined) earlier.add(step.name);
  });
  return out;
}

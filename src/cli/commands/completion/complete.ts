// What the shell should offer for the word under the cursor: nouns, verbs and flags from commander's
// own metadata, option choices (`--status sent` and `--status=sent`), profile names (`-p`, `profile
// use`), and ids of the local engine where an argument names one.
import { safeLine } from '../../../app/sanitize.js';
import type { TreeNode, TreeOption } from './tree.js';

/** `value<TAB>description` lines; the shell scripts drop or show the description. */
export interface Candidate {
  value: string;
  description?: string;
}

/** The lines `esign __complete` prints: `value<TAB>description`, each on one line. */
export const candidateLines = (list: Candidate[]): string =>
  list
    .map((c) => `${safeLine(c.value)}${c.description ? `\t${safeLine(c.description).replace(/\s+/g, ' ')}` : ''}\n`)
    .join('');

/** The tree with each node's parent set (a tree read from JSON has none). */
export function linked(node: TreeNode, parent?: TreeNode): TreeNode {
  node.parent = parent;
  for (const c of node.commands) linked(c, node);
  return node;
}

const takesValue = (o: TreeOption) => o.takesValue;

function optionsOf(cmd: TreeNode): TreeOption[] {
  const all: TreeOption[] = [];
  for (let c: TreeNode | undefined = cmd; c; c = c.parent) all.push(...c.options);
  return all;
}

function findOption(cmd: TreeNode, flag: string): TreeOption | undefined {
  return optionsOf(cmd).find((o) => o.long === flag || o.short === flag);
}

/** An API operation as `esign api`'s path completion shows it. */
export interface ApiOperation {
  method: string;
  path: string;
  aliases?: readonly string[];
  summary: string;
  name: string;
}

/**
 * What completion reads besides the tree: the saved profiles, the API's operations, and ids of a
 * kind (`bundle`, `person`...) from the backend. The full program reads them all; the fast path
 * (fast.ts) has the operations in its file and hands the rest to the full program.
 */
export interface CompletionSources {
  profiles(): Promise<Candidate[]>;
  operations(): Promise<readonly ApiOperation[]>;
  ids(kind: IdKind, prefix: string): Promise<Candidate[]>;
}

/** Candidates for the last of `words` (the words after `esign`, the last one possibly empty). */
export async function complete(src: CompletionSources, program: TreeNode, words: string[]): Promise<Candidate[]> {
  let current = words.at(-1) ?? '';
  let cmd = program;
  let args = 0;
  const positional: string[] = [];
  let pendingValue: TreeOption | undefined;
  for (const w of words.slice(0, -1)) {
    // bash splits `--status=se` at the `=`: `--status`, `=`, `se`; the value is still to come.
    if (pendingValue && w === '=') continue;
    if (pendingValue) {
      pendingValue = undefined;
      continue;
    }
    if (w.startsWith('-')) {
      const o = findOption(cmd, w.split('=')[0]);
      if (o && takesValue(o) && !w.includes('=')) pendingValue = o;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name === w || c.aliases.includes(w));
    if (sub && args === 0) cmd = sub;
    else {
      args++;
      positional.push(w);
    }
  }
  const matching = (list: Candidate[]) => list.filter((c) => c.value.startsWith(current));
  if (pendingValue) {
    if (current === '=') current = '';
    return matching(await optionValues(src, pendingValue, current));
  }
  const inline = /^(--[^=]+)=(.*)$/.exec(current);
  if (inline) {
    // zsh and fish keep `--status=se` one word: the values are offered with the flag before them.
    const o = findOption(cmd, inline[1]);
    if (!o || !takesValue(o)) return [];
    return matching((await optionValues(src, o, inline[2])).map((c) => ({ ...c, value: `${inline[1]}=${c.value}` })));
  }
  if (current.startsWith('-'))
    return matching(optionsOf(cmd).flatMap((o) => (o.long ? [{ value: o.long, description: o.description }] : [])));
  const subs = cmd.commands;
  if (subs.length && args === 0) return matching(subs.map((c) => ({ value: c.name, description: c.description })));
  const arg = cmd.args[Math.min(args, cmd.args.length - 1)];
  if (arg?.choices) return matching(arg.choices.map((value) => ({ value })));
  const argName = cmd.args[args]?.name;
  const where = commandPath(cmd).join(' ');
  if (where === 'api' && argName === 'path') return matching(apiPaths(await src.operations(), positional[0]));
  if (PROFILE_ARGS.has(where) && argName === 'name') return matching(await src.profiles());
  const kind = argName ? idKind(commandPath(cmd)[0] ?? '', argName) : undefined;
  return kind ? matching(await src.ids(kind, current)) : [];
}

/** The profile commands whose argument names an existing profile (not `profile add`, which makes one). */
const PROFILE_ARGS = new Set(['profile use', 'profile show', 'profile remove']);

/** What an option's value may be: its choices (a list's after its last comma), or a profile's name. */
async function optionValues(src: CompletionSources, o: TreeOption, typed: string): Promise<Candidate[]> {
  if (o.long === '--profile') return src.profiles();
  // A list (--events a,b): the choices after the last comma, each with what comes before it.
  const head = o.list ? typed.slice(0, typed.lastIndexOf(',') + 1) : '';
  return (o.choices ?? []).map((value) => ({ value: head + value }));
}

/** `esign api METHOD <TAB>`: the paths of the operations (for that method, when given), with their summaries and names. */
function apiPaths(operations: readonly ApiOperation[], method: string | undefined): Candidate[] {
  const m = method?.toUpperCase();
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const op of operations) {
    if (m && op.method !== m) continue;
    for (const path of [op.path, ...(op.aliases ?? [])]) {
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ value: path, description: m ? `${op.summary} (${op.name})` : undefined });
    }
  }
  return out;
}

const commandPath = (cmd: TreeNode): string[] => (cmd.parent ? [...commandPath(cmd.parent), cmd.name] : []);

/** The kinds of object an argument may name (programSources.ts says where each one's ids come from). */
const ID_KINDS = ['bundle', 'person', 'webhook', 'template', 'envelope-template', 'header'] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** Which kind of object an argument names: `slug` a Bundle, `headerId` a webhook header, `id` the noun's own. */
const idKind = (noun: string, arg: string): IdKind | undefined =>
  arg === 'slug'
    ? 'bundle'
    : arg === 'headerId'
      ? 'header'
      : arg === 'id'
        ? ID_KINDS.find((k) => k === noun)
        : undefined;

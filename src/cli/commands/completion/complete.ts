// What the shell should offer for the word under the cursor: nouns, verbs and flags from commander's
// own metadata, option choices, and ids of the local engine where an argument names one.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import type { EsignService } from '../../../service/service.js';
import type { Factory } from '../../factory.js';
import { LIST_OPTIONS } from '../../flags.js';

/** `value<TAB>description` lines; the shell scripts drop or show the description. */
export interface Candidate {
  value: string;
  description?: string;
}

const visible = (cmd: CommandUnknownOpts) =>
  cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
const takesValue = (o: Option) => o.required || o.optional;

function optionsOf(cmd: CommandUnknownOpts): Option[] {
  const all: Option[] = [];
  for (let c: CommandUnknownOpts | null = cmd; c; c = c.parent) all.push(...c.options.filter((o) => !o.hidden));
  return all;
}

function findOption(cmd: CommandUnknownOpts, flag: string): Option | undefined {
  return optionsOf(cmd).find((o) => o.long === flag || o.short === flag);
}

/** Candidates for the last of `words` (the words after `esign`, the last one possibly empty). */
export async function complete(f: Factory, program: CommandUnknownOpts, words: string[]): Promise<Candidate[]> {
  const current = words.at(-1) ?? '';
  let cmd = program;
  let args = 0;
  const positional: string[] = [];
  let pendingValue: Option | undefined;
  for (const w of words.slice(0, -1)) {
    if (pendingValue) {
      pendingValue = undefined;
      continue;
    }
    if (w.startsWith('-')) {
      const o = findOption(cmd, w.split('=')[0]);
      if (o && takesValue(o) && !w.includes('=')) pendingValue = o;
      continue;
    }
    const sub = visible(cmd).find((c) => c.name() === w || c.aliases().includes(w));
    if (sub && args === 0) cmd = sub;
    else {
      args++;
      positional.push(w);
    }
  }
  const matching = (list: Candidate[]) => list.filter((c) => c.value.startsWith(current));
  if (pendingValue) {
    // A list (--events a,b): the choices after the last comma, each with what comes before it.
    const head = LIST_OPTIONS.has(pendingValue) ? current.slice(0, current.lastIndexOf(',') + 1) : '';
    return matching((pendingValue.argChoices ?? []).map((value) => ({ value: head + value })));
  }
  if (current.startsWith('-'))
    return matching(optionsOf(cmd).flatMap((o) => (o.long ? [{ value: o.long, description: o.description }] : [])));
  const subs = visible(cmd);
  if (subs.length && args === 0) return matching(subs.map((c) => ({ value: c.name(), description: c.description() })));
  const arg = cmd.registeredArguments[Math.min(args, cmd.registeredArguments.length - 1)];
  if (arg?.argChoices) return matching(arg.argChoices.map((value) => ({ value })));
  const argName = cmd.registeredArguments[args]?.name();
  if (commandPath(cmd).join(' ') === 'api' && argName === 'path') return matching(await apiPaths(positional[0]));
  return argName ? matching(await localIds(f, commandPath(cmd), argName, current)) : [];
}

/** `esign api METHOD <TAB>`: the paths of the operations table (for that method, when given), with their summaries. */
async function apiPaths(method: string | undefined): Promise<Candidate[]> {
  const { OPERATION_TABLE } = await import('../../../service/operationTable.js');
  const m = method?.toUpperCase();
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const op of OPERATION_TABLE) {
    if (m && op.method !== m) continue;
    for (const path of [op.path, ...(op.aliases ?? [])]) {
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ value: path, description: m ? op.summary : undefined });
    }
  }
  return out;
}

const commandPath = (cmd: CommandUnknownOpts): string[] => (cmd.parent ? [...commandPath(cmd.parent), cmd.name()] : []);

type ListMethod =
  | 'listBundles'
  | 'listPersons'
  | 'listWebhooks'
  | 'listTemplates'
  | 'listEnvelopeTemplates'
  | 'listWebhookHeaders';
type Item<K extends ListMethod> = Awaited<ReturnType<EsignService[K]>>['items'][number];

/** A list of the service's, as candidates: each item's id, described by its field `label`. */
const ids =
  <K extends ListMethod>(list: K, label: keyof Item<K> & string) =>
  async (s: EsignService, _prefix: string): Promise<Candidate[]> =>
    (await s[list]({ per_page: 100 })).items.map((t: Item<K>) => ({ value: t.id, description: String(t[label]) }));

/** Candidates shown at most for one word. */
const MAX_CANDIDATES = 100;

/**
 * Bundles by the prefix typed, from the slug index where the backend has one (any Bundle, not only
 * the newest); nothing typed yet, the newest.
 */
const bundleIds = async (s: EsignService, prefix: string): Promise<Candidate[]> =>
  prefix && s.bundleIdsByPrefix
    ? (await s.bundleIdsByPrefix(prefix, MAX_CANDIDATES)).map((b) => ({ value: b.id, description: b.label }))
    : ids('listBundles', 'label')(s, prefix);

/** Where the ids of each kind of object come from. */
const ID_SOURCES = {
  bundle: bundleIds,
  person: ids('listPersons', 'name'),
  webhook: ids('listWebhooks', 'name'),
  template: ids('listTemplates', 'name'),
  'envelope-template': ids('listEnvelopeTemplates', 'name'),
  header: ids('listWebhookHeaders', 'name'),
};

type IdKind = keyof typeof ID_SOURCES;
/** Which kind of object an argument names: `slug` a Bundle, `headerId` a webhook header, `id` the noun's own. */
const idKind = (noun: string, arg: string): IdKind | undefined =>
  arg === 'slug'
    ? 'bundle'
    : arg === 'headerId'
      ? 'header'
      : arg === 'id'
        ? ID_KINDS.find((k) => k === noun)
        : undefined;
const ID_KINDS = Object.keys(ID_SOURCES) as IdKind[];

/**
 * Ids from the local engine for the argument of a command, when it is cheap: no remote backend,
 * and a database already there (completion never creates a data directory).
 */
async function localIds(f: Factory, path: string[], arg: string, prefix: string): Promise<Candidate[]> {
  const wanted = idKind(path[0] ?? '', arg);
  if (!wanted) return [];
  const s = await f.serviceIfCheap();
  return s ? ID_SOURCES[wanted](s, prefix) : [];
}

// What the shell should offer for the word under the cursor: nouns, verbs and flags from commander's
// own metadata, option choices (`--status sent` and `--status=sent`), profile names (`-p`, `profile
// use`), and ids of the local engine where an argument names one.
import type { CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import type { EsignService } from '../../../service/service.js';
import type { Factory } from '../../factory.js';
import { LIST_OPTIONS } from '../../flags.js';
import { openProfilesIfAny } from '../../profiles.js';
import { OPERATION_TABLE } from '../../../service/operationTable.js';

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
  let current = words.at(-1) ?? '';
  let cmd = program;
  let args = 0;
  const positional: string[] = [];
  let pendingValue: Option | undefined;
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
    const sub = visible(cmd).find((c) => c.name() === w || c.aliases().includes(w));
    if (sub && args === 0) cmd = sub;
    else {
      args++;
      positional.push(w);
    }
  }
  const matching = (list: Candidate[]) => list.filter((c) => c.value.startsWith(current));
  if (pendingValue) {
    if (current === '=') current = '';
    return matching(await optionValues(f, pendingValue, current));
  }
  const inline = /^(--[^=]+)=(.*)$/.exec(current);
  if (inline) {
    // zsh and fish keep `--status=se` one word: the values are offered with the flag before them.
    const o = findOption(cmd, inline[1]);
    if (!o || !takesValue(o)) return [];
    return matching((await optionValues(f, o, inline[2])).map((c) => ({ ...c, value: `${inline[1]}=${c.value}` })));
  }
  if (current.startsWith('-'))
    return matching(optionsOf(cmd).flatMap((o) => (o.long ? [{ value: o.long, description: o.description }] : [])));
  const subs = visible(cmd);
  if (subs.length && args === 0) return matching(subs.map((c) => ({ value: c.name(), description: c.description() })));
  const arg = cmd.registeredArguments[Math.min(args, cmd.registeredArguments.length - 1)];
  if (arg?.argChoices) return matching(arg.argChoices.map((value) => ({ value })));
  const argName = cmd.registeredArguments[args]?.name();
  const where = commandPath(cmd).join(' ');
  if (where === 'api' && argName === 'path') return matching(await apiPaths(positional[0]));
  if (PROFILE_ARGS.has(where) && argName === 'name') return matching(await profileNames(f));
  return argName ? matching(await localIds(f, commandPath(cmd), argName, current)) : [];
}

/** The profile commands whose argument names an existing profile (not `profile add`, which makes one). */
const PROFILE_ARGS = new Set(['profile use', 'profile show', 'profile remove']);

/** What an option's value may be: its choices (a list's after its last comma), or a profile's name. */
async function optionValues(f: Factory, o: Option, typed: string): Promise<Candidate[]> {
  if (o.long === '--profile') return profileNames(f);
  // A list (--events a,b): the choices after the last comma, each with what comes before it.
  const head = LIST_OPTIONS.has(o) ? typed.slice(0, typed.lastIndexOf(',') + 1) : '';
  return (o.argChoices ?? []).map((value) => ({ value: head + value }));
}

/** The profiles saved (none when there is no profile file yet: nothing is made). */
async function profileNames(f: Factory): Promise<Candidate[]> {
  const store = await openProfilesIfAny(f.env);
  if (!store) return [];
  return Object.entries(store.all()).map(([name, p]) => ({ value: name, description: p.baseUrl ?? 'local' }));
}

/** `esign api METHOD <TAB>`: the paths of the operations table (for that method, when given), with their summaries and names. */
async function apiPaths(method: string | undefined): Promise<Candidate[]> {
  const m = method?.toUpperCase();
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const op of OPERATION_TABLE) {
    if (m && op.method !== m) continue;
    for (const path of [op.path, ...(op.aliases ?? [])]) {
      if (seen.has(path)) continue;
      seen.add(path);
      out.push({ value: path, description: m ? `${op.summary} (${op.name})` : undefined });
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

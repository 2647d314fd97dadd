// The program as it ships: every leaf command of the built program (commander's tree, walked from
// dist/cli.js, so a new command is covered or this test names it) runs from bin/esign.js on both
// backends, the embedded engine and a real `esign serve` on 127.0.0.1 reached through a profile.
// A command may fail as documented; it may not crash, print a stack trace or a TypeError.
// The commands run through the built bundle in one process per backend (shippedRunner.mjs: a
// process each cost ~240 Node starts); those only a process shows run as one, from bin/esign.js:
// a signal (Ctrl-C), a server reading its stdin, and the launcher's own paths (__complete, verify).
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { captureIO } from '../../src/cli/io.js';
import { fixture, programEnv, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN, type ServeProcess, startServe } from './serveProcess.js';

type Ids = Record<string, string>;

/** How each leaf command is run: its arguments ({name} is an id or path from the seeded data). */
interface Run {
  args: string[];
  stdin?: string;
  /** Runs until stopped: Ctrl-C once it has printed something (or after 2 s). */
  interrupt?: boolean;
  /** Changes what other runs use: runs alone, after all others. */
  last?: boolean;
  /** Runs as its own process from bin/esign.js (an interrupted run is one too). */
  process?: boolean;
}

const r = (line: string, o: Omit<Run, 'args'> = {}): Run => ({ args: line.split(' ').filter(Boolean), ...o });

const RUNS: Record<string, Run> = {
  'bundle create': r('bundle create --file {pdf} --signer {owner} --tag t1 --test'),
  'bundle prepare': r('bundle prepare --upload-pdf'),
  'bundle list': r('bundle list --status se --limit 5'),
  'bundle get': r('bundle get {bundle} --include events'),
  'bundle update': r('bundle update {draft} --expires 2030-01-01'),
  'bundle send': r('bundle send {bundle}'),
  'bundle cancel': r('bundle cancel {cancel} --yes', { last: true }),
  'bundle validate': r('bundle validate {draft}'),
  'bundle events': r('bundle events {bundle}'),
  'bundle files': r('bundle files {bundle}'),
  'bundle data': r('bundle data {bundle}'),
  'bundle tags add': r('bundle tags add {bundle} alpha'),
  'bundle tags remove': r('bundle tags remove {bundle} alpha'),
  'bundle remind': r('bundle remind {bundle}'),
  'bundle wait': r('bundle wait {bundle} --timeout 1s'),
  'bundle inspect': r('bundle inspect {bundle}'),
  'packet get': r('packet get {packet}'),
  'packet update': r('packet update {packet} --name AdaL'),
  'packet remind': r('packet remind {packet}'),
  'packet embed-url': r('packet embed-url {packet}'),
  'packet coe': r('packet coe {packet} --download {dir}/coe.pdf'),
  'template list': r('template list'),
  'template get': r('template get {template}'),
  'template metadata set': r('template metadata set {template} a=1'),
  'template metadata unset': r('template metadata unset {template} a'),
  'template metadata clear': r('template metadata clear {template} --yes', { last: true }),
  'template delete': r('template delete {template} --yes', { last: true }),
  'template prepare': r('template prepare'),
  'envelope-template list': r('envelope-template list'),
  'envelope-template get': r('envelope-template get {envelope}'),
  'person list': r('person list'),
  'person create': r('person create --name Bo --email bo@example.com'),
  'person get': r('person get {person}'),
  'person update': r('person update {person} --name AdaP'),
  'person delete': r('person delete {person} --yes', { last: true }),
  'webhook list': r('webhook list'),
  'webhook create': r('webhook create --name w2 --url http://127.0.0.1:9/w2 --events bundle_sent'),
  'webhook get': r('webhook get {webhook}'),
  'webhook update': r('webhook update {webhook} --name w1'),
  'webhook delete': r('webhook delete {webhook} --yes', { last: true }),
  'webhook headers list': r('webhook headers list --webhook {webhook}'),
  'webhook headers add': r('webhook headers add {webhook} X-Two two'),
  'webhook headers update': r('webhook headers update {header} --value changed'),
  'webhook headers remove': r('webhook headers remove {header} --yes', { last: true }),
  'webhook events': r('webhook events --failed'),
  'webhook event': r('webhook event {event}'),
  'webhook deliveries': r('webhook deliveries --status 200'),
  'webhook secret': r('webhook secret'),
  'webhook trigger': r('webhook trigger bundle_sent'),
  'webhook resend': r('webhook resend {event}'),
  'webhook resend-missed': r('webhook resend-missed {webhook}'),
  'webhook verify': r('webhook verify --secret s --signature v0=00 --timestamp 1 --payload {}'),
  'webhook listen': r('webhook listen --port 0 --count 1', { interrupt: true }),
  'local view': r('local view {packet}'),
  'local sign': r('local sign {packet}'),
  'local reassign': r('local reassign {packet} --name Cy --email cy@example.com'),
  'local decline': r('local decline {packet} --reason no'),
  'local template import': r('local template import {pdf} --name T2 --role s:Signer'),
  'local envelope-template create': r('local envelope-template create {envelopeSpec}'),
  'local info': r('local info'),
  'local account show': r('local account show'),
  'local account set': r('local account set --name Acme'),
  'local features list': r('local features list'),
  'local features enable': r('local features enable early_data'),
  'local features disable': r('local features disable early_data'),
  'local users list': r('local users list'),
  'local users add': r('local users add u@example.com --name U'),
  'local users verify': r('local users verify u@example.com'),
  'local users unverify': r('local users unverify u@example.com'),
  'local users remove': r('local users remove u@example.com', { last: true }),
  'local teams list': r('local teams list'),
  'local teams add': r('local teams add Sales'),
  'local brands list': r('local brands list'),
  'local brands add': r('local brands add Brand'),
  'local run-due': r('local run-due'),
  'local outbox': r('local outbox --kind signing'),
  'local keys list': r('local keys list'),
  'local keys create': r('local keys create --name extra'),
  'local keys revoke': r('local keys revoke {spareKey}', { last: true }),
  'local clock show': r('local clock show'),
  'local clock advance': r('local clock advance 1h', { last: true }),
  'local clock reset': r('local clock reset', { last: true }),
  'profile add': r('profile add spare --base-url http://127.0.0.1:9/api/v2 --api-key-stdin --no-verify', {
    stdin: 'k\n',
  }),
  'profile list': r('profile list'),
  'profile use': r('profile use {useProfile}'),
  'profile show': r('profile show --no-check'),
  'profile remove': r('profile remove spare --yes', { last: true }),
  'auth status': r('auth status'),
  serve: r('serve --port 0', { interrupt: true }),
  // An MCP client's first message, then stdin ends: the server answers and stops.
  'mcp serve': r('mcp', { stdin: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n', process: true }),
  'mcp tools': r('mcp tools'),
  'mcp install': r('mcp install --client cursor --print'),
  console: r('console --port 0', { interrupt: true }),
  verify: r('verify {pdf}', { process: true }),
  'batch send': r('batch send {csv} --spec {spec} --yes --dry-run'),
  'batch check': r('batch check {csv} --spec {spec}'),
  'batch csv-template': r('batch csv-template --spec {spec}'),
  'batch status': r('batch status'),
  'scenario run': r('scenario run {scenario} --junit {dir}/junit.xml'),
  'scenario check': r('scenario check {scenario}'),
  'scenario init': r('scenario init {dir}/init'),
  'scenario schema': r('scenario schema'),
  'scenario ops': r('scenario ops'),
  'sandbox create': r('sandbox create --name matrix --ttl 10m'),
  'sandbox list': r('sandbox list'),
  'sandbox get': r('sandbox get {sandbox}'),
  'sandbox delete': r('sandbox delete {sandbox} --yes', { last: true }),
  'logs tail': r('logs tail --no-follow'),
  api: r('api GET /bundles/ -F per_page=2'),
  schema: r('schema BundleRequest'),
  completion: r('completion bash'),
  __complete: r('__complete -- bundle get {partial}', { process: true }),
  'help-exit-codes': r('help-exit-codes'),
  help: r('help bundle create'),
};

/** The leaf commands of the built program, by their words. */
async function leaves(): Promise<string[]> {
  const { buildProgram } = (await import(new URL('../../dist/cli.js', import.meta.url).href)) as {
    buildProgram: (v: string, io: unknown, mf: unknown, exit: unknown) => CommandUnknownOpts;
  };
  const program = buildProgram('0', captureIO(), () => undefined, { code: 0 });
  const walk = (c: CommandUnknownOpts, path: string[]): string[] =>
    c.commands.length ? c.commands.flatMap((x) => walk(x, [...path, x.name()])) : [path.join(' ')];
  return walk(program, []);
}

/** What no run may print: a crash of the program rather than a failure it reports. */
const CRASH =
  /TypeError|ReferenceError|SyntaxError:|RangeError|is not a function|is not defined|Cannot read propert|^\s+at \S.*:\d+:\d+\)?$/m;
const DOCUMENTED = new Set<number>(Object.values(EXIT));

interface Outcome {
  command: string;
  exitCode: number | undefined;
  signal?: string;
  output: string;
}

const seedLine = async (dir: string, args: string[]) => {
  const res = await esignIn([...args, '--json'], { env: { ESIGN_DATA_DIR: dir } });
  if (res.exitCode !== 0) throw new Error(`seeding ${args.join(' ')}: ${res.stderr}`);
  return JSON.parse(res.stdout) as Record<string, unknown> & { id: string };
};

/** Data every backend starts with: the ids the runs above name. */
async function seed(dir: string): Promise<Ids> {
  const signer = ['--file', fixture('contract.pdf'), '--signer', 'Ada <ada@example.com>'];
  const bundle = await seedLine(dir, ['bundle', 'create', ...signer]);
  const cancel = await seedLine(dir, ['bundle', 'create', ...signer]);
  const draft = await seedLine(dir, ['bundle', 'create', ...signer, '--draft']);
  const template = await seedLine(dir, [
    'local',
    'template',
    'import',
    fixture('contract.pdf'),
    '--name',
    'T',
    '--role',
    's:S',
  ]);
  const person = await seedLine(dir, ['person', 'create', '--name', 'Pat', '--email', 'pat@example.com']);
  const webhook = await seedLine(dir, [
    'webhook',
    'create',
    '--name',
    'w',
    '--url',
    'http://127.0.0.1:9/h',
    '--events',
    'bundle_sent',
  ]);
  const header = await seedLine(dir, ['webhook', 'headers', 'add', webhook.id, 'X-One', 'one']);
  await seedLine(dir, ['webhook', 'trigger', 'bundle_sent']);
  const events = await esignIn(['webhook', 'events', '--json'], { env: { ESIGN_DATA_DIR: dir } });
  const event = (JSON.parse(events.stdout) as { pk: string }[])[0]!.pk;
  const spareKey = await seedLine(dir, ['local', 'keys', 'create', '--name', 'spare']);
  const packets = bundle.packets as { id: string }[];
  return {
    bundle: bundle.id,
    cancel: cancel.id,
    draft: draft.id,
    packet: packets[0]!.id,
    template: template.id,
    person: person.id,
    webhook: webhook.id,
    header: String(header.id),
    event,
    spareKey: spareKey.id,
    envelope: '00000000-0000-4000-8000-000000000000',
    owner: 'Owner <owner@example.com>',
    partial: bundle.id.slice(0, 2),
  };
}

const argsOf = (run: Run, ids: Ids) =>
  run.args.map((a) => a.replace(/\{(\w+)\}/g, (_, k: string) => ids[k] ?? `{${k}}`));
const inProcess = (c: string) => !RUNS[c]!.process && !RUNS[c]!.interrupt;

/** `commands` run one after another in one process through the built bundle, with the backend's environment. */
async function runInOne(commands: string[], b: Backend, name: string): Promise<Outcome[]> {
  const runs = join(work.dir, `${name}.runs.json`);
  const out = join(work.dir, `${name}.outcomes.json`);
  writeFileSync(
    runs,
    JSON.stringify(
      commands.map((command) => ({ command, args: argsOf(RUNS[command]!, b.ids), stdin: RUNS[command]!.stdin })),
    ),
  );
  const runner = await execa('node', [join(import.meta.dirname, 'shippedRunner.mjs'), runs, out], {
    env: b.env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    all: true,
  });
  expect(runner.exitCode, runner.all).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as Outcome[];
}

async function runOne(command: string, run: Run, ids: Ids, env: Record<string, string>): Promise<Outcome> {
  const args = argsOf(run, ids);
  const child = execa('node', [BIN, ...args], {
    env,
    extendEnv: false,
    reject: false,
    input: run.stdin ?? '',
    timeout: 30_000,
    all: true,
  });
  if (run.interrupt) {
    const started = new Promise<void>((resolve) => {
      child.stdout!.once('data', () => resolve());
      setTimeout(resolve, 2_000);
    });
    await started;
    child.kill('SIGINT');
  }
  const res = await child;
  return { command, exitCode: res.exitCode, signal: res.signal ?? undefined, output: res.all ?? '' };
}

/** Runs `todo` with at most `width` at once. */
async function pool<T>(width: number, todo: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < todo.length) out.push(await todo[next++]!());
  };
  await Promise.all(Array.from({ length: width }, worker));
  return out;
}

interface Backend {
  ids: Ids;
  env: Record<string, string>;
}

/**
 * Runs every command on each backend: those in one process per backend beside those that are a
 * process each (at most 4 at once); the runs marked `last` afterwards, in one process per backend.
 */
async function runAll(backends: Backend[]): Promise<Outcome[][]> {
  const commands = await leaves();
  const first = commands.filter((c) => RUNS[c] && !RUNS[c].last);
  const after = commands.filter((c) => RUNS[c]?.last);
  const outcomes = backends.map((): Outcome[] => []);
  await Promise.all([
    ...backends.map(async (b, i) => outcomes[i]!.push(...(await runInOne(first.filter(inProcess), b, `first-${i}`)))),
    pool(
      4,
      backends.flatMap((b, i) =>
        first
          .filter((c) => !inProcess(c))
          .map((c) => async () => outcomes[i]!.push(await runOne(c, RUNS[c]!, b.ids, b.env))),
      ),
    ),
  ]);
  await Promise.all(
    backends.map(async (b, i) => {
      outcomes[i]!.push(...(await runInOne(after.filter(inProcess), b, `after-${i}`)));
      for (const c of after.filter((x) => !inProcess(x))) outcomes[i]!.push(await runOne(c, RUNS[c]!, b.ids, b.env));
    }),
  );
  return outcomes;
}

const crashes = (outcomes: Outcome[]) =>
  outcomes
    .filter((o) => (o.signal ? o.signal !== 'SIGINT' : !DOCUMENTED.has(o.exitCode ?? -1)) || CRASH.test(o.output))
    .map((o) => `${o.command}: exit ${o.exitCode}${o.signal ? ` ${o.signal}` : ''}\n${o.output}`);

const report = (outcomes: Outcome[]) =>
  process.env.MATRIX_REPORT &&
  console.log(
    outcomes
      .map((o) => `${o.exitCode} ${o.command}: ${o.output.split('\n').slice(-1)[0]}`)
      .sort()
      .join('\n'),
  );

let work: ReturnType<typeof tempDir>;
let serve: ServeProcess | undefined;
let local: Outcome[] = [];
let remote: Outcome[] = [];

const baseEnv = (home: string): Record<string, string> => ({
  ...programEnv(),
  HOME: home,
  ESIGN_CONFIG_DIR: join(home, 'config'),
  NO_COLOR: '1',
});

/** The local engine's backend: its own data directory, no profile. */
async function localBackend(files: Ids): Promise<Backend> {
  const dataDir = join(work.dir, 'local');
  const ids = { ...(await seed(dataDir)), ...files, useProfile: '--none', sandbox: 'sbx_00000000000000000000' };
  return { ids, env: { ...baseEnv(join(work.dir, 'home-local')), ESIGN_DATA_DIR: dataDir } };
}

/** A real `esign serve` on its own data directory, reached through a profile made current with `profile add --use`. */
async function remoteBackend(files: Ids): Promise<Backend> {
  const served = join(work.dir, 'served');
  const ids = { ...(await seed(served)), ...files, useProfile: 'remote' };
  const key = (await seedLine(served, ['local', 'keys', 'create', '--name', 'matrix'])).key as string;
  serve = await startServe({ ...baseEnv(join(work.dir, 'home-serve')), ESIGN_DATA_DIR: served });
  expect(serve.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const env = { ...baseEnv(join(work.dir, 'home-remote')), ESIGN_DATA_DIR: join(work.dir, 'unused') };
  const added = await execa(
    'node',
    [BIN, 'profile', 'add', 'remote', '--base-url', `${serve.address}/api/v2`, '--api-key-stdin', '--use'],
    {
      env,
      extendEnv: false,
      input: `${key}\n`,
      reject: false,
    },
  );
  expect(added.exitCode, added.stderr).toBe(0);
  const sandbox = await execa('node', [BIN, 'sandbox', 'create', '--name', 'seeded', '--json'], {
    env,
    extendEnv: false,
    reject: false,
  });
  expect(sandbox.exitCode, sandbox.stderr).toBe(0);
  return { ids: { ...ids, sandbox: (JSON.parse(sandbox.stdout) as { id: string }).id }, env };
}

beforeAll(async () => {
  work = tempDir('esign-matrix-');
  copyFileSync(fixture('bundle-spec.json'), join(work.dir, 'spec.json'));
  copyFileSync(fixture('contract.pdf'), join(work.dir, 'contract.pdf'));
  writeFileSync(join(work.dir, 'rows.csv'), 'label,custom_key\nAgreement for Ada,m-1\n');
  writeFileSync(
    join(work.dir, 'scenario.yaml'),
    'steps:\n  - call: listBundles\n  - advance: 1m\n  - outbox: {}\n    expect: { length: 0 }\n',
  );
  const files = {
    pdf: fixture('contract.pdf'),
    spec: join(work.dir, 'spec.json'),
    csv: join(work.dir, 'rows.csv'),
    dir: work.dir,
    scenario: join(work.dir, 'scenario.yaml'),
    envelopeSpec: fixture('templates/envelope-template.json'),
  };
  [local, remote] = await runAll([await localBackend(files), await remoteBackend(files)]);
  report(local);
  report(remote);
}, 600_000);

afterAll(async () => {
  await serve?.stop();
  work.cleanup();
});

describe('every command of the shipped program (bin/esign.js)', () => {
  it('has a run for every leaf command (add one to RUNS for a new command)', async () => {
    expect((await leaves()).filter((c) => !RUNS[c])).toEqual([]);
  });

  it('runs every command on the embedded engine without a crash', () => {
    expect(local.length).toBe(Object.keys(RUNS).length);
    expect(crashes(local)).toEqual([]);
  });

  it('runs every command on a real esign serve through a profile without a crash', () => {
    expect(remote.length).toBe(Object.keys(RUNS).length);
    expect(crashes(remote)).toEqual([]);
    // The crash this matrix was made for: esign api on a remote backend.
    const api = remote.find((o) => o.command === 'api')!;
    expect(api.exitCode, api.output).toBe(0);
    // Sandboxes are the server's: each verb works there (the embedded engine refuses them as a usage error).
    for (const c of ['sandbox create', 'sandbox list', 'sandbox get', 'sandbox delete', 'scenario run']) {
      const o = remote.find((x) => x.command === c)!;
      expect(o.exitCode, `${c}: ${o.output}`).toBe(0);
      expect(local.find((x) => x.command === c)!.exitCode).toBe(c === 'scenario run' ? 0 : EXIT.USAGE);
    }
  });
});

// Runs one scenario on one backend: the receiver started and registered, then each step in turn
// (its references filled from the answers so far), its answer checked, timed and kept; after the
// first step that fails, the rest are skipped (a scenario is one story). Nothing here knows which
// backend it has: what a step needs of the sandbox is asked of the port before the first step.
import { WEBHOOK_EVENT_TYPES } from '../domain/enums.js';
import { ApiError } from '../domain/errors.js';
import { operationRow } from '../service/operationTable.js';
import type { EsignService } from '../service/service.js';
import type { SandboxInfo } from '../service/types.js';
import { AssertionFailed, checkExpect } from './expect.js';
import { FIXTURE_NAMES, type Fixture } from './fixtureFormat.js';
import { MAKE } from './fixtures.js';
import { type Action, actionOf, fixtureOf, type SetupItem, type Step } from './format.js';
import type { LoadedScenario } from './load.js';
import { startReceiver } from './receiver.js';
import { interpolate, refsIn, type Scope } from './refs.js';
import { RUN, type RunContext } from './steps.js';

type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  /** Its place in `steps` (or in `setup`), from 0. */
  index: number;
  /** A setup item, not a step. */
  setup?: true;
  /** The line of the file the step starts on. */
  line?: number;
  /** The step's name, else its action and what it acts on. */
  label: string;
  action: Action | Fixture;
  status: StepStatus;
  ms: number;
  answer?: unknown;
  failure?: { message: string; expected?: unknown; actual?: unknown };
}

export interface FileResult {
  file: string;
  title: string;
  backend: string;
  status: 'passed' | 'failed';
  /** When it began to run, its backend open (ISO 8601, UTC); absent when none of it ran. */
  started_at?: string;
  ms: number;
  steps: StepResult[];
  /** Why nothing of it ran (invalid, not runnable there, the server not reachable), one line each. */
  problems?: string[];
}

/** A file none of whose steps ran, for the summary and the JUnit report all the same. */
export const notRun = (file: string, title: string, backend: string, problems: string[]): FileResult => ({
  file,
  title,
  backend,
  status: 'failed',
  ms: 0,
  steps: [],
  problems,
});

export interface ScenarioBackend {
  service: EsignService;
  /** For people: `a fresh local engine`, or the server's URL. */
  label: string;
  /** A folder of the run's own, removed by close(). */
  workDir: string;
  close(): Promise<void>;
}

/** What a step needs of the sandbox, if anything. */
const NEEDS: Partial<Record<Action | string, keyof SandboxInfo>> = {
  view: 'signer_actions',
  sign: 'signer_actions',
  decline: 'signer_actions',
  reassign: 'signer_actions',
  advance: 'clock',
  outbox: 'outbox',
  viewPacket: 'signer_actions',
  signPacket: 'signer_actions',
  declinePacket: 'signer_actions',
  reassignPacket: 'signer_actions',
  getClock: 'clock',
  advanceClock: 'clock',
  resetClock: 'clock',
  listOutbox: 'outbox',
  triggerWebhookEvent: 'webhook_tools',
  resendWebhookEvent: 'webhook_tools',
  account: 'fixtures',
  template: 'fixtures',
  envelope_template: 'fixtures',
  setupAccount: 'fixtures',
  setupTemplate: 'fixtures',
  setupEnvelopeTemplate: 'fixtures',
};

const FEATURE_WORDS: Record<keyof SandboxInfo, string> = {
  signer_actions: 'signer actions',
  clock: 'clock',
  outbox: 'outbox',
  webhook_tools: 'webhook test tools',
  request_log: 'request log',
  fixtures: 'fixtures (a sandbox of esign serve, or the local engine)',
};

/** What an unnamed step is called in a summary: its action and what it acts on (`sign ada`, `wait docs-ready`). */
function brief(step: Step): string {
  const v = (step as Record<string, unknown>)[actionOf(step)];
  if (isFixture(actionOf(step))) return fixtureBrief(v);
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (!v || typeof v !== 'object') return '';
  const o = v as Record<string, unknown>;
  const first = [o.signer, o.until, o.event, o.delivery, o.kind, o.packet].find((x) => x !== undefined);
  if (first !== undefined) return String(first);
  if (typeof o.attempts === 'number') return `${o.attempts} attempt${o.attempts === 1 ? '' : 's'}`;
  if (actionOf(step) === 'respond')
    return o.down === true
      ? 'down'
      : Array.isArray(o.statuses) && o.statuses.length
        ? o.statuses.join(' ')
        : o.delay !== undefined
          ? `slow ${String(o.delay)}`
          : 'normally';
  if (actionOf(step) === 'verify') return o.valid === false ? 'refused' : 'valid';
  if (Array.isArray(o.events)) return `${o.events.length} events`;
  return '';
}

const stepLabel = (step: Step): string => step.name ?? `${actionOf(step)} ${brief(step)}`.trim();

const isFixture = (a: string): a is Fixture => (FIXTURE_NAMES as readonly string[]).includes(a);
/** A fixture by its own name (`template NDA`); the account has none. */
const fixtureBrief = (v: unknown): string => {
  const name = (v as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : '';
};
const setupLabel = (item: SetupItem): string =>
  item.name ?? `${fixtureOf(item)} ${fixtureBrief(item[fixtureOf(item)])}`.trim();

/** The fixture operations a setup item calls, for what it needs of the sandbox. */
const FIXTURE_CALLS: Record<Fixture, string> = {
  account: 'setupAccount',
  template: 'setupTemplate',
  envelope_template: 'setupEnvelopeTemplate',
  person: 'createPerson',
  webhook: 'createWebhook',
};

/**
 * The steps a backend cannot run, named: `step 4 (sign ada): its sandbox has no signer actions`.
 * Where messages are not kept in an outbox they reach real people: a call that may send them
 * needs a test Bundle (is_test) or `live`. Empty: it can run them all.
 */
export function unrunnable(s: LoadedScenario, sandbox: SandboxInfo, live: boolean): string[] {
  const setup = (s.scenario.setup ?? []).flatMap((item, i) => {
    const need = NEEDS[FIXTURE_CALLS[fixtureOf(item)]];
    return need && !sandbox[need]
      ? [`setup ${i + 1} (${setupLabel(item)}): its sandbox has no ${FEATURE_WORDS[need]}`]
      : [];
  });
  return [...setup, ...steps(s, sandbox, live)];
}

function steps(s: LoadedScenario, sandbox: SandboxInfo, live: boolean): string[] {
  return s.scenario.steps.flatMap((step, i) => {
    const which = `step ${i + 1} (${stepLabel(step)})`;
    const need = NEEDS[step.call ?? actionOf(step)];
    if (need && !sandbox[need]) return [`${which}: its sandbox has no ${FEATURE_WORDS[need]}`];
    const isTest = (step.body as { is_test?: unknown } | undefined)?.is_test === true;
    if (step.call && operationRow(step.call)?.reachesPeople && !sandbox.outbox && !live && !isTest)
      return [`${which}: it may email or text real people there; make it a test Bundle (is_test: true) or pass --live`];
    return [];
  });
}

/** The API error a step expects: checked, then the Error object is the step's answer. */
function checkExpectedError(step: Step, e: unknown): unknown {
  const want = step.expect_error!;
  if (!(e instanceof ApiError)) throw e;
  const got = e.toWire();
  const problems = [
    want.status !== undefined && e.status !== want.status ? `status ${e.status}, not ${want.status}` : '',
    want.code !== undefined && e.code !== want.code ? `code ${e.code}, not ${want.code}` : '',
    want.field !== undefined && !e.errors.some((f) => f.field === want.field) ? `no field error for ${want.field}` : '',
    want.message !== undefined && !new RegExp(want.message).test(e.message)
      ? `a message not matching /${want.message}/`
      : '',
  ].filter(Boolean);
  if (problems.length)
    throw new AssertionFailed(`the error has ${problems.join('; ')}`, want, { status: e.status, ...got });
  return { status: e.status, ...got };
}

/** The sandbox clock's time (its wall clock where it has none), read only for a step that says `${now}`. */
async function clockFor(step: Step | SetupItem, ctx: RunContext): Promise<number | undefined> {
  if (!refsIn(step).some((r) => r.ref?.kind === 'now')) return undefined;
  ctx.clock ??= (await ctx.service.describeSandbox()).clock;
  if (!ctx.clock) return Date.now();
  return Date.parse((await ctx.service.getClock()).now);
}

async function runStep(step: Step, ctx: RunContext, scope: Scope): Promise<unknown> {
  const action = actionOf(step);
  const filled = interpolate(step, { ...scope, nowMs: await clockFor(step, ctx) });
  const value = (filled as Record<string, unknown>)[action];
  if (!filled.expect_error) {
    const answer = await RUN[action](value as never, ctx, filled);
    if (filled.expect) checkExpect(filled.expect, answer);
    return answer;
  }
  let answer: unknown;
  try {
    answer = await RUN[action](value as never, ctx, filled);
  } catch (e) {
    return checkExpectedError(filled, e);
  }
  throw new AssertionFailed('the step succeeded, but an error was expected', filled.expect_error, answer);
}

function failureOf(e: unknown): NonNullable<StepResult['failure']> & { answer?: unknown } {
  if (e instanceof AssertionFailed)
    return {
      message: e.message,
      expected: e.expected,
      actual: e.actual,
      ...(e.answer !== undefined ? { answer: e.answer } : {}),
    };
  if (e instanceof ApiError)
    return { message: `${e.status} ${e.code}: ${e.message}`, answer: { status: e.status, ...e.toWire() } };
  return { message: (e as Error)?.message ?? String(e) };
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  /** Called as each step ends (live progress). */
  onStep?: (r: StepResult) => void;
  /** The first pause of polls (waits, events); tests shorten it. */
  pollMs?: number;
}

/** Runs the scenario's steps on `backend`; never throws for a step that fails. */
export async function runScenario(s: LoadedScenario, backend: ScenarioBackend, o: RunOptions): Promise<FileResult> {
  const started = Date.now();
  const { service } = backend;
  const answers = new Map<string, unknown>();
  const scope: Scope = { env: o.env, defaults: s.scenario.env ?? {}, answers };
  let secret: string | undefined;
  const ctx: RunContext = { service, dir: s.dir, workDir: backend.workDir, keys: new Map(), pollMs: o.pollMs ?? 250 };
  const results: StepResult[] = [];
  let hook: string | undefined;
  let failed = false;
  try {
    for (const [index, item] of (s.scenario.setup ?? []).entries()) {
      const fixture = fixtureOf(item);
      const r: StepResult = {
        index,
        setup: true,
        line: s.setupLines[index],
        label: setupLabel(item),
        action: fixture,
        status: 'skipped',
        ms: 0,
      };
      results.push(r);
      if (!failed) {
        const t0 = performance.now();
        try {
          const value = interpolate(item, { ...scope, nowMs: await clockFor(item, ctx) })[fixture];
          r.answer = await MAKE[fixture](value as never, ctx);
          r.status = 'passed';
          if (item.name) answers.set(item.name, r.answer);
        } catch (e) {
          const { answer, ...failure } = failureOf(e);
          Object.assign(r, { status: 'failed', failure }, answer !== undefined ? { answer } : {});
          failed = true;
        }
        r.ms = Math.round(performance.now() - t0);
      }
      o.onStep?.(r);
    }
    if (s.scenario.receiver && !failed) {
      ctx.receiver = await startReceiver(() => secret);
      secret = (await service.getWebhookSecret()).secret;
      ctx.webhookId = hook = (
        await service.createWebhook({
          name: `esign scenario: ${s.title}`.slice(0, 80),
          url: ctx.receiver.url,
          event_types: s.scenario.receiver.events ?? [...WEBHOOK_EVENT_TYPES],
          enabled: true,
          json: true,
        })
      ).id;
    }
    for (const [index, step] of s.scenario.steps.entries()) {
      const r: StepResult = {
        index,
        line: s.lines[index],
        label: stepLabel(step),
        action: actionOf(step),
        status: 'skipped',
        ms: 0,
      };
      results.push(r);
      if (failed) {
        o.onStep?.(r);
        continue;
      }
      const t0 = performance.now();
      try {
        r.answer = await runStep(step, ctx, scope);
        r.status = 'passed';
        if (step.name) answers.set(step.name, r.answer);
      } catch (e) {
        const { answer, ...failure } = failureOf(e);
        r.status = 'failed';
        r.failure = failure;
        if (answer !== undefined) r.answer = answer;
        failed = true;
      }
      r.ms = Math.round(performance.now() - t0);
      o.onStep?.(r);
    }
  } catch (e) {
    // Setting up the receiver failed: the file fails before its first step.
    results.push({ index: -1, label: 'receiver', action: 'webhooks', status: 'failed', ms: 0, failure: failureOf(e) });
    failed = true;
  } finally {
    if (hook) await service.deleteWebhook(hook).catch(() => undefined);
    await ctx.receiver?.close();
  }
  return {
    file: s.file,
    title: s.title,
    backend: backend.label,
    status: failed ? 'failed' : 'passed',
    started_at: new Date(started).toISOString(),
    ms: Date.now() - started,
    steps: results,
  };
}

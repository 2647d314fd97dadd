// The six flows of issue 47 as a CI engineer writes them (fixtures/scenarios/flows): an NDA in
// order with reminders and ordered webhooks, a decline, field data read back, a receiver failing
// twice then succeeding, an expiry on the sandbox clock, bad input. Each passes on fresh local
// engines, side by side, and against a real `esign serve` (the built program), side by side too,
// each in a sandbox of its own; the retry flow's attempts are in the delivery log, each one.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esignIn } from '../cli/inProcess.js';
import { type ServeProcess, startServe } from '../cli/serveProcess.js';
import { fixture, useTempDir } from '../helpers.js';

const tmp = useTempDir('esign-scenario-flows-');
const DIR = fixture('scenarios/flows');
const FLOWS = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(DIR, f));
const env = () => ({ ESIGN_CONFIG_DIR: join(tmp.dir, 'config'), ESIGN_DATA_DIR: join(tmp.dir, 'unused') });

interface Report {
  passed: boolean;
  files: { file: string; status: string; steps: { action: string; status: string; answer: unknown }[] }[];
}

describe('the six flows of a CI engineer', () => {
  it('are six files of at most 30 lines each', () => {
    expect(FLOWS.map((f) => f.slice(DIR.length + 1))).toEqual([
      'bad-input.yaml',
      'data.yaml',
      'decline.yaml',
      'expiry.yaml',
      'nda.yaml',
      'retry.yaml',
    ]);
  });

  it('pass on fresh local engines, side by side', async () => {
    const r = await esignIn(['scenario', 'run', ...FLOWS, '--json', '--jobs', '3'], { env: env() });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as Report;
    expect(report.files.map((f) => [f.file, f.status])).toEqual(FLOWS.map((f) => [f, 'passed']));
    expect(r.exitCode).toBe(0);
    // The retry flow: the receiver answered 500, 503, then 200, each attempt made by a clock move.
    const retry = report.files.find((f) => f.file.endsWith('retry.yaml'))!;
    const attempts = retry.steps.at(-1)!.answer as { answered: number; planned: boolean }[];
    expect(attempts.map((a) => [a.answered, a.planned])).toEqual([
      [500, true],
      [503, true],
      [200, false],
    ]);
  }, 120_000);

  describe('against one esign serve, each file in a sandbox of its own', () => {
    let serve: ServeProcess;
    let key: string;
    beforeAll(async () => {
      const served = join(tmp.dir, 'served');
      const made = await esignIn(['local', 'keys', 'create', '--name', 'ci', '--json'], {
        env: { ESIGN_DATA_DIR: served },
      });
      key = (JSON.parse(made.stdout) as { key: string }).key;
      serve = await startServe({ ESIGN_DATA_DIR: served, NO_COLOR: '1' }, ['--allow-private-urls']);
    });
    afterAll(async () => serve?.stop());

    it('pass there too, side by side', async () => {
      const r = await esignIn(
        ['scenario', 'run', ...FLOWS, '--backend', `${serve.address}/api/v2`, '--json', '--jobs', '6'],
        {
          env: { ...env(), ESIGN_API_KEY: key },
        },
      );
      expect(r.stderr).toBe('');
      const report = JSON.parse(r.stdout) as Report;
      expect(report.files.map((f) => [f.file, f.status])).toEqual(FLOWS.map((f) => [f, 'passed']));
      expect(r.exitCode).toBe(0);
      // The server's delivery log has each attempt of the retried event.
      const retry = report.files.find((f) => f.file.endsWith('retry.yaml'))!;
      const [event] = retry.steps[6]!.answer as { event_type: string; deliveries: { status: number }[] }[];
      expect(event!.event_type).toBe('bundle_sent');
      expect(event!.deliveries.map((d) => d.status)).toEqual([500, 503, 200]);
    }, 120_000);
  });
});

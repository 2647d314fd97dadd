// esign scenario run against a remote server: the example of `scenario init` runs whole against a
// real `esign serve` (the built program, on 127.0.0.1) through a profile, the clock and outbox
// over the wire; a server without a sandbox (as the hosted service) has the steps it cannot run
// refused, named, before any request but the one question of what its sandbox offers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { esignIn } from '../cli/inProcess.js';
import { type ServeProcess, startServe } from '../cli/serveProcess.js';
import { serveEngine } from '../engineServer.js';
import { fixture, newEngine, useTempDir } from '../helpers.js';

const tmp = useTempDir('esign-scenario-remote-');

describe('a scenario against esign serve through a profile', () => {
  let serve: ServeProcess;
  let served: string;
  const env = () => ({ ESIGN_CONFIG_DIR: join(tmp.dir, 'config'), ESIGN_DATA_DIR: join(tmp.dir, 'unused') });

  beforeAll(async () => {
    served = join(tmp.dir, 'served');
    const key = await esignIn(['local', 'keys', 'create', '--name', 'ci', '--json'], {
      env: { ESIGN_DATA_DIR: served },
    });
    // A default esign serve (loopback only): the example's receiver on 127.0.0.1 needs no --allow-private-urls.
    serve = await startServe({ ESIGN_DATA_DIR: served, NO_COLOR: '1' });
    const added = await esignIn(['profile', 'add', 'dev', '--base-url', `${serve.address}/api/v2`, '--api-key-stdin'], {
      env: env(),
      input: `${(JSON.parse(key.stdout) as { key: string }).key}\n`,
    });
    expect(added.exitCode).toBe(0);
  });
  afterAll(async () => serve?.stop());

  it('runs the example whole: signers, clock, outbox and webhooks over the wire', async () => {
    const dir = join(tmp.dir, 'example');
    expect((await esignIn(['scenario', 'init', dir], { env: env() })).exitCode).toBe(0);
    // --shared: on the server's own engine, whose outbox and webhooks are read after the run.
    const r = await esignIn(['-p', 'dev', 'scenario', 'run', join(dir, 'nda.scenario.yaml'), '--shared', '--json'], {
      env: env(),
    });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const [file] = (
      JSON.parse(r.stdout) as { files: { backend: string; steps: { action: string; answer: unknown }[] }[] }
    ).files;
    expect(file!.backend).toBe(`${serve.address}/api/v2`);
    // The clock moved on the server, whose engine applied the reminder: the server's own outbox has it.
    const advanced = file!.steps.find((s) => s.action === 'advance')!.answer as { offset_ms: number; reminded: number };
    expect(advanced).toMatchObject({ offset_ms: 86_460_000, reminded: 1 });
    const outbox = await esignIn(['local', 'outbox', '--kind', 'reminder', '--json'], {
      env: { ESIGN_DATA_DIR: served },
    });
    expect((JSON.parse(outbox.stdout) as { recipient: string }[]).map((m) => m.recipient)).toEqual(['ada@example.com']);
    // The receiver's webhook was removed after the run.
    const hooks = await esignIn(['webhook', 'list', '--json'], { env: { ESIGN_DATA_DIR: served } });
    expect(JSON.parse(hooks.stdout)).toEqual([]);
  }, 90_000);

  it('runs the CI scenario there too', async () => {
    const r = await esignIn(['-p', 'dev', 'scenario', 'run', fixture('scenarios/ci-nda.yaml')], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  }, 90_000);
});

describe('a server without a sandbox, as the hosted service', () => {
  it('refuses the steps it cannot run, named, before any request but asking what it hosts (exit 17)', async () => {
    const engine = newEngine();
    const requests: string[] = [];
    // The API alone: no /sandbox/ routes, as the hosted service.
    const server = await serveEngine(engine, { local: undefined, log: (line) => requests.push(line) });
    try {
      const r = await esignIn(
        ['scenario', 'run', fixture('scenarios/ci-nda.yaml'), '--backend', `${server.origin}/api/v2`],
        { env: { ESIGN_API_KEY: server.key, ESIGN_CONFIG_DIR: join(tmp.dir, 'none') } },
      );
      expect(r.exitCode).toBe(EXIT.SCENARIO_INVALID);
      const ci = fixture('scenarios/ci-nda.yaml');
      const where = `${server.origin}/api/v2`;
      expect(r.stdout.split('\n').slice(0, 7)).toEqual([
        `FAIL ${ci}  NDA to two signers in order  (nothing of it ran)`,
        `  step 1 (nda): it may email or text real people there; make it a test Bundle (is_test: true) or pass --live (${where})`,
        `  step 2 (sign bob): its sandbox has no signer actions (${where})`,
        `  step 3 (advance 1d1m): its sandbox has no clock (${where})`,
        `  step 4 (outbox reminder): its sandbox has no outbox (${where})`,
        `  step 5 (sign ada): its sandbox has no signer actions (${where})`,
        `  step 6 (sign bob): its sandbox has no signer actions (${where})`,
      ]);
      expect(r.stderr).toBe(
        `${where} hosts no sandboxes: the files run on it as given, one after another.\nesign: 1 scenario file did not run: ${ci}.`,
      );
      await new Promise((r) => setTimeout(r, 50));
      // Whether it hosts sandboxes (no: the files run on it as given), then what its sandbox offers.
      expect(requests.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual([
        'GET /sandboxes/ 404',
        'GET /sandbox/ 404',
      ]);
      expect(readFileSync(ci, 'utf8')).toContain('signer: ada');
    } finally {
      await server.close();
      await engine.dispose();
    }
  });

  it('a key the server refuses fails every file, naming ESIGN_API_KEY, and the JUnit says so (exit 4)', async () => {
    const engine = newEngine();
    const server = await serveEngine(engine);
    try {
      const ci = fixture('scenarios/ci-nda.yaml');
      const junit = join(tmp.dir, 'bad-key.xml');
      const r = await esignIn(['scenario', 'run', ci, '--backend', `${server.origin}/api/v2`, '--junit', junit], {
        env: { ESIGN_API_KEY: 'not-a-key', ESIGN_CONFIG_DIR: join(tmp.dir, 'none') },
      });
      expect(r.exitCode).toBe(EXIT.AUTH);
      // This server hosts no sandboxes (said first), and refuses the key.
      expect(r.stderr.split('\n')[0]).toMatch(/hosts no sandboxes: the files run on it as given/);
      expect(r.stderr.split('\n')[1]).toMatch(
        /^esign: http:\/\/127\.0\.0\.1:\d+\/api\/v2 refused the API key \(401 \w+\): set ESIGN_API_KEY/,
      );
      expect(r.stdout).toMatch(/^1 file: 0 passed, 1 failed \(1 not run\)/m);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('failures="1"');
      expect(xml).toMatch(/<failure message="[^"]*ESIGN_API_KEY/);
    } finally {
      await server.close();
      await engine.dispose();
    }
  });
});

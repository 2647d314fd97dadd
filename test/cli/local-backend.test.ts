// A `local` command acts on the backend the user selected, or refuses: with a remote backend selected
// (ESIGN_BASE_URL to an esign serve), the signer actions, the clock and the outbox go through the
// server's sandbox routes, and what the server does not offer over the wire is refused with exit 2
// naming the backend; no local data directory is opened or made.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleRequest, useTempDir } from '../helpers.js';
import { type CliBackend, serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const dirs = useTempDir('esign-local-backend-');

describe('with esign serve selected (ESIGN_BASE_URL)', () => {
  let b: CliBackend;
  let clientDir: string;
  beforeAll(async () => {
    b = await serveBackend();
    clientDir = join(dirs.dir, 'client-data');
  });
  afterAll(() => b.close());
  const esign = (args: string[]) => esignIn(args, { env: { ...b.env, ESIGN_DATA_DIR: clientDir } });

  it("local view, sign and decline act on the server's Bundle through its sandbox routes", async () => {
    const bundle = await b.engine.createBundle(bundleRequest({ in_order: false }));
    const [ada, bob] = bundle.packets;
    const viewed = await esign(['local', 'view', ada.id, '--json']);
    expect(viewed.exitCode, viewed.stderr).toBe(0);
    expect(JSON.parse(viewed.stdout)).toMatchObject({ id: ada.id, status: 'st' });
    const signed = await esign(['local', 'sign', ada.id, '--json']);
    expect(signed.exitCode, signed.stderr).toBe(0);
    expect(JSON.parse(signed.stdout)).toMatchObject({ id: ada.id, status: 'co' });
    const declined = await esign(['local', 'decline', bob.id, '--reason', 'Wrong name', '--json']);
    expect(declined.exitCode, declined.stderr).toBe(0);
    expect((await b.engine.getBundle(bundle.id)).status).toBe('de');
    expect(existsSync(clientDir)).toBe(false);
  });

  it('every local administration command refuses with exit 2 naming the backend, and touches no data directory', async () => {
    for (const args of [
      ['local', 'info'],
      ['local', 'users', 'add', 'pat@example.com'],
      ['local', 'keys', 'create', '--name', 'ci'],
      ['local', 'features', 'enable', 'teams'],
      ['local', 'account', 'show'],
      ['local', 'run-due'],
    ]) {
      const r = await esign(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        `esign: This esign local command acts on the embedded engine, but the backend selected is ${b.origin}/api/v2 (ESIGN_BASE_URL): nothing was done. Unset ESIGN_BASE_URL or use a profile without a base URL to manage the local engine.`,
      );
    }
    expect(existsSync(clientDir)).toBe(false);
    expect(b.engine.account.users().map((u) => u.email)).not.toContain('pat@example.com');
    expect(b.engine.clock.offset()).toBe(0);
  });

  it("local clock and local outbox act on the server's sandbox: its clock moves, its messages are listed", async () => {
    const bundle = await b.engine.createBundle(bundleRequest());
    const shown = await esign(['local', 'outbox', '--bundle', bundle.id, '--json']);
    expect(shown.exitCode, shown.stderr).toBe(0);
    const messages = JSON.parse(shown.stdout) as { bundle_id: string; kind: string }[];
    expect(messages.length).toBe(bundle.packets.length);
    expect(messages.every((m) => m.bundle_id === bundle.id && m.kind === 'signing_request')).toBe(true);
    const moved = await esign(['local', 'clock', 'advance', '1h', '--json']);
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ offset_ms: 3_600_000, expired: 0, reminded: 0 });
    expect(b.engine.clock.offset()).toBe(3_600_000);
    const clock = await esign(['local', 'clock', '--json']);
    expect(JSON.parse(clock.stdout)).toMatchObject({ offset_ms: 3_600_000 });
    const reset = await esign(['local', 'clock', 'reset', '--json']);
    expect(JSON.parse(reset.stdout)).toMatchObject({ offset_ms: 0 });
    expect(b.engine.clock.offset()).toBe(0);
    const tooFar = await esign(['local', 'clock', 'advance', '600w']);
    expect(tooFar.exitCode).toBe(2);
    expect(existsSync(clientDir)).toBe(false);
  });
});

describe('with a server without a sandbox selected (as the hosted service)', () => {
  let b: CliBackend;
  let clientDir: string;
  beforeAll(async () => {
    b = await serveBackend({ local: undefined });
    clientDir = join(dirs.dir, 'client-data-hosted');
  });
  afterAll(() => b.close());

  it('local clock and local outbox refuse with exit 2 naming the backend, and touch nothing', async () => {
    for (const [args, part] of [
      [['local', 'clock', 'advance', '1h'], 'clock'],
      [['local', 'clock'], 'clock'],
      [['local', 'outbox', '--bundle', 'AAAAAAAAAA'], 'outbox'],
    ] as const) {
      const r = await esignIn([...args], { env: { ...b.env, ESIGN_DATA_DIR: clientDir } });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        `esign: The backend selected, ${b.origin}/api/v2 (ESIGN_BASE_URL), has no sandbox ${part}: nothing was done.`,
      );
    }
    expect(b.engine.clock.offset()).toBe(0);
    expect(existsSync(clientDir)).toBe(false);
  });
});

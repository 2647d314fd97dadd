// The running server's address in what the CLI prints: signing links, reminders recorded while it
// runs and console links name the port `esign serve --port 0` really listens on, never a default;
// a console link only while that server serves the console (an older serve.json that does not say
// is read as not serving it). Real processes from the built bundle (dist/ must be built).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, programEnv, tempDir } from '../helpers.js';
import { BIN, startServe } from './serveProcess.js';

const esign = (env: Record<string, string>, ...args: string[]) =>
  execa('node', [BIN, ...args], { env: { ...env, NO_COLOR: '1' }, reject: false });

interface Inspected {
  serving_url: string | null;
  console_url: string | null;
  links_note: string | null;
  timeline: { source: string; code: string; facts: { label: string; value: string }[] }[];
}

describe("the running server's address in messages", () => {
  it('links, reminders and the console link name the port serve listens on', async () => {
    const data = tempDir('esign-address-');
    const env = { ...programEnv(), ESIGN_DATA_DIR: data.dir, ESIGN_BASE_URL: '', ESIGN_API_KEY: '' };
    const engine = new LocalEngine({ dataDir: data.dir });
    const b = await engine.createBundle(
      bundleRequest({
        packets: [
          { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
          { key: 'bob', name: 'Bob Example', email: 'bob@example.com', deliver_via: 'embed' },
        ],
      }),
    );
    await engine.settle();
    await engine.close();
    const packet = b.packets[0]!.id;
    const embedded = b.packets[1]!.id;
    const serve = await startServe(env);
    try {
      expect(serve.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(serve.address).not.toContain(':8787');
      const state = JSON.parse(readFileSync(join(data.dir, 'serve.json'), 'utf8')) as Record<string, unknown>;
      expect(state.console).toBe(true);

      // A reminder sent by another process while the server runs records the server's link.
      const remind = await esign(env, 'packet', 'remind', packet);
      expect(remind.exitCode, remind.stderr).toBe(0);
      const outbox = JSON.parse((await esign(env, '--json', 'local', 'outbox', '--kind', 'reminder')).stdout) as {
        body: string;
      }[];
      expect(outbox).toHaveLength(1);
      expect(outbox[0]!.body).toContain(`${serve.address}/sign/`);
      expect(outbox[0]!.body).not.toContain(':8787');

      const embed = await esign(env, '--json', 'packet', 'embed-url', embedded);
      expect((JSON.parse(embed.stdout) as { url: string }).url.startsWith(`${serve.address}/sign/`)).toBe(true);
      expect(embed.stderr).not.toMatch(/No esign serve runs/);

      const x = JSON.parse((await esign(env, '--json', 'bundle', 'inspect', b.id)).stdout) as Inspected;
      expect(x.serving_url).toBe(serve.address);
      expect(x.console_url).toBe(`${serve.address}/console/bundles/${b.id}`);
      const links = x.timeline.flatMap((t) => t.facts.filter((f) => f.label === 'link').map((f) => f.value));
      // The signing request (sent before the server started, shown moved onto it) and the reminder.
      expect(links).toHaveLength(2);
      for (const l of links) expect(l.startsWith(`${serve.address}/sign/`)).toBe(true);
      // The console link opens that server's console (its sign-in, not a 404).
      const page = await fetch(x.console_url!, { redirect: 'manual' });
      expect([200, 303]).toContain(page.status);
      const terminal = await esign(env, 'bundle', 'inspect', b.id);
      expect(terminal.stderr).toContain(`In the support console: ${serve.address}/console/bundles/${b.id}`);

      // serve.json as an esign before this change wrote it (no `console` member): read safely, no console link.
      delete state.console;
      writeFileSync(join(data.dir, 'serve.json'), JSON.stringify(state), { mode: 0o600 });
      const old = JSON.parse((await esign(env, '--json', 'bundle', 'inspect', b.id)).stdout) as Inspected;
      expect(old.serving_url).toBe(serve.address);
      expect(old.console_url).toBeNull();
    } finally {
      await serve.stop();
    }

    // With --no-console: links still name the server, the console is never offered.
    const quiet = await startServe(env, ['--no-console']);
    try {
      expect(JSON.parse(readFileSync(join(data.dir, 'serve.json'), 'utf8')).console).toBe(false);
      const x = JSON.parse((await esign(env, '--json', 'bundle', 'inspect', b.id)).stdout) as Inspected;
      expect(x.serving_url).toBe(quiet.address);
      expect(x.console_url).toBeNull();
      const terminal = await esign(env, 'bundle', 'inspect', b.id);
      expect(terminal.stderr).toContain(`Links open on the running esign serve at ${quiet.address}.`);
      expect(terminal.stderr).not.toContain('console');
    } finally {
      await quiet.stop();
    }

    // None runs: a new link names no server that answers, and the CLI says so.
    const none = await esign(env, 'packet', 'embed-url', embedded);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stderr).toContain('No esign serve runs for this data directory, so this link does not open.');
    data.cleanup();
  }, 90_000);
});

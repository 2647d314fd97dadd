// The body of esign serve (declared in serve.ts): the server, its doors and the engine, until a signal.
import { join } from 'node:path';
import { stripControl } from '../../app/sanitize.js';
import { secondsArg } from '../../cli/duration.js';
import { CliError, EXIT } from '../../cli/exitCodes.js';
import { announceReady } from '../../cli/ready.js';
import { intArg } from '../../cli/run.js';
import type { Run } from '../../cli/verb.js';
import { buildServer } from '../../server/app.js';
import { API_ROOT } from '../../service/operationTable.js';
import { listensOnLoopbackOnly } from '../../local/net/addressPolicy.js';
import { serverDoors } from '../doors.js';
import type { serve } from './serve.js';

const DUE_WORK_INTERVAL_MS = 5_000;

export const run: Run<typeof serve> = async (ctx, o) => {
  const port = intArg(o.port, '--port', 0);
  if (port > 65535) throw new CliError(`--port ${port}: out of range.`, EXIT.USAGE);
  const dataDir = await ctx.dataDir();
  // Its engines' options (its own and each sandbox's): listening on loopback only, whoever calls it is
  // on this machine, so its receivers on loopback are reachable; and clients wait on the wire.
  const engines = {
    guardUrls: o.allowPrivateUrls !== true,
    loopbackUrls: listensOnLoopbackOnly(o.host),
    answersClients: true,
  };
  const engine = await ctx.local({ publicUrl: o.publicUrl, ...engines });
  const maxSandboxes = intArg(o.maxSandboxes, '--max-sandboxes', 0);
  // Log lines quote what strangers sent (paths, names): no control characters reach the terminal.
  const log = (line: string) => ctx.io.err.write(`${stripControl(line)}\n`);
  const app = await buildServer({
    service: engine,
    local: engine,
    authenticate: (key) => engine.keys.authenticate(key),
    keyIsLive: (id) => engine.keys.isLive(id),
    rateLimits: {
      limit: intArg(o.rateLimit, '--rate-limit', 1),
      createLimit: intArg(o.createRateLimit, '--create-rate-limit', 1),
      windowSeconds: secondsArg(o.rateWindow, '--rate-window', 1),
    },
    log,
    publicUrl: o.publicUrl,
    console: o.console ? { readOnly: o.consoleReadOnly === true, hosts: o.consoleHost } : undefined,
    requestLog: o.requestLog,
    doors: serverDoors,
    sandboxes: maxSandboxes
      ? {
          dir: join(dataDir, 'sandboxes'),
          openEngine: (dir) => ctx.freshEngine(dir, engines),
          limits: {
            max: maxSandboxes,
            maxTtlSeconds: secondsArg(o.sandboxMaxTtl, '--sandbox-max-ttl', 1),
            maxBytes: intArg(o.sandboxMaxMb, '--sandbox-max-mb', 1) * 1024 * 1024,
          },
        }
      : undefined,
    // MCP's batches on the journal `esign batch send` keeps for this engine.
    batches: { dir: await ctx.journalDir(), backend: await ctx.backendLabel() },
    limits: {
      requestTimeoutMs: secondsArg(o.requestTimeout, '--request-timeout', 1) * 1000,
      uploadFileBytes: intArg(o.maxUploadMb, '--max-upload-mb', 1) * 1024 * 1024,
      uploadRequestBytes: intArg(o.maxUploadMb, '--max-upload-mb', 1) * 4 * 1024 * 1024,
      connectionsPerAddress: intArg(o.connectionsPerAddress, '--connections-per-address', 1),
    },
  });
  // A deep accept queue: a burst of connections from one client must not crowd out the SYN of another.
  const address = await app.listen({ host: o.host, port, backlog: 4096 });
  engine.setPublicUrl(o.publicUrl ?? address);
  engine.announceServing(o.publicUrl ?? address, { console: o.console === true });
  if (!engine.keys.list().some((k) => !k.revoked_at))
    log('No API key yet: create one with `esign local keys create` (requests need Authorization: Token <key>).');
  log(`esign serve: API v2 at ${address}${API_ROOT}/ (data in ${dataDir})`);
  if (o.console) log(`esign serve: support console at ${address}/console/ (sign in with an API key)`);
  if (maxSandboxes) log(`esign serve: up to ${maxSandboxes} sandboxes at ${address}/sandboxes/ (esign sandbox create)`);
  // Stopping is possible from the moment readiness is said: the signals are heard first.
  const signalled = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  await engine.startWebhookDelivery();
  const due = setInterval(() => engine.runDue(), DUE_WORK_INTERVAL_MS);
  engine.runDue();
  // The first line on stdout says it is ready: the address, or with --json the whole object.
  if (!ctx.options.json) ctx.io.out.write(`${address}\n`);
  const ready = { url: address, api: `${address}${API_ROOT}`, mcp: `${address}/mcp`, data_dir: dataDir };
  const unannounce = await announceReady(
    ctx,
    { ...ready, console: o.console ? `${address}/console/` : null },
    o.readyFile,
  ).catch(async (e: unknown) => {
    clearInterval(due);
    await app.close();
    engine.stopServing();
    await engine.close();
    throw e;
  });
  log(`${await signalled}: finishing requests in flight`);
  clearInterval(due);
  await app.close().catch(() => undefined);
  engine.stopServing();
  await unannounce();
  await engine.close();
  log('esign serve: stopped');
};

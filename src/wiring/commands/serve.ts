// esign serve: the embedded engine behind the API v2 wire.
import { CliError, EXIT } from '../../cli/exitCodes.js';
import { secondsArg } from '../../cli/duration.js';
import { hostArg } from '../../cli/flags.js';
import { intArg } from '../../cli/run.js';
import { stripControl } from '../../app/sanitize.js';
import { defineVerb } from '../../cli/verb.js';
import { API_ROOT } from '../../service/operationTable.js';

const DUE_WORK_INTERVAL_MS = 5_000;

export const serve = defineVerb(
  'serve',
  'Serve the embedded engine as API v2 over HTTP (Authorization: Token <key>, see esign local keys)',
  {
    flags: (c) =>
      c
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option('--port <n>', 'port (0 picks a free one)', '8787')
        .option('--public-url <url>', 'base URL for signing and file links (default http://HOST:PORT)')
        .option('--rate-limit <n>', 'requests per key per window', '2000')
        .option('--create-rate-limit <n>', 'Bundle creations per key per window', '200')
        .option('--rate-window <seconds>', 'rate-limit window', '3600')
        .option(
          '--allow-private-urls',
          'let file_url downloads and webhook deliveries reach private and loopback addresses (local development)',
        )
        .option('--request-timeout <seconds>', 'time a client has to send a whole request', '120')
        .option('--max-upload-mb <n>', "largest uploaded file (a request's files may total 4 times this)", '50')
        .option('--connections-per-address <n>', 'open connections per client address', '32')
        .option('--no-console', 'do not serve the support console at /console/')
        .option(
          '--console-host <name>',
          "another Host name the console answers to, such as a proxy's (repeatable; its own address and --public-url always are)",
          hostArg,
        )
        .option('--console-read-only', 'a support console that can only look')
        .option('--no-request-log', 'keep no log of requests in the data directory (esign logs tail reads it)')
        .option('--ready-file <path>', 'once listening, write {"ready": true, "url": ...} there (removed on stop)'),
    examples: [
      'esign serve',
      'esign serve --port 8787 --public-url https://sign.example.com',
      'esign serve --port 0 --json --ready-file serve.json',
    ],
    async run(ctx, o) {
      const port = intArg(o.port, '--port', 0);
      if (port > 65535) throw new CliError(`--port ${port}: out of range.`, EXIT.USAGE);
      const [{ buildServer }, { serverDoors }] = await Promise.all([
        import('../../server/app.js'),
        import('../doors.js'),
      ]);
      const dataDir = await ctx.dataDir();
      const engine = await ctx.local({ publicUrl: o.publicUrl, guardUrls: o.allowPrivateUrls !== true });
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
      engine.announceServing(o.publicUrl ?? address);
      if (!engine.keys.list().some((k) => !k.revoked_at))
        log('No API key yet: create one with `esign local keys create` (requests need Authorization: Token <key>).');
      log(`esign serve: API v2 at ${address}${API_ROOT}/ (data in ${dataDir})`);
      if (o.console) log(`esign serve: support console at ${address}/console/ (sign in with an API key)`);
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
      const { announceReady } = await import('../../cli/ready.js');
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
    },
  },
);

// esign serve: the embedded engine behind the API v2 wire.
import type { Command } from 'commander';
import { CliError, EXIT } from '../exitCodes.js';
import { type Action, intArg } from '../run.js';

const DUE_WORK_INTERVAL_MS = 5_000;

export function registerServe(program: Command, action: Action): void {
  program
    .command('serve')
    .description('Serve the embedded engine as API v2 over HTTP (Authorization: Token <key>, see esign local keys)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', '8787')
    .option('--public-url <url>', 'base URL for signing and file links (default http://HOST:PORT)')
    .option('--rate-limit <n>', 'requests per key per window', '2000')
    .option('--create-rate-limit <n>', 'Bundle creations per key per window', '200')
    .option('--rate-window <seconds>', 'rate-limit window', '3600')
    .action(action(async (ctx, o: { host: string; port: string; publicUrl?: string; rateLimit: string; createRateLimit: string; rateWindow: string }) => {
      const port = intArg(o.port, '--port', 0);
      if (port > 65535) throw new CliError(`--port ${port}: out of range.`, EXIT.USAGE);
      const [{ LocalEngine }, { buildServer }] = await Promise.all([import('../../local/engine.js'), import('../../server/app.js')]);
      const dataDir = await ctx.dataDir();
      const engine = new LocalEngine({ dataDir, publicUrl: o.publicUrl, guardUrls: true });
      const log = (line: string) => ctx.io.err.write(`${line}\n`);
      const app = await buildServer({
        service: engine,
        local: engine,
        authenticate: (key) => engine.keys.authenticate(key),
        rateLimits: { limit: intArg(o.rateLimit, '--rate-limit', 1), createLimit: intArg(o.createRateLimit, '--create-rate-limit', 1), windowSeconds: intArg(o.rateWindow, '--rate-window', 1) },
        log,
      });
      const address = await app.listen({ host: o.host, port });
      engine.setPublicUrl(o.publicUrl ?? address);
      const serveState = await import('../../local/serveState.js');
      serveState.writeServeState(dataDir, o.publicUrl ?? address);
      if (!engine.keys.list().some((k) => !k.revoked_at))
        log('No API key yet: create one with `esign local keys create` (requests need Authorization: Token <key>).');
      log(`esign serve: API v2 at ${address}/api/v2/ (data in ${dataDir})`);
      ctx.io.out.write(`${address}\n`);
      await engine.startWebhookDelivery();
      const due = setInterval(() => engine.runDue(), DUE_WORK_INTERVAL_MS);
      engine.runDue();
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          log(`${signal}: finishing requests in flight`);
          clearInterval(due);
          app.close().then(() => resolve(), () => resolve());
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      serveState.removeServeState(dataDir);
      await engine.close();
      log('esign serve: stopped');
    }));
}

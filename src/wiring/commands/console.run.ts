// The body of esign console (declared in console.ts): the support console on 127.0.0.1.
import open from 'open';
import { secondsArg } from '../../cli/duration.js';
import { CliError, EXIT } from '../../cli/exitCodes.js';
import { intArg } from '../../cli/run.js';
import type { Run } from '../../cli/verb.js';
import { registerConsole } from '../../server/console/index.js';
import { newServer } from '../../server/doors.js';
import type { supportConsole } from './console.js';

export const run: Run<typeof supportConsole> = async (f, o) => {
  const port = intArg(o.port, '--port', 0);
  if (port > 65535) throw new CliError(`--port ${port}: out of range.`, EXIT.USAGE);
  const hours = intArg(o.sessionHours, '--session-hours', 1);
  const service = await f.service({ answersClients: true });
  const settings = await f.settings();
  const log = (line: string) => f.io.err.write(`${line}\n`);
  const app = newServer({ logger: false, requestTimeout: 30_000, connectionTimeout: 60_000, bodyLimit: 64 * 1024 });
  let origin = '';
  const handle = await registerConsole(app, {
    service,
    readOnly: o.readOnly === true,
    backend: settings.baseUrl ? new URL(settings.baseUrl).host : 'the local engine',
    timing: { sessionTtlMs: hours * 3_600_000 },
    live: { minPollMs: secondsArg(o.pollSeconds, '--poll-seconds', 1) * 1000 },
    // A page of another site that points a name of its own at 127.0.0.1 (DNS rebinding) is refused.
    allowedHost: (host) => host === new URL(origin).host || host === `localhost:${new URL(origin).port}`,
  });
  app.get('/', async (_req, reply) => reply.code(303).header('Location', '/console/').send());
  origin = await app.listen({ host: '127.0.0.1', port });
  const url = `${origin}${handle.signInPath()}`;
  f.io.out.write(`${origin}/console/\n`);
  log(`esign console: over ${settings.baseUrl ?? 'the local engine'}${o.readOnly ? ' (read-only)' : ''}`);
  log(`Sign in (this link works once): ${url}`);
  if (o.open) {
    await open(url).catch((e: unknown) =>
      log(`esign: could not open a browser (${(e as Error).message}); open the link above.`),
    );
  }
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`${signal}: closing the console`);
      app.close().then(
        () => resolve(),
        () => resolve(),
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
};

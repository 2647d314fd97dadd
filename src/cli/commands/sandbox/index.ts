// esign sandbox create|list|get|delete: the sandboxes of an esign serve (docs/sandboxes.md), each an
// API v2 server of its own with its own key, for a CI job or a scenario file on a shared server.
import type { Sandbox, SandboxManager } from '../../../service/sandboxes.js';
import { secondsArg } from '../../duration.js';
import type { Factory } from '../../factory.js';
import { fieldColumns, printDeleted, printList, printObject } from '../../output/print.js';
import { type Action, confirm } from '../../run.js';
import { defineVerb, type Parent, registerVerbs } from '../../verb.js';

const BACKEND = ['--backend <url>', "the server's API base URL (default: ESIGN_BASE_URL or the profile's)"] as const;

/** The sandboxes of the server named, used once and closed. */
async function withSandboxes<T>(
  f: Factory,
  backend: string | undefined,
  use: (m: SandboxManager) => Promise<T>,
): Promise<T> {
  const { manager } = await f.sandboxes(backend);
  try {
    return await use(manager);
  } finally {
    await manager.close();
  }
}

const pairs = (s: Sandbox): [string, unknown][] => [
  ['id', s.id],
  ['name', s.name],
  ['base_url', s.base_url],
  ['expires_at', s.expires_at],
  ['created_at', s.created_at],
  ['size_bytes', s.size_bytes],
  ['max_bytes', s.max_bytes],
];

/** `export NAME='value'` for a POSIX shell (single quotes, each quote closed and escaped). */
const exported = (name: string, value: string) => `export ${name}='${value.replaceAll("'", "'\\''")}'\n`;

export const create = defineVerb(
  'create',
  'Make a sandbox on the server: its own data, clock, outbox, keys and webhooks',
  {
    flags: (c) =>
      c
        .option(...BACKEND)
        .option('--name <name>', 'what it is for (shown by list)')
        .option('--ttl <duration>', "its life, after which the server deletes it (default: the server's, 1h)")
        .option(
          '--env',
          'print ESIGN_BASE_URL and ESIGN_API_KEY as shell exports (eval "$(esign sandbox create --env)")',
        ),
    examples: [
      'esign sandbox create --name ci-1234 --ttl 30m',
      'eval "$(esign sandbox create --ttl 1h --env)"',
      'esign sandbox create --backend http://127.0.0.1:8787/api/v2 --json',
    ],
    async run(f, o) {
      const ttl = o.ttl === undefined ? undefined : secondsArg(o.ttl, '--ttl', 1);
      const made = await withSandboxes(f, o.backend, (m) => m.create({ name: o.name, ttl_seconds: ttl }));
      if (o.env) {
        f.io.out.write(exported('ESIGN_BASE_URL', made.base_url) + exported('ESIGN_API_KEY', made.api_key));
        return;
      }
      if (f.options.json || f.options.quiet) return printObject(f, made, [], made.id);
      // The key is the sandbox's, shown this once: like `esign local keys create`, it goes to stdout.
      await printObject(f, made, [...pairs(made), ['api_key', made.api_key]], made.id);
    },
  },
);

export const list = defineVerb('list', "The server's sandboxes (never their keys)", {
  flags: (c) => c.option(...BACKEND),
  examples: [
    'esign sandbox list',
    'esign sandbox list --json',
    'esign sandbox list -q | xargs -n1 esign sandbox delete -y',
  ],
  async run(f, o) {
    const rows = await withSandboxes(f, o.backend, (m) => m.list());
    await printList(
      f,
      rows,
      [
        ...fieldColumns<Sandbox>(['id', 'name', 'expires_at', 'size_bytes']),
        { header: 'BASE URL', value: (s) => s.base_url },
      ],
      (s) => s.id,
    );
  },
});

export const get = defineVerb('get <id>', 'One sandbox: its base URL, life and size', {
  flags: (c) => c.option(...BACKEND),
  examples: ['esign sandbox get sbx_0123456789abcdef0123', 'esign sandbox get sbx_0123456789abcdef0123 --json'],
  async run(f, o, id) {
    const s = await withSandboxes(f, o.backend, (m) => m.get(id));
    await printObject(f, s, pairs(s), s.id);
  },
});

export const del = defineVerb('delete <id>', 'Delete a sandbox and everything in it', {
  flags: (c) => c.option(...BACKEND).option('-y, --yes', 'do not ask for confirmation'),
  examples: [
    'esign sandbox delete sbx_0123456789abcdef0123',
    'esign sandbox delete sbx_0123456789abcdef0123 --yes --backend http://127.0.0.1:8787/api/v2',
  ],
  async run(f, o, id) {
    await confirm(f, `Delete sandbox ${id} and everything in it?`, o.yes);
    await withSandboxes(f, o.backend, (m) => m.delete(id));
    printDeleted(f, 'sandbox', id);
  },
});

export function register(program: Parent, action: Action): void {
  const sandbox = program
    .command('sandbox')
    .description('Sandboxes of an esign serve: each its own API v2 server (data, clock, outbox, keys), for CI');
  registerVerbs(sandbox, action, [create, list, get, del]);
}

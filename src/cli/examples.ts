// The examples at the end of every command's help. A verb declares its own (src/cli/verb.ts); the
// table below holds those of verbs not yet declared that way, by command path. Each starts with
// `esign <path>`; a test checks every leaf command has two or three.
export const EXAMPLES: Record<string, string[]> = {
  'batch send': [
    'esign batch send rows.csv --spec nda.json --yes',
    'esign batch send offers.csv --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --results results.csv',
    'esign batch send rows.csv --spec nda.json --batch-id nda-2026-11 --yes -q',
  ],
  'batch check': [
    'esign batch check rows.csv --spec nda.json',
    'esign batch check offers.csv --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --json',
  ],
  'batch csv-template': [
    'esign batch csv-template --spec nda.json > rows.csv',
    'esign batch csv-template --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
  ],
  'batch status': ['esign batch status', 'esign batch status nda-2026-11 --json'],
  'webhook list': ['esign webhook list', 'esign webhook list --enabled --event-type bundle_complete'],
  'webhook create': [
    'esign webhook create --name crm --url https://crm.example.com/hooks/esign --events bundle_sent,bundle_complete',
    'esign webhook create --name audit --url https://audit.example.com/in --events packet_viewed --disabled',
  ],
  'webhook get': [
    'esign webhook get 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
    'esign webhook get 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --json',
  ],
  'webhook update': [
    'esign webhook update 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --disable',
    'esign webhook update 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --events bundle_complete,bundle_cancelled',
  ],
  'webhook delete': [
    'esign webhook delete 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
    'esign webhook delete 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --yes',
  ],
  'webhook headers list': [
    'esign webhook headers list',
    'esign webhook headers list --webhook 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
  ],
  'webhook headers add': [
    'esign webhook headers add 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a X-Tenant acme',
    'esign webhook headers add 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a X-Env prod --order 2',
  ],
  'webhook headers update': [
    'esign webhook headers update 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b --value beta',
    'esign webhook headers update 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b --name X-Stage --order 1',
  ],
  'webhook headers remove': [
    'esign webhook headers remove 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
    'esign webhook headers remove 4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b --yes',
  ],
  'webhook events': [
    'esign webhook events --failed',
    'esign webhook events --event-type bundle_complete --after 2025-01-01 --json',
  ],
  'webhook event': [
    'esign webhook event 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    'esign webhook event 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c --json',
  ],
  'webhook deliveries': [
    'esign webhook deliveries --event 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    'esign webhook deliveries --status 500 --limit 10',
  ],
  'webhook secret': ['esign webhook secret', 'esign webhook secret --regenerate --yes'],
  'webhook trigger': ['esign webhook trigger bundle_complete', 'esign webhook trigger bundle_sent --bundle 9KwSrpJdyp'],
  'webhook resend': [
    'esign webhook resend 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
    'esign webhook resend 6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c --json',
  ],
  'webhook verify': [
    'esign webhook verify --secret "$SECRET" --signature "$SIG" --timestamp "$TS" --payload-file body.json',
    'esign webhook verify --secret "$SECRET" --signature "$SIG" --timestamp "$TS" --payload \'{"event":"bundle_sent"}\' --tolerance 600',
  ],
  'webhook listen': [
    'esign webhook listen --port 9000',
    'esign webhook listen --forward-to http://127.0.0.1:3000/hooks --events bundle_complete --count 1',
  ],
};

const declared = new WeakMap<object, string[]>();

/** Records a command's examples, declared beside its verb. */
export function setExamples(cmd: object, list: string[]): void {
  declared.set(cmd, list);
}

interface Named {
  name(): string;
  readonly commands: readonly Named[];
  addHelpText(position: 'after', text: string): unknown;
}

function* descendants(cmd: Named, path: string[] = []): Generator<[string, Named]> {
  for (const c of cmd.commands) {
    const p = [...path, c.name()];
    yield [p.join(' '), c];
    yield* descendants(c, p);
  }
}

/** Every command's examples by command path, from its verb or the table. */
export function examplesByPath(program: Named): Record<string, string[]> {
  const all: Record<string, string[]> = {};
  for (const [path, c] of descendants(program)) {
    const list = declared.get(c) ?? EXAMPLES[path];
    if (list) all[path] = list;
  }
  return all;
}

/** Ends every command's help with its examples. */
export function addExamples(program: Named): void {
  for (const [path, c] of descendants(program)) {
    const list = declared.get(c) ?? EXAMPLES[path];
    if (list) c.addHelpText('after', examplesHelp(list));
  }
}

/** The help text that ends a command's help. */
export const examplesHelp = (list: string[]) => `\nExamples:\n${list.map((e) => `  $ ${e}`).join('\n')}\n`;

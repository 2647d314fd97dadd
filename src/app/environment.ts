// Every environment variable esign reads, and the one place that reads them: `esign help environment`
// prints VARIABLES, and the rest of the program takes its settings from environment(env).
// test/app/environment.test.ts fails when a variable named elsewhere in src is missing here.

export interface Variable {
  name: string;
  meaning: string;
}

export const VARIABLES: readonly Variable[] = [
  { name: 'ESIGN_PROFILE', meaning: 'the profile to use, as -p/--profile (see esign profile)' },
  {
    name: 'ESIGN_BASE_URL',
    meaning: "a remote API v2 server's base URL (https://.../api/v2): the remote backend, over the profile's",
  },
  { name: 'ESIGN_API_KEY', meaning: "the API key for ESIGN_BASE_URL (or for the profile's server)" },
  { name: 'ESIGN_DATA_DIR', meaning: "the embedded engine's data directory, as --data-dir" },
  { name: 'ESIGN_CONFIG_DIR', meaning: 'where profiles.json lives (default: ~/.config/esign on Linux)' },
  {
    name: 'ESIGN_DEBUG',
    meaning:
      'comma-separated: api (each request and answer on stderr, the key redacted), sql (each Bundle ' +
      "list's plan); any value also prints a failure's stack trace",
  },
  {
    name: 'ESIGN_PAGER',
    meaning: 'the pager for long lists on a terminal (then PAGER, else less; empty or cat: none)',
  },
  { name: 'ESIGN_WEBHOOK_SECRET', meaning: 'the webhook secret for esign webhook listen and esign webhook verify' },
  {
    name: 'ESIGN_CHROMIUM',
    meaning: 'the Chromium that renders HTML documents (default: chromium-headless-shell, else chromium, on PATH)',
  },
  { name: 'ESIGN_SOFFICE', meaning: 'the LibreOffice that converts office documents (default: soffice on PATH)' },
  {
    name: 'ESIGN_BWRAP',
    meaning: 'the bubblewrap that boxes the converters (default: bwrap on PATH); off: no box (docs/security.md)',
  },
  {
    name: 'ESIGN_SETPRIV',
    meaning:
      'the setpriv that drops converters to nobody when esign runs as root, and ends document checks with esign (default: on PATH)',
  },
  { name: 'ESIGN_PRLIMIT', meaning: "the prlimit that caps converters' and document checks' memory and CPU" },
  { name: 'NO_COLOR', meaning: 'any value: no colour' },
  { name: 'FORCE_COLOR', meaning: 'colour even when the output is not a terminal (0 turns it off)' },
  { name: 'PAGER', meaning: 'the pager when ESIGN_PAGER is unset' },
  { name: 'CI', meaning: 'any value: never prompt (a missing value is a usage error naming its flag)' },
];

/** The settings the environment gives, each read here and nowhere else. */
export interface Environment {
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
  dataDir?: string;
  configDir?: string;
  /** ESIGN_DEBUG's words (api, sql); `stacks` when it is set at all. */
  debug: { words: readonly string[]; stacks: boolean };
  /** The pager's command, as given: empty or `cat` means none (pagerCommand decides). */
  pager?: string;
  webhookSecret?: string;
  ci: boolean;
}

/** An empty value is no value (`ESIGN_BASE_URL= esign ...` is the embedded engine). */
const text = (value: string | undefined): string | undefined => (value?.trim() ? value : undefined);

export function environment(env: NodeJS.ProcessEnv): Environment {
  return {
    profile: text(env.ESIGN_PROFILE),
    baseUrl: text(env.ESIGN_BASE_URL),
    apiKey: text(env.ESIGN_API_KEY),
    dataDir: text(env.ESIGN_DATA_DIR),
    configDir: text(env.ESIGN_CONFIG_DIR),
    debug: {
      words: (env.ESIGN_DEBUG ?? '').split(',').map((w) => w.trim()),
      stacks: Boolean(env.ESIGN_DEBUG),
    },
    pager: env.ESIGN_PAGER ?? env.PAGER,
    webhookSecret: text(env.ESIGN_WEBHOOK_SECRET),
    ci: Boolean(env.CI),
  };
}

/** `esign help environment`: one variable a line, its meaning beside it. */
export function describeEnvironment(): string {
  const width = Math.max(...VARIABLES.map((v) => v.name.length));
  return VARIABLES.map((v) => `${v.name.padEnd(width)}  ${v.meaning}\n`).join('');
}

// Named connection profiles, kept with conf in the user's config directory (file mode 0600: it
// holds API keys). A profile with a base URL talks to that API v2 server; one without uses the
// embedded engine, optionally in its own data directory.
import { loadConf, loadEnvPaths } from '../lazyImport.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { environment } from '../app/environment.js';
import { CliError, EXIT } from './exitCodes.js';

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** Non-test Bundles may be created and sent without --live. */
  live?: boolean;
  dataDir?: string;
}

interface ProfileFile extends Record<string, unknown> {
  current?: string;
  profiles: Record<string, Profile>;
}

const CONFIG_NAME = 'profiles';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** ESIGN_CONFIG_DIR, else the user's config directory. */
export async function configDir(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = environment(env).configDir;
  if (dir) return dir;
  const { default: envPaths } = await loadEnvPaths();
  return envPaths('esign', { suffix: '' }).config;
}

/** Opens the profile store for reading and writing. */
export async function openProfiles(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
  const { default: ConfClass } = await loadConf();
  const cwd = await configDir(env);
  const damaged = (why: string) =>
    new CliError(
      `${join(cwd, `${CONFIG_NAME}.json`)} is damaged (${why}): fix or remove it, then add the profiles again.`,
      EXIT.FAILURE,
    );
  let conf: Conf<ProfileFile>;
  try {
    conf = new ConfClass<ProfileFile>({
      projectName: 'esign',
      projectSuffix: '',
      cwd,
      configName: CONFIG_NAME,
      configFileMode: 0o600,
      defaults: { profiles: {} },
      accessPropertiesByDotNotation: false,
    });
  } catch (e) {
    if ((e as Error).name === 'SyntaxError') throw damaged(`not valid JSON: ${(e as Error).message}`);
    throw e;
  }
  const profiles = conf.get('profiles');
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))
    throw damaged('"profiles" is not an object');
  return new ProfileStore(conf);
}

/**
 * The store only when its file exists: commands that merely resolve settings skip loading conf
 * (tens of milliseconds) on a machine without profiles.
 */
export async function openProfilesIfAny(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore | undefined> {
  return existsSync(join(await configDir(env), `${CONFIG_NAME}.json`)) ? openProfiles(env) : undefined;
}

export class ProfileStore {
  constructor(private readonly conf: Conf<ProfileFile>) {}

  get path(): string {
    return this.conf.path;
  }

  all(): Record<string, Profile> {
    return this.conf.get('profiles') ?? {};
  }

  has(name: string): boolean {
    return Object.hasOwn(this.all(), name);
  }

  current(): string | undefined {
    const name = this.conf.get('current');
    return name && this.has(name) ? name : undefined;
  }

  get(name: string): Profile {
    const p = this.has(name) ? this.all()[name] : undefined;
    if (!p) throw new CliError(`No profile named "${name}" (see esign profile list).`, EXIT.USAGE);
    return p;
  }

  set(name: string, profile: Profile): void {
    if (!PROFILE_NAME.test(name))
      throw new CliError(
        `Profile name "${name}": use letters, digits, ".", "_" or "-" (at most 40, starting with a letter or digit).`,
        EXIT.USAGE,
      );
    this.conf.set('profiles', { ...this.all(), [name]: profile });
  }

  /** Makes a profile current; undefined goes back to the default local engine. */
  use(name: string | undefined): void {
    if (name === undefined) {
      this.conf.delete('current');
      return;
    }
    this.get(name);
    this.conf.set('current', name);
  }

  remove(name: string): void {
    this.get(name);
    const { [name]: _gone, ...rest } = this.all();
    this.conf.set('profiles', rest);
    if (this.conf.get('current') === name) this.conf.delete('current');
  }
}

/** `esk_…wxyz`: enough to tell keys apart, never the key. */
export function redactKey(key: string | undefined): string {
  if (!key) return '';
  return key.length <= 8 ? '…' : `${key.slice(0, 4)}…${key.slice(-4)}`;
}

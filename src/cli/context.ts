// What every command gets: global options, the service (created on first use), output settings.
import type { Command } from 'commander';
import type { LocalEngine } from '../local/engine.js';
import type { EsignService } from '../service/service.js';
import type { OutputOptions } from './output.js';

export interface GlobalOptions extends OutputOptions {
  dataDir?: string;
  yes?: boolean;
}

export class Context {
  private engine: LocalEngine | undefined;
  private remote: EsignService | undefined;
  constructor(readonly options: GlobalOptions) {}

  static from(cmd: Command): Context {
    return new Context(cmd.optsWithGlobals() as GlobalOptions);
  }

  /** Flag beats environment beats the user's data directory. */
  async dataDir(): Promise<string> {
    if (this.options.dataDir) return this.options.dataDir;
    if (process.env.ESIGN_DATA_DIR) return process.env.ESIGN_DATA_DIR;
    const { default: envPaths } = await import('env-paths');
    return envPaths('esign', { suffix: '' }).data;
  }

  /**
   * The backend every command talks to: a remote API v2 server when ESIGN_BASE_URL is set,
   * otherwise the embedded local engine.
   */
  async service(): Promise<EsignService> {
    const baseUrl = process.env.ESIGN_BASE_URL;
    if (!baseUrl) return this.local();
    if (!this.remote) {
      const { RemoteService } = await import('../remote/remote.js');
      this.remote = new RemoteService({
        baseUrl,
        apiKey: process.env.ESIGN_API_KEY,
        note: (line) => process.stderr.write(`${line}\n`),
        debug: (process.env.ESIGN_DEBUG ?? '').split(',').includes('api'),
      });
    }
    return this.remote;
  }

  /** The embedded engine itself, for `esign local ...` administration. */
  async local(): Promise<LocalEngine> {
    if (!this.engine) {
      const { LocalEngine } = await import('../local/engine.js');
      this.engine = new LocalEngine({ dataDir: await this.dataDir() });
    }
    return this.engine;
  }

  async close(): Promise<void> {
    await this.engine?.close();
    await this.remote?.close();
  }
}

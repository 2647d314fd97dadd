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

  /** The backend every command talks to: the embedded local engine by default. */
  async service(): Promise<EsignService> {
    return this.local();
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
  }
}

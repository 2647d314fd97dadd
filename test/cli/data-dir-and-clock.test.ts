// Small but real: a data directory that cannot be one is refused at once and nothing is touched;
// a reminder sent on a clock moved forward blocks nothing once the clock is reset.
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, useTempDir } from '../helpers.js';
import { serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';
import { BIN } from './serveProcess.js';

const data = useTempDir('esign-datadir-');

describe('--data-dir that cannot be a directory', () => {
  it('naming a regular file: a usage error, and the file keeps its mode and bytes', async () => {
    const file = join(data.dir, 'notes.txt');
    writeFileSync(file, 'keep me\n');
    chmodSync(file, 0o644);
    const r = await esignIn(['bundle', 'list', '--data-dir', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      `esign: Data directory ${file}: a file is in the way (it, or a folder above it, is not a directory); nothing was changed.`,
    );
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
    const below = await esignIn(['bundle', 'list', '--data-dir', join(file, 'sub')]);
    expect(below.exitCode).toBe(2);
  });

  it('a path that cannot be made fails at once instead of spinning (under /proc)', async () => {
    // A spin never ends: the command's own end (not killed by the 20 s bound) is the property.
    const r = await execa('node', [BIN, 'bundle', 'list', '--data-dir', '/proc/1/no-such/esign'], {
      reject: false,
      timeout: 20_000,
    });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^esign: Data directory \/proc\/1\/no-such\/esign cannot be made: /);
  });
});

describe("--data-dir that is not esign's", () => {
  const foreign = () => {
    const dir = join(data.dir, `photos-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'holiday.jpg'), 'jpeg');
    mkdirSync(join(dir, 'album'));
    return dir;
  };
  const unchanged = (dir: string) => {
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(readdirSync(dir).sort()).toEqual(['album', 'holiday.jpg']);
  };

  it('an existing directory of other files: a usage error naming it, the directory left as it was', async () => {
    const dir = foreign();
    for (const args of [
      ['bundle', 'list', '--data-dir', dir],
      ['local', 'info'],
      ['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Ada <ada@example.com>'],
    ]) {
      const r = await esignIn(args, { env: { ESIGN_DATA_DIR: dir } });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(
        `esign: Data directory ${dir} is not esign's: it holds other files (album, holiday.jpg) and no esign database; nothing was changed. Give a new or empty directory, or one that holds an esign database.`,
      );
      unchanged(dir);
    }
  });

  it('a remote backend writes no batch journal into it either', async () => {
    const dir = foreign();
    const remote = await serveBackend();
    try {
      const csv = join(data.dir, 'one-row.csv');
      writeFileSync(csv, 'email\nada@example.com\n');
      const spec = join(data.dir, 'one-row.json');
      writeFileSync(
        spec,
        JSON.stringify({
          is_test: true,
          packets: [{ name: 'Ada', email: '{{email}}' }],
          documents: [{ file_path: fixture('contract.pdf') }],
        }),
      );
      const r = await esignIn(['batch', 'send', csv, '--spec', spec, '--yes'], {
        env: { ...remote.env, ESIGN_DATA_DIR: dir },
      });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(`Data directory ${dir} is not esign's`);
      unchanged(dir);
    } finally {
      await remote.close();
    }
  });

  it('a new directory, an empty one and an esign one are used', async () => {
    const fresh = join(data.dir, 'fresh', 'esign');
    const empty = join(data.dir, 'empty');
    mkdirSync(empty);
    for (const dir of [fresh, empty, fresh]) {
      const r = await esignIn(['bundle', 'list', '-q'], { env: { ESIGN_DATA_DIR: dir } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(existsSync(join(dir, 'esign.db'))).toBe(true);
    }
  });
});

describe('the engine clock', () => {
  it('after local clock reset, a reminder sent in the moved future does not block the next', async () => {
    const env = { ESIGN_DATA_DIR: join(data.dir, 'clock') };
    const b = JSON.parse(
      (
        await esignIn(
          ['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Ada <ada@example.com>', '--json'],
          { env },
        )
      ).stdout,
    );
    const packet = b.packets[0].id as string;
    // Three days on, the automatic reminder goes out, stamped in what is the future once reset.
    expect((await esignIn(['local', 'clock', 'advance', '3d'], { env })).exitCode).toBe(0);
    const ahead = await esignIn(['packet', 'remind', packet], { env });
    expect(ahead.stderr).toMatch(/once per hour/);
    expect((await esignIn(['local', 'clock', 'reset'], { env })).exitCode).toBe(0);
    const now = await esignIn(['packet', 'remind', packet], { env });
    expect(now.exitCode, now.stderr).toBe(0);
    // ...while the once-an-hour rule still holds for one sent just now.
    expect((await esignIn(['packet', 'remind', packet], { env })).exitCode).toBe(3);
  });
});

// .ci/run installs what the tests drive for real and this machine lacks (.ci/needs says which), each
// office component on its own: a machine with Writer but not Calc gets Calc (it used to install the
// suite only when soffice was missing, so the .xlsx test failed there instead).
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';

const needs = join(import.meta.dirname, '..', '..', '.ci', 'needs');
const bin = tempDir('esign-ci-needs-');
afterAll(() => bin.cleanup());

const run = (path: string) =>
  execFileSync('/bin/bash', [needs], { env: { PATH: path }, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

describe('.ci/needs', () => {
  it('names nothing on this machine, which has every package the tests drive', () => {
    expect(run(process.env.PATH ?? '/usr/bin:/bin')).toEqual([]);
  });

  it('names each office component that is missing, and chromium, its headless shell, tmux, bubblewrap, unzip and poppler-utils when they are', () => {
    // dpkg as a machine with only Writer (the GUI build) would answer; none of the programs on PATH.
    const dpkg = join(bin.dir, 'dpkg-query');
    writeFileSync(
      dpkg,
      '#!/bin/sh\nfor a; do p=$a; done\n[ "$p" = libreoffice-writer ] && printf "install ok installed" && exit 0\nprintf "unknown ok not-installed"\n',
    );
    chmodSync(dpkg, 0o755);
    for (const tool of ['grep', 'sh']) execFileSync('ln', ['-sf', `/bin/${tool}`, join(bin.dir, tool)]);
    expect(run(bin.dir)).toEqual([
      'chromium',
      'chromium-headless-shell',
      'tmux',
      'bubblewrap',
      'unzip',
      'poppler-utils',
      'libreoffice-calc-nogui',
      'libreoffice-impress-nogui',
    ]);
  });
});

// A scenario file that sets up what it needs (its setup section: the account, a Document Template
// from a PDF, an Envelope Template, a Person, a webhook; and a template as a step), run by the built
// program (bin/esign.js) on a fresh local engine and against a real `esign serve`, in a sandbox of
// its own: the same file passes on both and nothing of it reaches the server's own account. A
// fixture the backend refuses fails the file at its setup item (`setup 2`, file:line), its steps
// skipped; on the server's own account (--shared) the file is not run, saying why.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { esignIn } from '../cli/inProcess.js';
import { BIN, type ServeProcess, startServe } from '../cli/serveProcess.js';
import { fixture, programEnv, useTempDir } from '../helpers.js';
import { raw } from '../rawHttp.js';

const tmp = useTempDir('esign-scenario-setup-');

const SETUP = `name: Set up by the file
setup:
  - name: acct
    account:
      features: { early_data: true, teams: true }
      users: [{ email: qa@example.com, name: QA }]
      teams: [{ name: Legal }]
  - name: nda
    template:
      name: NDA
      file: nda.pdf
      roles: [{ key: signer, label: Signer }]
      fields:
        - { key: title, kind: inp, page: 1, x: 72, y: 560, w: 200, h: 24, editor_roles: [signer], data_flow_tag: job_title }
  - name: onboarding
    envelope_template:
      name: Onboarding
      signers: [{ key: signer }]
      documents: [{ key: nda, template_id: "\${nda.id}" }, { key: rules, file: nda.pdf }]
  - person: { name: Ada Lovelace, channels: [{ email: ada@example.com, kind: em }] }
  - webhook: { name: audit, url: "https://audit.example.com/hook", event_types: [bundle_sent], enabled: false }
steps:
  - name: hired
    call: createBundleFromEnvelopeTemplate
    body:
      envelope_template: { template_id: "\${onboarding.id}" }
      packets: [{ key: signer, name: QA, email: qa@example.com }]
      tag_values: { job_title: Engineer }
      team: "\${acct.teams[0].id}"
      is_test: true
  - call: getBundleData
    params: { slug: "\${hired.id}" }
    expect: { "": { contains: { field_key: title, value: Engineer } } }
  - call: listPersons
    expect: { items: { length: 1 }, "items[0].name": Ada Lovelace }
  - call: listWebhooks
    expect: { "items[*].name": [audit] }
  - template: { name: Second, file: nda.pdf, roles: [{ key: signer }] }
  - call: listTemplates
    expect: { "items[*].name": { contains: Second }, items: { length: 2 } }
  - account: { features: { early_data: false } }
    expect: { features: { not: { contains: early_data } } }
  - call: getBundleData
    params: { slug: "\${hired.id}" }
    expect_error: { status: 409 }
`;

const REFUSED = `name: A fixture refused
setup:
  - account: { features: { teams: true } }
  - name: bad
    template: { name: Bad, file: nda.pdf, roles: [{ key: signer }], fields: [{ kind: sig, page: 9, x: 1, y: 1, w: 9, h: 9 }] }
steps:
  - call: listTemplates
`;

interface Report {
  passed: boolean;
  files: {
    status: string;
    problems?: string[];
    steps: {
      index: number;
      setup?: true;
      action: string;
      status: string;
      line?: number;
      failure?: { message: string };
    }[];
  }[];
}

const run = (args: string[], env: Record<string, string>) =>
  execa('node', [BIN, 'scenario', 'run', ...args, '--json'], { env, extendEnv: false, reject: false });

describe('a scenario file with a setup section, run by the built program', () => {
  let serve: ServeProcess;
  let key: string;
  let served: string;
  const files = { setup: '', refused: '' };
  const env = (more: Record<string, string> = {}) => ({
    ...programEnv(),
    ESIGN_CONFIG_DIR: join(tmp.dir, 'config'),
    ESIGN_DATA_DIR: join(tmp.dir, 'unused'),
    ...more,
  });

  beforeAll(async () => {
    copyFileSync(fixture('nda.pdf'), join(tmp.dir, 'nda.pdf'));
    files.setup = join(tmp.dir, 'setup.yaml');
    files.refused = join(tmp.dir, 'refused.yaml');
    writeFileSync(files.setup, SETUP);
    writeFileSync(files.refused, REFUSED);
    served = join(tmp.dir, 'served');
    const made = await esignIn(['local', 'keys', 'create', '--name', 'ci', '--json'], {
      env: { ESIGN_DATA_DIR: served },
    });
    key = (JSON.parse(made.stdout) as { key: string }).key;
    serve = await startServe({ ESIGN_DATA_DIR: served, NO_COLOR: '1' }, ['--allow-private-urls']);
  }, 60_000);
  afterAll(async () => serve?.stop());

  it('passes on a fresh local engine', async () => {
    const r = await run([files.setup], env());
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as Report;
    const [file] = report.files;
    expect(file!.steps.filter((s) => s.setup).map((s) => [s.action, s.status])).toEqual([
      ['account', 'passed'],
      ['template', 'passed'],
      ['envelope_template', 'passed'],
      ['person', 'passed'],
      ['webhook', 'passed'],
    ]);
    expect(file!.status, JSON.stringify(file!.steps.find((s) => s.failure))).toBe('passed');
    expect(r.exitCode).toBe(0);
  }, 120_000);

  it("passes against esign serve in a sandbox of its own, leaving the server's account as it was", async () => {
    const r = await run([files.setup, '--backend', `${serve.address}/api/v2`], env({ ESIGN_API_KEY: key }));
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as Report;
    expect(report.files[0]!.status, JSON.stringify(report.files[0]!.steps.find((s) => s.failure))).toBe('passed');
    expect(r.exitCode).toBe(0);
    const own = async (path: string) => (await raw(serve.address, path, { key })).json();
    expect(await own('/api/v2/templates/')).toEqual([]);
    expect(await own('/api/v2/persons/')).toEqual([]);
    expect(await own('/api/v2/webhooks/')).toEqual([]);
    expect(((await own('/sandbox/account/')) as { features: string[] }).features).toEqual(['reminders']);
    expect(await own('/sandboxes/')).toEqual([]);
  }, 120_000);

  it('fails at the setup item the backend refuses, naming it and its line, its steps skipped', async () => {
    for (const more of [[], ['--backend', `${serve.address}/api/v2`]]) {
      const r = await run([files.refused, ...more], env({ ESIGN_API_KEY: key }));
      expect(r.exitCode, r.stderr).toBe(EXIT.SCENARIO_FAILED);
      const [file] = (JSON.parse(r.stdout) as Report).files;
      expect(file!.steps.map((s) => [s.setup ? `setup ${s.index + 1}` : `${s.index + 1}`, s.status])).toEqual([
        ['setup 1', 'passed'],
        ['setup 2', 'failed'],
        ['1', 'skipped'],
      ]);
      const failed = file!.steps[1]!;
      expect(failed.line).toBe(4);
      expect(failed.failure!.message).toMatch(/^400 invalid: .*fields\[0\]\.page.*past the end/);
    }
    // Read by people: the summary numbers it as check does.
    const human = await execa('node', [BIN, 'scenario', 'run', files.refused], {
      env: env(),
      extendEnv: false,
      reject: false,
    });
    expect(human.stdout).toMatch(/^ {2}FAIL setup 2\. bad +template/m);
    expect(human.stdout).toContain(`at:       ${files.refused}:4`);
  }, 120_000);

  it("is not run on the server's own account (--shared), saying which item needs a sandbox", async () => {
    const r = await run(
      [files.refused, '--backend', `${serve.address}/api/v2`, '--shared'],
      env({ ESIGN_API_KEY: key }),
    );
    const [file] = (JSON.parse(r.stdout) as Report).files;
    expect(file!.status).toBe('failed');
    expect(file!.problems).toEqual([
      expect.stringMatching(/^setup 1 \(account\): its sandbox has no fixtures/),
      expect.stringMatching(/^setup 2 \(bad\): its sandbox has no fixtures/),
    ]);
    expect(r.exitCode).not.toBe(0);
  }, 60_000);
});

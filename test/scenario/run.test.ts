// esign scenario run, as a CI job runs it: the NDA scenario of the issue (two signers in order, a
// reminder after a clock move, the webhooks, the signed files downloaded and verified, a tampered
// copy refused) in at most 40 lines, on a fresh local engine, with JUnit XML read by a strict XML
// parser; a broken assertion fails with its step named, expected, actual and the step's answer; an
// invalid file runs nothing; several files run side by side.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exitCodes.js';
import { esignIn } from '../cli/inProcess.js';
import { fixture, useTempDir } from '../helpers.js';
import { childrenNamed, parseXml } from './xmlTree.js';

const CI = fixture('scenarios/ci-nda.yaml');
const tmp = useTempDir('esign-scenario-run-');
/** No profile, no data directory of the user's: whatever the machine has set. */
const env = () => ({ ESIGN_CONFIG_DIR: join(tmp.dir, 'config'), ESIGN_DATA_DIR: join(tmp.dir, 'never-used') });

/** The CI scenario, changed by `edit`, written beside the test's files (its PDF named by full path). */
function variant(name: string, edit: (text: string) => string): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, edit(readFileSync(CI, 'utf8').replace('../nda.pdf', fixture('nda.pdf'))));
  return file;
}

describe('esign scenario run', () => {
  it('runs the CI scenario (at most 40 lines) on a fresh local engine and writes JUnit XML', async () => {
    expect(readFileSync(CI, 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(40);
    const junit = join(tmp.dir, 'junit.xml');
    const r = await esignIn(['scenario', 'run', CI, '--junit', junit], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^PASS .*ci-nda\.yaml {2}NDA to two signers in order {2}\(a fresh local engine, [\d.]+ s\)$/m,
    );
    expect(r.stdout).toMatch(/^ {2}ok {3}2\. {2}sign bob +sign +\d+ ms$/m);
    expect(r.stdout).toMatch(/^1 file: 1 passed, 0 failed; 13 steps: 13 passed, 0 failed, 0 skipped/m);

    const suites = parseXml(readFileSync(junit, 'utf8'));
    expect(suites.name).toBe('testsuites');
    expect(suites.attributes).toMatchObject({ tests: '13', failures: '0', errors: '0', skipped: '0' });
    const [suite] = childrenNamed(suites, 'testsuite');
    expect(suite!.attributes).toMatchObject({
      name: 'NDA to two signers in order',
      tests: '13',
      failures: '0',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    const cases = childrenNamed(suite!, 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual([
      '1. nda',
      '2. sign bob',
      '3. advance 1d1m',
      '4. outbox reminder',
      '5. sign ada',
      '6. sign bob',
      '7. wait docs-ready',
      '8. webhooks 5 events',
      '9. events',
      '10. files',
      '11. verify valid',
      '12. forged',
      '13. verify refused',
    ]);
    for (const c of cases) {
      expect(Number(c.attributes.time)).toBeGreaterThanOrEqual(0);
      expect(c.children).toEqual([]);
    }
  }, 60_000);

  it('fails on a broken assertion, naming the step, with expected, actual and its answer (exit 16)', async () => {
    const broken = variant('broken.yaml', (t) =>
      t.replace('expect: { "[*].recipient": [ada@example.com] }', 'expect: { "[*].recipient": [bob@example.com] }'),
    );
    const junit = join(tmp.dir, 'broken.xml');
    const r = await esignIn(['scenario', 'run', broken, '--junit', junit], { env: env() });
    expect(r.exitCode).toBe(EXIT.SCENARIO_FAILED);
    expect(r.stderr).toBe(`esign: 1 of 1 scenario failed: ${broken}:19 (outbox reminder).`);
    const lines = r.stdout.split('\n');
    const at = lines.findIndex((l) => /^ {2}FAIL 4\. {2}outbox reminder/.test(l));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(
      '         error:    [*].recipient: [0]: expected "bob@example.com", got "ada@example.com"',
    );
    expect(lines[at + 2]).toBe(`         at:       ${broken}:19`);
    expect(lines[at + 3]).toBe('         expected: ["bob@example.com"]');
    expect(lines[at + 4]).toBe('         actual:   ["ada@example.com"]');
    expect(lines[at + 5]).toMatch(
      /^ {9}answer: {3}\[\{"id":\d+,"created":"[^"]+","channel":"email","kind":"reminder","recipient":"ada@example.com"/,
    );
    expect(lines[at + 6]).toMatch(/^ {2}skip 5\. {2}sign ada +sign$/);
    expect(r.stdout).toMatch(/^FAIL /m);

    const suite = childrenNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite')[0]!;
    expect(suite.attributes).toMatchObject({ tests: '13', failures: '1', skipped: '9' });
    const cases = childrenNamed(suite, 'testcase');
    expect(cases[3]!.attributes).toMatchObject({ file: broken, line: '19' });
    const [failure] = childrenNamed(cases[3]!, 'failure');
    expect(failure!.attributes.message).toBe('[*].recipient: [0]: expected "bob@example.com", got "ada@example.com"');
    expect(failure!.text).toContain('expected: ["bob@example.com"]');
    expect(cases.slice(4).every((c) => childrenNamed(c, 'skipped').length === 1)).toBe(true);
    expect(cases.slice(0, 3).every((c) => c.children.length === 0)).toBe(true);
  }, 60_000);

  it("checks each webhook's signature: deliveries signed with another secret fail the step", async () => {
    const file = join(tmp.dir, 'forged.yaml');
    writeFileSync(
      file,
      `receiver: { events: [bundle_sent] }
steps:
  - call: regenerateWebhookSecret
  - name: nda
    call: createBundle
    body:
      label: After the secret changed
      packets: [{ key: ada, name: Ada, email: ada@example.com }]
      documents: [{ key: nda, file_path: ${fixture('nda.pdf')} }]
  - webhooks: { bundle: "\${nda.id}", events: [bundle_sent] }
`,
    );
    const r = await esignIn(['scenario', 'run', file], { env: env() });
    expect(r.exitCode).toBe(EXIT.SCENARIO_FAILED);
    expect(r.stdout).toMatch(/^ {9}error: {4}1 delivery failed the signature check \(bad_signature\)$/m);
  }, 60_000);

  it('fails an invalid file with its problems while the valid ones run: summary, --json and JUnit (exit 17)', async () => {
    const bad = variant('bad.yaml', (t) => t.replace('signer: ada }', 'signer: ada, values: 3 }'));
    const junit = join(tmp.dir, 'invalid.xml');
    const r = await esignIn(['scenario', 'run', CI, bad, '--junit', junit], { env: env() });
    expect(r.exitCode).toBe(EXIT.SCENARIO_INVALID);
    expect(r.stderr).toBe(`esign: 1 scenario file did not run: ${bad}; the others ran.`);
    expect(r.stdout).toMatch(/^PASS .*ci-nda\.yaml {2}NDA to two signers in order/m);
    expect(r.stdout).toContain(`FAIL ${bad}  bad.yaml  (nothing of it ran)\n  ${bad}:21:55 step 5.sign.values: `);
    expect(r.stdout).toMatch(/^2 files: 1 passed, 1 failed \(1 not run\); 13 steps: 13 passed/m);
    const suites = childrenNamed(parseXml(readFileSync(junit, 'utf8')), 'testsuite');
    expect(suites.map((s) => [s.attributes.file, s.attributes.tests, s.attributes.failures])).toEqual([
      [CI, '13', '0'],
      [bad, '1', '1'],
    ]);
    const [notRun] = childrenNamed(suites[1]!, 'testcase');
    expect(childrenNamed(notRun!, 'failure')[0]!.attributes.message).toMatch(/:21:55 step 5\.sign\.values: /);

    const json = await esignIn(['scenario', 'run', bad, '--json'], { env: env() });
    expect(json.exitCode).toBe(EXIT.SCENARIO_INVALID);
    expect(JSON.parse(json.stdout)).toMatchObject({
      passed: false,
      files: [{ file: bad, status: 'failed', steps: [], problems: [expect.stringMatching(/expected record/)] }],
    });
  }, 60_000);

  it('runs several files side by side, each on its own engine, and reports each with --json', async () => {
    const second = variant('second.yaml', (t) => t.replace('name: NDA to two signers in order', 'name: Second'));
    const r = await esignIn(['scenario', 'run', CI, second, '--json', '--jobs', '2'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as {
      passed: boolean;
      ms: number;
      files: {
        file: string;
        title: string;
        status: string;
        started_at: string;
        ms: number;
        steps: { status: string; answer: unknown }[];
      }[];
    };
    expect(report.passed).toBe(true);
    expect(report.files.map((f) => [f.file, f.title, f.status])).toEqual([
      [CI, 'NDA to two signers in order', 'passed'],
      [second, 'Second', 'passed'],
    ]);
    // Side by side: each file started before the other ended (an order of events, not a duration).
    const [a, b] = report.files.map((f) => ({ start: Date.parse(f.started_at), end: Date.parse(f.started_at) + f.ms }));
    expect(a!.start).toBeLessThan(b!.end);
    expect(b!.start).toBeLessThan(a!.end);
    // Each had its own engine: both created their first Bundle from nothing, with different ids.
    const ids = report.files.map((f) => (f.steps[0]!.answer as { id: string }).id);
    expect(new Set(ids).size).toBe(2);
  }, 90_000);
});

describe('a receiver that misbehaves on purpose', () => {
  it('is down, then slow: the server logs the refused attempt, a clock move makes the retry, nothing more arrives', async () => {
    const file = join(tmp.dir, 'down.yaml');
    writeFileSync(
      file,
      `receiver: { events: [bundle_sent] }
steps:
  - respond: { down: true }
  - name: nda
    call: createBundle
    body:
      label: Down
      packets: [{ name: Ada, email: ada@example.com }]
      documents: [{ key: nda, file_path: ${fixture('nda.pdf')} }]
  - wait: { delivery: retrying, bundle: "\${nda.id}" }
    expect: { "[0].deliveries[0].message": { matches: "refused" } }
  - webhooks: { count: 0, quiet: 500ms }
  - respond: { delay: 300ms }
  - advance: 4m
    expect: { webhooks_delivered: 1, webhooks_failed: 0 }
  - webhooks: { bundle: "\${nda.id}", events: [bundle_sent], quiet: 500ms }
  - wait: { attempts: 1, event_type: bundle_sent }
    expect: { "[*].answered": [200], "[*].planned": [false] }
`,
    );
    const r = await esignIn(['scenario', 'run', file], { env: env() });
    expect(r.stdout).toMatch(/^ {2}ok {3}1\. respond down +respond/m);
    expect(r.stdout).toMatch(/^ {2}ok {3}5\. respond slow 300ms +respond/m);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  }, 60_000);
});

describe('esign scenario run refuses what it would ignore', () => {
  it('--data-dir is a usage error naming it, not silently ignored', async () => {
    const r = await esignIn(['--data-dir', join(tmp.dir, 'mine'), 'scenario', 'run', CI], { env: env() });
    expect(r.exitCode).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(/^esign: --data-dir: scenario run uses a fresh engine per file/);
  });

  it('esign scenario ops lists every operation by the name call takes', async () => {
    const r = await esignIn(['scenario', 'ops'], { env: env() });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^getBundleData\tGET\t\/bundles\/\{slug\}\/data\/\t/m);
    expect(r.stdout).toMatch(/^createBundle\tPOST\t\/bundles\/\t/m);
  });
});

describe('esign scenario check and init', () => {
  it('checks files without running them', async () => {
    const ok = await esignIn(['scenario', 'check', CI], { env: env() });
    expect(ok).toMatchObject({ exitCode: 0, stdout: `ok ${CI} (13 steps)`, stderr: '' });
    const bad = variant('ref.yaml', (t) => t.replace('"${nda.id}", signer: bob }', '"${nad.id}", signer: bob }'));
    const r = await esignIn(['scenario', 'check', bad], { env: env() });
    expect(r.exitCode).toBe(EXIT.SCENARIO_INVALID);
    expect(r.stderr.split('\n')).toEqual([
      `${bad}:16:5 step 2: \${nad.id}: no step named nad comes before this one.`,
      `esign: 1 scenario file invalid: ${bad}.`,
    ]);
  });

  it("writes the commented example, which passes on a fresh engine, and won't overwrite it", async () => {
    const dir = join(tmp.dir, 'example');
    const init = await esignIn(['scenario', 'init', dir], { env: env() });
    expect(init.exitCode).toBe(0);
    expect(init.stdout.split('\n')).toEqual([
      join(dir, 'nda.scenario.yaml'),
      join(dir, 'nda.pdf'),
      join(dir, 'scenario.schema.json'),
    ]);
    const text = readFileSync(join(dir, 'nda.scenario.yaml'), 'utf8');
    expect(text.match(/^\s*#/gm)!.length).toBeGreaterThan(10);
    const r = await esignIn(['scenario', 'run', join(dir, 'nda.scenario.yaml')], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const again = await esignIn(['scenario', 'init', dir], { env: env() });
    expect(again).toMatchObject({
      exitCode: EXIT.USAGE,
      stderr: `esign: ${join(dir, 'nda.scenario.yaml')} exists; pass --force to replace it.`,
    });
  }, 60_000);
});

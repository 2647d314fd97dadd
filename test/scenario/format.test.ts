// The scenario format: a file is checked against its schema and as a whole before anything runs,
// and every problem names its place (file:line:column and the path in the file). The published
// JSON Schema is the program's (regenerated, compared) and an editor's validator agrees with it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EXAMPLE, EXAMPLE_PDF, examplePdf } from '../../src/scenario/example.js';
import { scenarioJsonSchema } from '../../src/scenario/format.js';
import { loadScenario, problemLine } from '../../src/scenario/load.js';
import { fixture, useTempDir } from '../helpers.js';

const tmp = useTempDir('esign-scenario-format-');

async function problems(yaml: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const file = join(tmp.dir, 's.yaml');
  writeFileSync(file, yaml);
  const r = await loadScenario(file, env);
  return r.ok ? [] : r.problems.map((p) => problemLine('s.yaml', p));
}

const CREATE = `  - name: nda
    call: createBundle
    body: { label: x }
`;

describe('scenario files are checked before anything runs', () => {
  it('accepts the example of scenario init and the CI scenario of the fixtures', async () => {
    writeFileSync(join(tmp.dir, EXAMPLE_PDF), await examplePdf());
    expect(await problems(EXAMPLE)).toEqual([]);
    const ci = await loadScenario(fixture('scenarios/ci-nda.yaml'), {});
    expect(ci.ok).toBe(true);
  });

  it('names the place of each schema problem: line, column and path', async () => {
    const got = await problems(`name: t
steps:
${CREATE}  - sgin: { bundle: x, signer: ada }
  - sign: { bundle: x }
  - advance: soon
  - wait: { bundle: x, until: signed }
  - call: createBundel
    body: {}
  - sign: { packet: p }
    view: { packet: p }
`);
    expect(got).toEqual([
      's.yaml:6:11 step 2.sgin: sgin: not a member here; did you mean sign?',
      's.yaml:6:5 step 2: No action: give one of call, view, sign, decline, reassign, advance, wait, respond, webhooks, outbox, events, download, verify, tamper, hash, assert, account, template, envelope_template.',
      's.yaml:7:11 step 3.sign: Give either packet, or bundle and signer.',
      's.yaml:8:14 step 4.advance: A duration such as 90s, 15m, 2h, 3d or 1d12h (a bare number is seconds).',
      expect.stringMatching(/^s\.yaml:9:31 step 5\.wait\.until: .*"docs-ready"/),
      's.yaml:10:11 step 6.call: "createBundel" is not an operation; did you mean createBundle? (esign scenario ops lists them).',
      's.yaml:12:5 step 7: One action a step: this one has view, sign.',
    ]);
  });

  it('refuses references to steps that do not come before (its own answer too), unset variables, and wrong parameters', async () => {
    const got = await problems(`steps:
  - sign: { bundle: "\${nda.id}", signer: ada }
${CREATE}  - name: nda
    call: getBundle
    params: { slug: "\${nda.id}", page: 2 }
  - call: sendBundle
  - call: getBundle
    params: { slug: "\${env.NOPE}" }
    body: {}
  - assert: "\${nda.packets[0].id}"
    expect: { "packets[": 1 }
  - advance: 1d
    expect: { now: "\${advance.now}" }
`);
    expect(got).toEqual([
      's.yaml:2:5 step 1: ${nda.id}: no step named nda comes before this one.',
      's.yaml:6:11 step 3.name: Another step is already named nda.',
      's.yaml:8:40 step 3.params.page: getBundle has no parameter page (it takes slug, include).',
      's.yaml:9:5 step 4.params: sendBundle needs params.slug.',
      's.yaml:12:11 step 5.body: getBundle takes no body.',
      's.yaml:10:5 step 5: ${env.NOPE}: NOPE is not set and has no default (env: in the file, or :-default).',
      's.yaml:14:27 step 6.expect.packets[: "packets[" is not a path (members, [N] and [*]).',
      's.yaml:15:5 step 7: ${advance.now}: no step named advance comes before this one.',
    ]);
    expect(await problems('steps:\n  - name: me\n    assert: "${me.x}"\n    expect: { "": 1 }\n')).toEqual([
      's.yaml:2:5 step 1: ${me.x}: a step cannot refer to its own answer.',
    ]);
    // The environment, the file's env and a default in place all satisfy a variable.
    const env = `env: { FROM_FILE: x }\nsteps:\n  - assert: "\${env.FROM_ENV}\${env.FROM_FILE}\${env.IN_PLACE:-y}"\n    expect: { "": xx }\n`;
    expect(await problems(env, { FROM_ENV: 'x' })).toEqual([]);
    expect(await problems(env, {})).toHaveLength(1);
  });

  it('refuses a misspelt matcher at any depth, naming the one meant, and a file the call attaches that is not there', async () => {
    expect(
      await problems(`steps:
  - call: createBundle
    body: { label: x }
    expect: { status: { contians: se }, packets: [{ status: { not: ne, equal: se } }] }
`),
    ).toEqual([
      's.yaml:4:35 step 1.expect.status.contians: contians: not a matcher; did you mean contains?',
      's.yaml:4:79 step 1.expect.packets[0].status.equal: equal: not a matcher; did you mean equals?',
    ]);
    const got = await problems(`receiver: {}
steps:
  - call: createBundle
    body: { label: x, documents: [{ key: a, file_path: nope.pdf }] }
  - call: createBundle
    spec: missing.yaml
  - call: getBundle
    params: { slugg: x }
  - respond: { statuses: [500] }
`);
    expect(got).toEqual([
      expect.stringMatching(
        /^s\.yaml:4:56 step 1\.body\.documents\[0\]\.file_path: documents\[0\]\.file_path nope\.pdf: no such file \(.*nope\.pdf\)\.$/,
      ),
      expect.stringMatching(/^s\.yaml:6:11 step 2\.spec: missing\.yaml: no such file/),
      's.yaml:8:22 step 3.params.slugg: getBundle has no parameter slugg; did you mean slug? (it takes slug, include).',
      's.yaml:8:13 step 3.params: getBundle needs params.slug.',
    ]);
    expect(await problems('steps:\n  - respond: { down: true }\n  - wait: { attempts: 2 }\n')).toEqual([
      's.yaml:2:14 step 1.respond: respond needs the run\'s receiver: add "receiver:" to the file.',
      's.yaml:3:11 step 2.wait: wait needs the run\'s receiver: add "receiver:" to the file.',
    ]);
    expect(
      await problems('steps:\n  - assert: "${now+2d} ${now-1h} ${now}"\n    expect: { "": { exists: true } }\n'),
    ).toEqual([]);
    expect(await problems('steps:\n  - assert: "${now+soon}"\n    expect: { "": 1 }\n')).toEqual([
      expect.stringContaining('${now+soon}: not a reference (write ${step.path}, ${env.NAME:-default} or ${now+2d}).'),
    ]);
  });

  it('refuses what is not YAML, a duplicate key, and a file too large to be a scenario', async () => {
    expect(await problems('steps: [\n')).toEqual([expect.stringMatching(/^s\.yaml:2:1: /)]);
    expect(await problems('name: a\nname: b\nsteps: [{ advance: 1d }]\n')).toEqual([
      expect.stringMatching(/^s\.yaml:2:1: Map keys must be unique/),
    ]);
    expect(await problems(`steps: [{ advance: 1d }]\n#${'x'.repeat(1024 * 1024)}\n`)).toEqual([
      's.yaml: Larger than 1024 KB: not a scenario.',
    ]);
  });
});

describe('a setup section', () => {
  const pdf = () => {
    writeFileSync(join(tmp.dir, 'nda.pdf'), readFileSync(fixture('nda.pdf')));
    return 'nda.pdf';
  };
  const GOOD = () => `setup:
  - account: { features: { early_data: true }, users: [{ email: qa@example.com }] }
  - name: nda
    template:
      name: NDA
      file: ${pdf()}
      roles: [{ key: signer }]
      fields: [{ key: t, kind: inp, page: 1, x: 1, y: 1, w: 9, h: 9, editor_roles: [signer], data_flow_tag: t }]
  - name: onboarding
    envelope_template:
      name: Onboarding
      signers: [{ key: signer }]
      documents: [{ key: nda, template_id: "\${nda.id}" }, { key: rules, file: nda.pdf }]
  - person: { name: Ada, channels: [{ email: ada@example.com, kind: em }] }
  - webhook: { name: hook, url: "https://example.com/h", event_types: [bundle_sent] }
steps:
  - template: { name: Again, file: nda.pdf, roles: [{ key: signer }] }
  - call: getEnvelopeTemplate
    params: { id: "\${onboarding.id}" }
`;

  it('takes the account, templates from a PDF, envelope templates, persons and webhooks, each referable', async () => {
    expect(await problems(GOOD())).toEqual([]);
  });

  it('refuses what check refuses, naming the place and the nearest name', async () => {
    pdf();
    const got = await problems(`setup:
  - acount: { features: { teams: true } }
  - account: { features: { earlydata: true }, plan: gold }
  - name: nda
    template: { name: NDA, file: missing.pdf, roles: [], rolse: [] }
  - template: { name: NDA, file: nda.pdf, roles: [{ key: s }] }
    person: { name: Ada }
  - name: nda
    envelope_template: { name: E, signers: [{ key: s }], documents: [{ key: d, template_id: "\${later.id}" }] }
steps:
  - name: later
    call: getBundle
    params: { slug: x }
`);
    expect(got).toEqual([
      's.yaml:2:13 setup 1.acount: acount: not a member here; did you mean account?',
      's.yaml:2:5 setup 1: Nothing to set up: give one of account, template, envelope_template, person, webhook.',
      's.yaml:3:39 setup 2.account.features.earlydata: earlydata: not a member here; did you mean early_data?',
      's.yaml:3:53 setup 2.account.plan: plan: not a member here.',
      's.yaml:5:54 setup 3.template.roles: Too small: expected array to have >=1 items',
      's.yaml:5:65 setup 3.template.rolse: rolse: not a member here; did you mean roles?',
      's.yaml:6:5 setup 4: One fixture an item: this one has template, person.',
    ]);
    // Past the schema: files, names, references.
    const whole = await problems(`setup:
  - name: nda
    template: { name: NDA, file: missing.pdf, roles: [{ key: s }] }
  - name: nda
    envelope_template: { name: E, signers: [{ key: s }], documents: [{ key: d, template_id: "\${later.id}" }, { key: f, file_path: gone.pdf }] }
steps:
  - name: later
    call: getBundle
    params: { slug: x }
`);
    expect(whole).toEqual([
      expect.stringMatching(/^s\.yaml:3:34 setup 1\.template\.file: missing\.pdf: no such file/),
      's.yaml:4:11 setup 2.name: Another step is already named nda.',
      expect.stringMatching(
        /^s\.yaml:5:\d+ setup 2\.envelope_template\.documents\[1\]\.file_path: gone\.pdf: no such file/,
      ),
      's.yaml:4:5 setup 2: ${later.id}: no step named later comes before this one.',
    ]);
  });

  it("is held to the same rule by an editor's validator (the published JSON Schema)", () => {
    const validate = new Ajv2020({ strict: false }).compile(scenarioJsonSchema());
    const good = parseYaml(GOOD());
    expect(validate(good), JSON.stringify(validate.errors)).toBe(true);
    for (const bad of [
      { setup: [], steps: [{ assert: 1, expect: { '': 1 } }] },
      { setup: [{ acount: {} }], steps: good.steps },
      { setup: [{ account: { features: { earlydata: true } } }], steps: good.steps },
      { setup: [{ account: { plan: 'gold' } }], steps: good.steps },
      { setup: [{ template: { name: 'x', file: 'a.pdf', roles: [] } }], steps: good.steps },
      {
        setup: [{ template: { name: 'x', file: 'a.pdf', roles: [{ key: 's' }] }, person: { name: 'A' } }],
        steps: good.steps,
      },
      { setup: [{ webhook: { name: 'h', url: 'u', event_types: ['nope'] } }], steps: good.steps },
      { steps: [{ envelope_template: { name: 'E', signers: [{ key: 's' }], documents: [{ key: 'd', colour: 1 }] } }] },
    ])
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe("the format's JSON Schema", () => {
  const published = join(import.meta.dirname, '..', '..', 'docs', 'scenario.schema.json');

  it('is the one the program makes (regenerate: esign scenario schema > docs/scenario.schema.json)', () => {
    expect(JSON.parse(readFileSync(published, 'utf8'))).toEqual(scenarioJsonSchema());
  });

  it("accepts the example and refuses what the program refuses, in an editor's validator", () => {
    const validate = new Ajv2020({ strict: false }).compile(scenarioJsonSchema());
    expect(validate(parseYaml(EXAMPLE)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(parseYaml(readFileSync(fixture('scenarios/ci-nda.yaml'), 'utf8')))).toBe(true);
    expect(
      validate({ steps: [{ call: 'getBundleData', params: { slug: 'x' }, expect: { a: { contains: 1 } } }] }),
    ).toBe(true);
    for (const bad of [
      { steps: [] },
      { steps: [{ sgin: {} }] },
      { steps: [{ sign: { packet: 'p' }, view: { packet: 'p' } }] },
      { steps: [{ advance: '1d', colour: 'red' }] },
      { steps: [{ webhooks: { events: ['bundle_sent', 'nope'] } }] },
      { steps: [{ call: 'createBundel' }] },
      { steps: [{ assert: 1, expect: { '': { contians: 1 } } }] },
      { steps: [{ assert: 1, expect: { a: [{ b: { lenght: 1 } }] } }] },
    ])
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
  });
});

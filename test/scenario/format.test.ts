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
      's.yaml:6:11 step 2.sgin: sgin: not a member here.',
      's.yaml:6:5 step 2: No action: give one of call, view, sign, decline, reassign, advance, wait, respond, webhooks, outbox, events, download, verify, tamper, hash, assert.',
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

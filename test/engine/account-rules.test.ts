// The account rules written once (src/local/account/rules.ts): the team check and the v_regex gate
// give the same answer and message wherever a request meets them.
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/domain/errors.js';
import { CONTRACT_PDF, expectApiError } from '../helpers.js';
import { useEngine, withField } from './support.js';

const t = useEngine();
const MISSING_TEAM = '00000000-0000-4000-8000-000000000000';

const template = (over: Record<string, unknown> = {}) => ({
  name: 'T',
  pdf: CONTRACT_PDF,
  roles: [{ key: 'buyer' }],
  fields: [{ kind: 'inp', page: 1, x: 10, y: 10, w: 100, h: 20, editor_roles: ['buyer'] }],
  ...over,
});
const messageOf = (e: ApiError, field: string) => e.errors.find((x) => x.field === field)?.message;

describe('the v_regex gate', () => {
  it('refuses v_regex without the feature with one message, on a Bundle document and on a Document Template', async () => {
    const onBundle = await expectApiError(t.e.createBundle(withField({ v_regex: '^[0-9]+$' })), 400);
    const onTemplate = await expectApiError(
      t.e.importTemplate(template({ fields: [{ ...template().fields[0], v_regex: '^[0-9]+$' }] }) as never),
      400,
    );
    const a = messageOf(onBundle, 'documents[0].fields[0].v_regex');
    expect(a).toBe('v_regex requires the field regex validation account feature.');
    expect(messageOf(onTemplate, 'fields[0].v_regex')).toBe(a);
  });

  it('refuses an expression RE2 does not take with one message in both places', async () => {
    t.e.account.setFeatures(['regex_validation'], true);
    const onBundle = await expectApiError(t.e.createBundle(withField({ v_regex: '(?<=a)b' })), 400);
    const onTemplate = await expectApiError(
      t.e.importTemplate(template({ fields: [{ ...template().fields[0], v_regex: '(?<=a)b' }] }) as never),
      400,
    );
    const a = messageOf(onBundle, 'documents[0].fields[0].v_regex')!;
    expect(a).toMatch(/^Not a valid RE2 expression: /);
    expect(messageOf(onTemplate, 'fields[0].v_regex')).toBe(a);
    // A valid one passes in both.
    expect((await t.e.createBundle(withField({ v_regex: '^[0-9]+$' }))).status).toBe('se');
    expect(
      (await t.e.importTemplate(template({ fields: [{ ...template().fields[0], v_regex: '^[0-9]+$' }] }) as never))
        .name,
    ).toBe('T');
  });
});

describe('the team check', () => {
  it('an unknown team reads the same on create, PATCH, template and preparation session', async () => {
    t.e.account.setFeatures(['teams', 'template_preparation'], true);
    const expected = `Team "${MISSING_TEAM}" does not exist in this account.`;
    const created = await t.e.createBundle(withField({}));
    const errors = [
      [await expectApiError(t.e.createBundle({ ...withField({}), team: MISSING_TEAM }), 400), 'team'],
      [await expectApiError(t.e.updateBundle(created.id, { team: MISSING_TEAM }), 400), 'team'],
      [await expectApiError(t.e.importTemplate(template({ teams: [MISSING_TEAM] }) as never), 400), 'teams[0]'],
      [await expectApiError(t.e.createTemplatePreparationSession({ team: MISSING_TEAM }), 400), 'team'],
    ] as const;
    for (const [e, field] of errors) expect(messageOf(e, field)).toBe(expected);
  });

  it('a Bundle needs the Teams feature to be put on a team or taken off one; templates only need the team to exist', async () => {
    const team = t.e.account.addTeam({ name: 'Sales' });
    const created = await t.e.createBundle(withField({}));
    const gate = 'Assigning a team requires the Teams account feature.';
    expect(messageOf(await expectApiError(t.e.createBundle({ ...withField({}), team: team.id }), 400), 'team')).toBe(
      gate,
    );
    expect(messageOf(await expectApiError(t.e.updateBundle(created.id, { team: null }), 400), 'team')).toBe(gate);
    expect((await t.e.importTemplate(template({ teams: [team.id] }) as never)).name).toBe('T');
    t.e.account.setFeatures(['teams'], true);
    expect((await t.e.updateBundle(created.id, { team: team.id })).team).toBe(team.id);
    expect((await t.e.updateBundle(created.id, { team: null })).team).toBeNull();
  });
});

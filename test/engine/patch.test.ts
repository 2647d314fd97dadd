// PATCH /bundles/{slug}/: allowed states, allowed fields, feature gates, reminder ranges, expires,
// owner, team and signing brand.
import { describe, expect, it } from 'vitest';
import { bundleRequest, expectApiError } from '../helpers.js';
import { DAY_MS, type TestEngine, eventKinds, forceStatus, useEngine } from './support.js';

const ctx = useEngine();

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const sent = (e: TestEngine) => e.createBundle(bundleRequest());
const draft = (e: TestEngine) => e.createBundle(bundleRequest({ status: 'dr' }));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('patch: which Bundles can change', () => {
  it('a draft and a sent Bundle accept a patch (event bu)', async () => {
    const { e } = ctx;
    for (const b of [await draft(e), await sent(e)]) {
      const got = await e.updateBundle(b.id, { cc_sender: true, cc_emails: ['boss@example.com'] });
      expect(got).toMatchObject({ cc_sender: true, cc_emails: ['boss@example.com'], status: b.status });
      expect((await eventKinds(e, b.id)).at(-1)).toBe('bu');
    }
  });

  it('a cancelled Bundle → 400', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.cancelBundle(b.id);
    await expectApiError(e.updateBundle(b.id, { cc_sender: true }), 400, { code: 'invalid', message: /cancelled/ });
    expect((await e.getBundle(b.id)).cc_sender).toBe(false);
  });

  for (const status of ['pe', 'st', 'co', 'ex', 'fa', 'de']) {
    it(`a Bundle in ${status} → 400`, async () => {
      const { e } = ctx;
      const b = await sent(e);
      forceStatus(e, b.id, status);
      await expectApiError(e.updateBundle(b.id, { cc_sender: true }), 400, { code: 'invalid' });
    });
  }

  it('an unknown Bundle → 404', async () => {
    await expectApiError(ctx.e.updateBundle('missing', { cc_sender: true }), 404, { code: 'not_found' });
  });
});

describe('patch: fields', () => {
  for (const [body, fields] of [
    [{ label: 'renamed' }, ['label']],
    [{ status: 'ca' }, ['status']],
    [{ packets: [] }, ['packets']],
    [{ cc_sender: true, is_test: true, bogus: 1 }, ['is_test', 'bogus']],
  ] as const) {
    it(`refuses ${Object.keys(body).join(', ')} naming ${fields.join(', ')}`, async () => {
      const { e } = ctx;
      const b = await sent(e);
      const err = await expectApiError(e.updateBundle(b.id, body), 400, { code: 'invalid' });
      expect(err.errors.map((f) => f.field)).toEqual(fields);
      expect((await e.getBundle(b.id)).cc_sender).toBe(false);
    });
  }

  it('refuses a body that is not an object', async () => {
    const b = await sent(ctx.e);
    await expectApiError(ctx.e.updateBundle(b.id, ['cc_sender']), 400);
  });

  it('checks cc_emails like creation does', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.updateBundle(b.id, { cc_emails: ['ok@example.com', 'bad'] }), 400, {
      field: 'cc_emails[1]',
    });
    await expectApiError(e.updateBundle(b.id, { cc_emails: [`${'a'.repeat(243)}@example.com`] }), 400, {
      field: 'cc_emails[0]',
    });
  });

  it('keeps copies of a test Bundle to verified users', async () => {
    const { e } = ctx;
    const b = await e.createBundle(
      bundleRequest({ is_test: true, packets: [{ key: 'o', name: 'Owner', email: 'owner@example.com' }] }),
    );
    await expectApiError(e.updateBundle(b.id, { cc_emails: ['stranger@example.com'] }), 400, { field: 'cc_emails[0]' });
    expect((await e.updateBundle(b.id, { cc_emails: ['owner@example.com'] })).cc_emails).toEqual(['owner@example.com']);
  });

  it('is all or nothing: one bad member leaves the others unapplied', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.updateBundle(b.id, { cc_sender: true, owner: UNKNOWN_UUID }), 400, { field: 'owner' });
    const got = await e.getBundle(b.id);
    expect(got.cc_sender).toBe(false);
    expect(await eventKinds(e, b.id)).not.toContain('bu');
  });
});

describe('patch: reminders', () => {
  const REMINDER_FIELDS = ['send_reminders', 'reminder_offset', 'reminder_interval', 'reminder_expires'] as const;

  for (const field of REMINDER_FIELDS) {
    it(`${field} without the reminders feature → 400`, async () => {
      const { e } = ctx;
      e.account.setFeatures(['reminders'], false);
      const b = await sent(e);
      await expectApiError(e.updateBundle(b.id, { [field]: field === 'send_reminders' ? true : 3 }), 400, {
        code: 'invalid',
        field,
      });
    });
  }

  it('with the feature (on by default) the values are stored', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const got = await e.updateBundle(b.id, {
      send_reminders: false,
      reminder_offset: 0,
      reminder_interval: 30,
      reminder_expires: 7,
    });
    expect(got).toMatchObject({
      send_reminders: false,
      reminder_offset: 0,
      reminder_interval: 30,
      reminder_expires: 7,
    });
  });

  for (const field of REMINDER_FIELDS.slice(1)) {
    for (const value of [31, -1, 1.5, 'three', '1.5', '31']) {
      it(`${field}=${JSON.stringify(value)} → 400`, async () => {
        const { e } = ctx;
        const b = await sent(e);
        await expectApiError(e.updateBundle(b.id, { [field]: value }), 400, { code: 'invalid', field });
      });
    }
  }
});

describe('patch: expires', () => {
  it('must be in the future', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.updateBundle(b.id, { expires: new Date(e.clock.nowMs() - 60_000).toISOString() }), 400, {
      field: 'expires',
    });
    await expectApiError(e.updateBundle(b.id, { expires: '2001-01-01' }), 400, { field: 'expires' });
    const d = await draft(e);
    await expectApiError(e.updateBundle(d.id, { expires: isoDay(e.clock.nowMs() - DAY_MS) }), 400, {
      field: 'expires',
    });
  });

  for (const value of ['next week', '2030-02-30', '2030-01-01 10:00', '']) {
    it(`refuses ${JSON.stringify(value)}`, async () => {
      const b = await sent(ctx.e);
      await expectApiError(ctx.e.updateBundle(b.id, { expires: value }), 400, { field: 'expires' });
    });
  }

  it('a draft takes a date-time as given and a date as the end of that day', async () => {
    const { e } = ctx;
    const b = await draft(e);
    expect((await e.updateBundle(b.id, { expires: '2031-03-04T05:06:07Z' })).expires).toBe('2031-03-04T05:06:07.000Z');
    expect((await e.updateBundle(b.id, { expires: '2031-03-09' })).expires).toBe('2031-03-09T23:59:59.000Z');
  });

  it('a Sent Bundle keeps its time of day when given a date', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const timeOfDay = b.sent!.slice(10);
    const first = await e.updateBundle(b.id, { expires: '2031-05-06' });
    expect(first.expires).toBe(`2031-05-06${timeOfDay}`);
    const second = await e.updateBundle(b.id, { expires: '2031-06-07' });
    expect(second.expires).toBe(`2031-06-07${timeOfDay}`);
  });

  it('a Sent Bundle with an expiry keeps that time of day, even when given a date-time', async () => {
    const { e } = ctx;
    const b = await draft(e);
    await e.updateBundle(b.id, { expires: '2031-03-04T05:06:07Z' });
    await e.sendBundle(b.id);
    expect((await e.updateBundle(b.id, { expires: '2032-01-02T20:00:00Z' })).expires).toBe('2032-01-02T05:06:07.000Z');
  });
});

/** PATCH sets `member` to `value`, then null clears it; each answer shows it. */
async function setsThenClears(e: TestEngine, id: string, member: 'owner' | 'team' | 'signing_brand', value: string) {
  expect((await e.updateBundle(id, { [member]: value }))[member]).toBe(value);
  expect((await e.updateBundle(id, { [member]: null }))[member]).toBeNull();
}

describe('patch: owner, team and signing brand', () => {
  it('owner must be a user of the account; null clears', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.updateBundle(b.id, { owner: UNKNOWN_UUID }), 400, { code: 'invalid', field: 'owner' });
    await expectApiError(e.updateBundle(b.id, { owner: 'owner@example.com' }), 400, { field: 'owner' });
    const user = e.account.addUser({ email: 'pat@example.com' });
    await setsThenClears(e, b.id, 'owner', user.id);
  });

  it('team requires the teams feature, an existing team; null clears', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const team = e.account.addTeam({ name: 'Sales' });
    await expectApiError(e.updateBundle(b.id, { team: team.id }), 400, { code: 'invalid', field: 'team' });
    e.account.setFeatures(['teams'], true);
    await expectApiError(e.updateBundle(b.id, { team: UNKNOWN_UUID }), 400, { field: 'team' });
    await expectApiError(e.updateBundle(b.id, { team: 'sales' }), 400, { field: 'team' });
    await setsThenClears(e, b.id, 'team', team.id);
  });

  it('signing_brand must belong to the account; null clears', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.updateBundle(b.id, { signing_brand: UNKNOWN_UUID }), 400, {
      code: 'invalid',
      field: 'signing_brand',
    });
    const brand = e.account.addBrand({ name: 'Acme' });
    await setsThenClears(e, b.id, 'signing_brand', brand.id);
  });

  it('reports every bad member at once', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const err = await expectApiError(
      e.updateBundle(b.id, { owner: UNKNOWN_UUID, signing_brand: UNKNOWN_UUID, team: UNKNOWN_UUID }),
      400,
    );
    expect(err.errors.map((f) => f.field).sort()).toEqual(['owner', 'signing_brand', 'team']);
  });
});

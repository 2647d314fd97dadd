// The scenario file format: a named list of steps, each one action (an API operation, a signer's
// action, a clock move, a wait, a look at the webhooks received or the messages sent, a download, a
// verification...) with what its answer must hold. This zod schema is the one definition: files are
// validated by it, and `esign scenario schema` publishes it as a JSON Schema for editors.
import { z } from 'zod';
import { parseDuration } from '../app/duration.js';
import { MESSAGE_KINDS, WEBHOOK_EVENT_TYPES } from '../domain/enums.js';
import { WAIT_TARGETS } from '../domain/states.js';
import { FIXTURE_NAMES, FIXTURE_STEPS, FIXTURES, type Fixture } from './fixtureFormat.js';
import { MATCHER_TYPOS, matcherTypos, nearest, OPERATION_NAMES } from './names.js';

/** A step's name, by which later steps refer to its answer: `${create_nda.id}`. */
const STEP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const text = (description: string) => z.string().min(1).meta({ description });
const duration = (description: string) =>
  z
    .union([z.string(), z.number().positive()])
    .refine((v) => typeof v === 'number' || parseDuration(v) !== undefined, {
      error: 'A duration such as 90s, 15m, 2h, 3d or 1d12h (a bare number is seconds).',
    })
    .meta({ description });

/** Which signer acts: a packet by id, or a signer of a Bundle by key, email or order. */
const signerTarget = {
  packet: text('The packet (signer) id.').optional(),
  bundle: text('The Bundle, with `signer` naming one of its signers.').optional(),
  signer: z
    .union([z.string().min(1), z.int().min(1)])
    .meta({
      description:
        "The signer: their key (as the create request named it), their email address, or their order (1 = first). A string holding '@' is an email.",
    })
    .optional(),
};
const signerRule = (v: { packet?: string; bundle?: string; signer?: unknown }) =>
  v.packet !== undefined
    ? v.bundle === undefined && v.signer === undefined
    : v.bundle !== undefined && v.signer !== undefined;
const SIGNER_RULE = { error: 'Give either packet, or bundle and signer.' };

const view = z.strictObject(signerTarget).refine(signerRule, SIGNER_RULE);
const sign = z
  .strictObject({
    ...signerTarget,
    values: z
      .record(z.string(), z.string())
      .meta({ description: 'Field values by field key (signatures, names and dates fill themselves).' })
      .optional(),
  })
  .refine(signerRule, SIGNER_RULE);
const decline = z.strictObject({ ...signerTarget, reason: z.string().optional() }).refine(signerRule, SIGNER_RULE);
const reassign = z
  .strictObject({
    ...signerTarget,
    name: text('The new signer.'),
    email: z.string().optional(),
    phone: z.string().optional(),
    reason: z.string().optional(),
  })
  .refine(signerRule, SIGNER_RULE);

/** A webhook event's delivery as the server tells it: delivered, failed with a retry due, or given up. */
export const DELIVERY_STATES = ['delivered', 'retrying', 'given_up'] as const;

const WAIT_MODES = ['until', 'event', 'attempts', 'delivery'] as const;
const wait = z
  .strictObject({
    bundle: text('The Bundle to wait for (with attempts or delivery: only what is about it counts).').optional(),
    bundles: z.array(z.string().min(1)).min(1).optional(),
    until: z.enum(WAIT_TARGETS).meta({ description: 'The state to reach.' }).optional(),
    event: text('A Bundle event kind to appear in its events (bk, fr, pr...).').optional(),
    attempts: z
      .int()
      .min(1)
      .meta({
        description: "Until the run's receiver has seen this many delivery attempts (of event_type, about bundle).",
      })
      .optional(),
    delivery: z
      .enum(DELIVERY_STATES)
      .meta({
        description:
          "Until every event the server queued for the run's receiver (of event_type, about bundle), and at least one, is in this state.",
      })
      .optional(),
    event_type: z
      .enum(WEBHOOK_EVENT_TYPES)
      .meta({ description: 'With attempts or delivery: only this webhook event type counts.' })
      .optional(),
    timeout: duration('How long to wait (default 30s).').optional(),
  })
  .superRefine((w, ctx) => {
    const modes = WAIT_MODES.filter((m) => w[m] !== undefined);
    if (modes.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: `Give one of ${WAIT_MODES.join(', ')}${modes.length ? `, not ${modes.join(' and ')}` : ''}.`,
      });
    const onBundles = modes[0] === 'until' || modes[0] === 'event';
    if (onBundles && (w.bundle === undefined) === (w.bundles === undefined))
      ctx.addIssue({ code: 'custom', message: 'Give bundle or bundles.' });
    if (!onBundles && w.bundles !== undefined)
      ctx.addIssue({ code: 'custom', path: ['bundles'], message: `bundles goes with until or event; give bundle.` });
    if (onBundles && w.event_type !== undefined)
      ctx.addIssue({ code: 'custom', path: ['event_type'], message: 'event_type goes with attempts or delivery.' });
  });

const status = z.int().min(200).max(599);
const respond = z.strictObject({
  statuses: z
    .array(status)
    .max(100)
    .meta({ description: 'The answers to the next attempts, in turn (500, 503, 410...); then it answers 200.' })
    .optional(),
  delay: duration(
    'Each answer from now on waits this long (a slow receiver; past 10s the attempt times out).',
  ).optional(),
  down: z
    .boolean()
    .meta({ description: 'true: the receiver stops listening (attempts find no one); false: it listens again.' })
    .optional(),
});

const webhooks = z.strictObject({
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES))
    .meta({ description: 'The event types expected, each as often as it is listed (in any order unless ordered).' })
    .optional(),
  ordered: z
    .boolean()
    .meta({
      description: 'The events must be in the order listed, by the order the server made them (not of arrival).',
    })
    .optional(),
  bundle: text("Only deliveries about this Bundle count (the payload's bundle_id).").optional(),
  count: z.int().min(0).meta({ description: 'How many deliveries are expected.' }).optional(),
  timeout: duration('How long to wait for them (default 30s).').optional(),
  quiet: duration('Then nothing more arrives for this long (count: 0 with quiet: nothing arrives at all).').optional(),
});

const outbox = z.strictObject({
  bundle: z.string().min(1).optional(),
  packet: z.string().min(1).optional(),
  to: z.string().min(1).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
});

const events = z.strictObject({
  bundle: text('The Bundle whose events are read.'),
  in_order: z
    .array(z.string().min(1))
    .meta({ description: 'Event kinds that must appear in this order (others may come between).' })
    .optional(),
});

const download = z.strictObject({
  bundle: text('The Bundle whose files are downloaded, each checked against the SHA-256 the API gives.'),
  to: text('The folder (default: a temporary folder of the run).').optional(),
});

const files = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
const verify = z.strictObject({
  files: files.meta({ description: 'A file or files to verify by their SHA-256.' }),
  valid: z
    .boolean()
    .meta({ description: 'true (default): each must be a document the service produced; false: each must be refused.' })
    .optional(),
});
const tamper = z.strictObject({
  file: text('The file to copy with one byte changed.'),
  to: text('Where the copy goes (default: beside it, "tampered-" before its name).').optional(),
});
const hash = z.strictObject({ file: text('The file to hash (SHA-256).') });

/** Each step does exactly one of these. */
export const ACTIONS = {
  call: z
    .string()
    .refine((n) => OPERATION_NAMES.includes(n), {
      error: (issue) => {
        const near = nearest(String(issue.input), OPERATION_NAMES);
        return `${JSON.stringify(issue.input)} is not an operation${near ? `; did you mean ${near}?` : ''} (esign scenario ops lists them).`;
      },
    })
    .meta({
      description:
        'An API operation by its name (createBundle, getBundle, sendBundle...: esign scenario ops lists them).',
      enum: [...OPERATION_NAMES],
    }),
  view: view.meta({ description: 'The signer opens the documents.' }),
  sign: sign.meta({ description: 'The signer signs.' }),
  decline: decline.meta({ description: 'The signer declines.' }),
  reassign: reassign.meta({ description: 'The signer hands their turn to another person.' }),
  advance: duration(
    "Moves the sandbox's clock forward; what that makes due (reminders, expiry, webhook attempts and retries) has happened when it returns.",
  ),
  wait: wait.meta({
    description: "Waits for Bundles to reach a state, an event to appear, or the run's receiver's delivery attempts.",
  }),
  respond: respond.meta({
    description:
      "How the run's receiver answers from here on: given statuses to the next attempts, slowly, or not at all (down).",
  }),
  webhooks: webhooks.meta({ description: "Checks the deliveries the run's receiver got (signature, type, count)." }),
  outbox: outbox.meta({ description: 'The emails and SMS the sandbox recorded.' }),
  events: events.meta({ description: "A Bundle's events." }),
  download: download.meta({ description: "Downloads a Bundle's files." }),
  verify: verify.meta({ description: 'Verifies files by their SHA-256.' }),
  tamper: tamper.meta({ description: 'Writes a copy of a file with one byte changed.' }),
  hash: hash.meta({ description: "A file's SHA-256 and size." }),
  assert: z.unknown().meta({ description: 'A value (usually `${step.path}`) for `expect` to check.' }),
  // What API v2 cannot make, as in `setup` (fixtureFormat.ts).
  ...(Object.fromEntries(FIXTURE_STEPS.map((f) => [f, FIXTURES[f]])) as Pick<
    typeof FIXTURES,
    (typeof FIXTURE_STEPS)[number]
  >),
} as const;
export type Action = keyof typeof ACTIONS;
const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

const expectedError = z.strictObject({
  status: z.int().min(400).max(599).optional(),
  code: z.string().optional(),
  field: z.string().meta({ description: 'A field error must name this field.' }).optional(),
  message: z.string().meta({ description: 'A regular expression the message must match.' }).optional(),
});

/** Members a step may have beside its action. */
const COMMON = {
  name: z
    .string()
    .regex(STEP_NAME, { error: 'Letters, digits and _, not starting with a digit.' })
    .meta({ description: 'Names the step, so later steps refer to its answer: ${NAME.id}.' })
    .optional(),
  params: z
    .record(z.string(), z.unknown())
    .meta({ description: "With call: the operation's path and query parameters by name (slug, id, include...)." })
    .optional(),
  body: z.unknown().meta({ description: 'With call: the request body.' }).optional(),
  spec: text(
    'With call: a JSON or YAML file holding the request body; documents[].file_path names files beside it.',
  ).optional(),
  expect: z
    .record(z.string(), z.unknown())
    .meta({
      description:
        'What the answer must hold, by path ("status", "packets[0].status", "[*].kind", "" for the whole answer): a value, or a matcher (equals, not, matches, exists, length, contains, in_order, gte, lte, one_of).',
    })
    .optional(),
  expect_error: expectedError
    .meta({ description: 'The step must fail with this API error (its answer is the Error object).' })
    .optional(),
};

const stepShape = {
  ...COMMON,
  ...Object.fromEntries(ACTION_NAMES.map((a) => [a, ACTIONS[a].optional()])),
} as { [K in keyof typeof COMMON]: (typeof COMMON)[K] } & { [A in Action]: z.ZodOptional<(typeof ACTIONS)[A]> };

export const Step = z.strictObject(stepShape).superRefine((step, ctx) => {
  const given = ACTION_NAMES.filter((a) => (step as Record<string, unknown>)[a] !== undefined);
  if (given.length !== 1)
    ctx.addIssue({
      code: 'custom',
      message: given.length
        ? `One action a step: this one has ${given.join(', ')}.`
        : `No action: give one of ${ACTION_NAMES.join(', ')}.`,
    });
  if (given[0] !== 'call')
    for (const m of ['params', 'body', 'spec'] as const)
      if (step[m] !== undefined) ctx.addIssue({ code: 'custom', path: [m], message: `${m} goes with call only.` });
  if (step.body !== undefined && step.spec !== undefined)
    ctx.addIssue({ code: 'custom', path: ['spec'], message: 'Give body or spec, not both.' });
  if (given[0] === 'assert' && step.expect === undefined)
    ctx.addIssue({ code: 'custom', path: ['expect'], message: 'assert needs expect.' });
  if (step.expect !== undefined && step.expect_error !== undefined)
    ctx.addIssue({ code: 'custom', path: ['expect_error'], message: 'Give expect or expect_error, not both.' });
  for (const [path, expected] of Object.entries(step.expect ?? {}))
    for (const t of matcherTypos(expected))
      ctx.addIssue({
        code: 'custom',
        path: ['expect', path, ...t.at],
        message: `${t.typo}: not a matcher; did you mean ${t.meant}?`,
      });
});
export type Step = z.output<typeof Step>;

const STEP_NAME_MEMBER = z
  .string()
  .regex(STEP_NAME, { error: 'Letters, digits and _, not starting with a digit.' })
  .meta({ description: 'Names what it made, so steps refer to it: ${NAME.id}.' })
  .optional();

/** One thing the file sets up before its first step: exactly one of the fixtures. */
export const SetupItem = z
  .strictObject({
    name: STEP_NAME_MEMBER,
    ...(Object.fromEntries(FIXTURE_NAMES.map((f) => [f, FIXTURES[f].optional()])) as {
      [F in Fixture]: z.ZodOptional<(typeof FIXTURES)[F]>;
    }),
  })
  .superRefine((item, ctx) => {
    const given = FIXTURE_NAMES.filter((f) => item[f] !== undefined);
    if (given.length !== 1)
      ctx.addIssue({
        code: 'custom',
        message: given.length
          ? `One fixture an item: this one has ${given.join(', ')}.`
          : `Nothing to set up: give one of ${FIXTURE_NAMES.join(', ')}.`,
      });
  });
export type SetupItem = z.output<typeof SetupItem>;

/** The fixture a (valid) setup item makes. */
export const fixtureOf = (item: SetupItem): Fixture => FIXTURE_NAMES.find((f) => item[f] !== undefined)!;

/** Setup items in one file: a fixture is a few; a long list belongs in steps or a script. */
const MAX_SETUP_ITEMS = 100;

export const Scenario = z.strictObject({
  name: z.string().min(1).meta({ description: 'What the scenario tests (default: the file name).' }).optional(),
  description: z.string().optional(),
  env: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string())
    .meta({ description: 'Defaults for ${env.NAME}: the environment wins.' })
    .optional(),
  receiver: z
    .strictObject({
      events: z
        .array(z.enum(WEBHOOK_EVENT_TYPES))
        .min(1)
        .meta({ description: 'The event types it subscribes to (default: all).' })
        .optional(),
    })
    .meta({
      description:
        'A webhook receiver the runner starts on 127.0.0.1 and registers before the first step (and removes after the last); webhooks steps check what it got.',
    })
    .optional(),
  setup: z
    .array(SetupItem)
    .min(1)
    .max(MAX_SETUP_ITEMS)
    .meta({
      description:
        "What the file needs before its first step, made in order on the file's own sandbox (or fresh local engine): the account, Document Templates from PDFs, Envelope Templates, Persons, webhooks.",
    })
    .optional(),
  steps: z.array(Step).min(1),
});
export type Scenario = z.output<typeof Scenario>;

/** The action a (valid) step does. */
export const actionOf = (step: Step): Action =>
  ACTION_NAMES.find((a) => (step as Record<string, unknown>)[a] !== undefined)!;

/** The format as a JSON Schema (draft 2020-12) for editors: a step has exactly one action. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(Scenario, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const properties = schema.properties as Record<string, { items: Record<string, unknown> }>;
  const steps = properties.steps!;
  steps.items.oneOf = ACTION_NAMES.map((a) => ({ required: [a] }));
  properties.setup!.items.oneOf = FIXTURE_NAMES.map((f) => ({ required: [f] }));
  // An expected value: a misspelt matcher is refused at any depth, as check refuses it.
  const expect = (steps.items.properties as Record<string, Record<string, unknown>>).expect!;
  expect.additionalProperties = { $ref: '#/$defs/expected' };
  const expected = { $ref: '#/$defs/expected' };
  return {
    $schema: schema.$schema,
    $id: 'https://esign.invalid/scenario.schema.json',
    title: 'esign scenario',
    ...schema,
    $defs: {
      expected: {
        anyOf: [
          { type: ['string', 'number', 'boolean', 'null'] },
          { type: 'array', items: expected },
          {
            type: 'object',
            propertyNames: { not: { enum: [...MATCHER_TYPOS.keys()] } },
            additionalProperties: expected,
          },
        ],
      },
    },
  };
}

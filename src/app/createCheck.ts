// One validation of a create, for every door (`batch check`, `batch send --dry-run`, `bundle create
// --dry-run`, the MCP server's send_batch dry run): the backend's own where it has one (the embedded
// engine runs its create in a transaction that is rolled back), so a request it passes is never
// refused by the create for its content; on a backend without one (a remote server), every rule the
// client can know (the request's schemas, its documents opened, the account's features and verified
// users read once) and the rest named, for the server decides them when the Bundle is sent.
import { ApiError, type FieldError, FieldErrors } from '../domain/errors.js';
import { deliverVia } from '../domain/delivery.js';
import { decodeBase64, inspectPdf, isOfficeFile } from '../domain/documentChecks.js';
import type { AccountFeature } from '../domain/enums.js';
import { REMINDER_MEMBERS, officeUploadGate, regexCheck, remindersGate, teamsGate } from '../domain/featureGates.js';
import { type AccountView, checkDelivery, checkTestCopies, checkTestSender } from '../domain/reachability.js';
import type { EsignService } from '../service/service.js';
import type { AccountFacts, AttachedFile } from '../service/types.js';

/** A create as it would be sent: to POST /bundles/ or from an Envelope Template. */
export interface CreateRequest {
  endpoint: 'bundle' | 'envelope';
  body: Record<string, unknown>;
  files: AttachedFile[];
}

export interface CheckedCreate {
  /** Why the create would be refused; empty when it would not (as far as this backend can tell). */
  problems: FieldError[];
  /** The Bundle that already has the request's custom_key. */
  existing?: string;
}

/** What a check without the backend's own cannot know: the server decides it when the Bundle is sent. */
const AT_SEND = {
  features: 'the account features the request needs (office upload, teams, reminders, signing brands, field regex)',
  test: 'that a test Bundle goes only to verified addresses of account users',
  persons: 'the Persons named by person_id',
  templates: 'the Document Templates named: their roles, fields and values',
  envelope: 'the Envelope Template: its signer roles and field values',
  belongs: 'that the team and signing brand named belong to the account',
  requester: "the requester's address of a test Bundle copied to its sender (the account's default)",
  placement: 'where fields go in the documents (auto-placement text, PDF form fields)',
} as const;

/** What no check before the create can know, on any backend: the Bundle fails later if it goes wrong. */
const AFTER_CREATE = {
  url: 'documents by file_url are fetched and checked after the create',
  html: 'documents by file_html are rendered after the create',
  office: 'office documents are converted to PDF after the create',
} as const;

type Document = Record<string, unknown> & {
  file_url?: string;
  file_b64?: string;
  file_html?: string;
  file_index?: number;
  template_id?: string;
  fields?: { v_regex?: string }[];
  auto_placements?: { v_regex?: string }[];
};
type Packet = Record<string, unknown> & { email?: string; phone?: string; person_id?: string };

export class CreateChecker {
  private facts: Promise<AccountView | undefined> | undefined;
  private readonly unknown = new Set<string>();
  private readonly later = new Set<string>();

  /** `lookUpKeys`: ask a remote backend whether the custom_key is taken (a batch reports such rows as sent before instead). */
  constructor(
    private readonly service: EsignService,
    private readonly o: { lookUpKeys?: boolean } = {},
  ) {}

  async check(req: CreateRequest): Promise<CheckedCreate> {
    this.noteLater(req.body);
    if (this.service.checkCreateBundle) {
      const r = await this.service.checkCreateBundle(req.body, req.files);
      return { problems: r.errors, ...(r.existing ? { existing: r.existing } : {}) };
    }
    const problems = await this.clientRules(req);
    if (!problems.length && this.o.lookUpKeys && typeof req.body.custom_key === 'string') {
      const holder = await this.service.findBundleByCustomKey(req.body.custom_key);
      if (holder)
        problems.push({ field: 'custom_key', message: `A Bundle with this custom_key already exists: ${holder.id}.` });
    }
    return { problems };
  }

  /** The rules this check could not apply (the server applies them when the Bundle is sent). */
  atSend(): string[] {
    return [...this.unknown];
  }

  /** What happens to the checked requests' documents after the create, on every backend. */
  afterCreate(): string[] {
    return [...this.later];
  }

  private noteLater(body: Record<string, unknown>): void {
    for (const d of (Array.isArray(body.documents) ? body.documents : []) as Document[]) {
      if (d?.file_url !== undefined) this.later.add(AFTER_CREATE.url);
      if (d?.file_html !== undefined) this.later.add(AFTER_CREATE.html);
    }
  }

  /** The account's features and verified users, read once; undefined when the backend does not tell them. */
  private account(): Promise<AccountView | undefined> {
    return (this.facts ??= readFacts(this.service));
  }

  private async clientRules(req: CreateRequest): Promise<FieldError[]> {
    const S = await import('../domain/schemas.js');
    try {
      S.parseOr400(req.endpoint === 'envelope' ? S.BundleTemplateRequest : S.BundleRequest, req.body);
    } catch (e) {
      if (e instanceof ApiError)
        return e.errors.length ? e.errors : [{ field: 'non_field_errors', message: e.message }];
      throw e;
    }
    const account = await this.account();
    if (!account) this.unknown.add(AT_SEND.features);
    const errs = new FieldErrors();
    this.signerRules(req.body, account, errs);
    await this.documentRules(req, account, errs);
    this.settingRules(req.body, account, errs);
    if (req.endpoint === 'envelope') this.unknown.add(AT_SEND.envelope);
    return errs.list;
  }

  /** Each signer reachable as asked, test Bundles to verified users only, the redirect gate. */
  private signerRules(body: Record<string, unknown>, account: AccountView | undefined, errs: FieldErrors): void {
    const isTest = body.is_test === true;
    const packets = (Array.isArray(body.packets) ? body.packets : []) as Packet[];
    packets.forEach((p, i) => {
      if (p.person_id !== undefined) return void this.unknown.add(AT_SEND.persons);
      const contact = { email: p.email, phone: p.phone, auth_sms: p.auth_sms === true };
      const delivery = {
        ...contact,
        deliver_via: deliverVia({ ...contact, deliver_via: p.deliver_via as 'email' | 'phone' | 'embed' | undefined }),
        setsRedirect: p.signing_complete_redirect !== undefined,
      };
      checkDelivery(delivery, isTest, account ?? LENIENT, errs, `packets[${i}].`);
      if (!account && isTest) this.unknown.add(AT_SEND.test);
    });
    const cc = Array.isArray(body.cc_emails) ? (body.cc_emails as string[]) : undefined;
    if (account) checkTestCopies(cc, isTest, account, errs);
    else if (isTest && cc?.length) this.unknown.add(AT_SEND.test);
    if (isTest && body.cc_sender === true) {
      if (account && typeof body.requester_email === 'string')
        checkTestSender(body.requester_email, isTest, account, errs);
      else this.unknown.add(AT_SEND.requester);
    }
  }

  /** Each document's bytes in hand opened as the engine opens them; what only the server knows, named. */
  private async documentRules(req: CreateRequest, account: AccountView | undefined, errs: FieldErrors) {
    const docs = (Array.isArray(req.body.documents) ? req.body.documents : []) as Document[];
    const has = (f: AccountFeature) => account?.has(f) ?? true;
    const anyRegex = docs.some((d) => [...(d.fields ?? []), ...(d.auto_placements ?? [])].some((f) => f.v_regex));
    const checkRegex = await regexCheck(has, anyRegex);
    for (const [i, d] of docs.entries()) {
      if (d.template_id !== undefined) {
        this.unknown.add(AT_SEND.templates);
        continue;
      }
      if (d.auto_placements?.length || d.adobe_field_assignments || d.converted_pdf_fields_to)
        this.unknown.add(AT_SEND.placement);
      for (const [kind, list] of [
        ['fields', d.fields ?? []],
        ['auto_placements', d.auto_placements ?? []],
      ] as const)
        list.forEach((f, j) => {
          if (f.v_regex !== undefined) checkRegex(f.v_regex, `documents[${i}].${kind}[${j}].v_regex`, errs);
        });
      await this.bytesRules(d, i, req.files, account, errs);
    }
  }

  private async bytesRules(
    d: Document,
    i: number,
    files: AttachedFile[],
    account: AccountView | undefined,
    errs: FieldErrors,
  ): Promise<void> {
    const file = d.file_index !== undefined ? files[d.file_index] : undefined;
    if (d.file_index !== undefined && !file) {
      errs.add(`documents[${i}].file_index`, `No attached file at index ${d.file_index} (${files.length} attached).`);
      return;
    }
    if (file && isOfficeFile(file.filename)) {
      this.later.add(AFTER_CREATE.office);
      const gate = account && officeUploadGate(file.filename, (f) => account.has(f));
      if (gate) errs.add(`documents[${i}].file_index`, gate);
      return;
    }
    const field = file ? `documents[${i}].file_index` : `documents[${i}].file_b64`;
    const data = file ? file.data : d.file_b64 !== undefined ? decodeBase64(d.file_b64) : null;
    if (data === null) return; // file_url or file_html: the server reads it after the create
    if (!data) return errs.add(field, 'Invalid base64: the value is not base64-encoded data.');
    const info = await inspectPdf(data);
    if ('problem' in info) errs.add(field, info.problem);
  }

  /** The members a PATCH shares with a create: the feature gates of teams and reminders. */
  private settingRules(body: Record<string, unknown>, account: AccountView | undefined, errs: FieldErrors): void {
    const has = (f: AccountFeature) => account?.has(f) ?? true;
    if (body.team !== undefined || body.signing_brand !== undefined) this.unknown.add(AT_SEND.belongs);
    const team = body.team !== undefined ? teamsGate(has) : undefined;
    if (team) errs.add('team', team);
    for (const k of REMINDER_MEMBERS) {
      const gate = body[k] !== undefined ? remindersGate(k, has) : undefined;
      if (gate) errs.add(k, gate);
    }
  }
}

/** Where the account is not told: every feature on, every address verified (those rules are left to the server). */
const LENIENT: AccountView = { has: () => true, isVerifiedAddress: () => true };

async function readFacts(service: EsignService): Promise<AccountView | undefined> {
  let facts: AccountFacts | undefined;
  try {
    facts = await service.accountFacts();
  } catch (e) {
    // A server without esign's sandbox (the hosted service) does not tell them.
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
  if (!facts) return undefined;
  const verified = new Set(facts.verified_addresses);
  return { has: (f) => facts.features.includes(f), isVerifiedAddress: (a) => verified.has(a) };
}

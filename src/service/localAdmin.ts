// What `esign local ...` and `esign serve` ask of the embedded engine beyond API v2: administration
// that only a backend owning its own store can answer (the remote adapter has none of it). The CLI
// holds the engine through these interfaces only (LocalBackend), never the concrete class.
import type { AccountFeature } from '../domain/enums.js';
import type { HostedEngine } from './hosting.js';
import type { EsignService } from './service.js';
import type { BundleMessage, DocumentTemplate, EnvelopeTemplate } from './types.js';

/** Where the local data lives and how much it holds. */
export interface LocalInfo {
  data_dir: string;
  database: string;
  bundles: number;
  packets: number;
  documents: number;
  outbox: number;
  clock: string;
}

/** Work a stopped process may have left: documents still to process, evidence still to produce. */
export interface PendingWork {
  pending_documents: number;
  pending_evidence: number;
}

export interface AccountSettings {
  name: string;
  requester_name: string;
  requester_email: string;
  features: AccountFeature[];
  /** Base URL that signing and file links point at (where `esign serve` listens). */
  public_url: string;
  /** esign serve may fetch file_url documents from private and loopback addresses. */
  allow_private_urls: boolean;
}

export interface User {
  id: string;
  email: string;
  name: string;
  verified: boolean;
  is_admin: boolean;
  created: string;
}

export interface Team {
  id: string;
  name: string;
  requester_name: string | null;
  requester_email: string | null;
  created: string;
}

export interface SigningBrand {
  id: string;
  name: string;
  redirect_url: string | null;
  created: string;
}

/** The local account: requester defaults, feature switches, users, teams and signing brands. */
export interface AccountAdmin {
  settings(): AccountSettings;
  update(patch: Partial<Omit<AccountSettings, 'features'>>): AccountSettings;
  setFeatures(names: string[], on: boolean): AccountFeature[];
  users(): User[];
  addUser(u: { email: string; name?: string; admin?: boolean; verified?: boolean }): User;
  setUserVerified(email: string, verified: boolean): User;
  removeUser(email: string): void;
  teams(): Team[];
  addTeam(t: { name: string; requester_name?: string; requester_email?: string }): Team;
  brands(): SigningBrand[];
  addBrand(b: { name: string; redirect_url?: string }): SigningBrand;
}

export interface ApiKey {
  id: string;
  name: string;
  /** The first characters of the key, enough to recognise it in a list. */
  prefix: string;
  created: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** API keys for `esign serve`: shown once at creation, stored as hashes, revocable. */
export interface KeyAdmin {
  create(name: string): { record: ApiKey; key: string };
  list(): ApiKey[];
  revoke(idOrPrefix: string): ApiKey;
  /** The id of the live key, or undefined. */
  authenticate(key: string): string | undefined;
  /** Whether the key of this id is still live (not revoked). */
  isLive(id: string): boolean;
}

/** The engine's clock: wall time plus an offset that `local clock` moves. */
interface ClockAdmin {
  now(): string;
  offset(): number;
  setOffset(ms: number): void;
  advance(ms: number): void;
}

/** Why a message went to a person (the outbox's `kind`). */
export type MessageKind = 'signing_request' | 'reminder' | 'docs_ready' | 'declined' | 'reassigned';

export interface OutboxQuery {
  bundle?: string;
  packet?: string;
  to?: string;
  kind?: string;
  /** The newest this many (default 1000); null: every message. */
  limit?: number | null;
}

/** A Document Template from a PDF and its roles and fields (`esign local template import`). */
export interface TemplateImport {
  name: string;
  pdf: Buffer;
  filename?: string;
  roles: { key: string; label?: string }[];
  /** Template fields (FieldRequest members with default_value, editor_roles, data_flow_tag); validated by the engine. */
  fields?: unknown[];
  metadata?: Record<string, string>;
  is_shared?: boolean;
  teams?: string[];
  /** The folder the template sits in (preparation sessions' folder_ids and library). */
  library?: string;
}

interface LocalAdmin {
  info(): LocalInfo;
  pendingWork(): PendingWork;
  readonly dataDir: string;
  readonly account: AccountAdmin;
  readonly keys: KeyAdmin;
  readonly clock: ClockAdmin;
  /** Messages recorded for people (never sent), oldest first. */
  outbox(q?: OutboxQuery): BundleMessage[];
  /** How many messages of the outbox match (the filters of `outbox`, without its limit). */
  outboxCount(q?: OutboxQuery): number;
  /** Applies what is due by the engine's clock: expiry and reminders. */
  runDue(): { expired: number; reminded: number };
  /** Finishes background work under way (document processing, evidence). */
  settle(): Promise<void>;
  importTemplate(input: TemplateImport): Promise<DocumentTemplate>;
  createEnvelopeTemplate(spec: unknown, baseDir: string): Promise<EnvelopeTemplate>;
}

/** What `esign serve` does with the engine it serves, beyond the port and the pages. */
interface ServingHost {
  /** Links point here from now on. */
  setPublicUrl(url: string): void;
  /** Tells other processes on this data directory where links open and whether the console is served (and stops telling). */
  announceServing(url: string, serves: { console: boolean }): void;
  stopServing(): void;
  startWebhookDelivery(): Promise<void>;
}

/** The embedded engine as the CLI holds it: the port, what esign serve hosts, and administration. */
export interface LocalBackend extends EsignService, HostedEngine, LocalAdmin, ServingHost {}

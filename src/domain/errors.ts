import type { ErrorCode } from './enums.js';

export interface FieldError {
  field: string;
  message: string;
}

/** The wire Error object: `{code, message, detail, errors: [{field, messsage}]}` (spec's three-s key). */
export interface WireError {
  code: string;
  message: string;
  detail?: string;
  errors?: { field: string; messsage: string; message?: string }[];
}

/**
 * An API failure as the service reports it: HTTP status, error code, message and field errors.
 * `form: 'error'` marks the `{error: "..."}` body some 400s use (e.g. an invalid `include`).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  readonly form: 'object' | 'error';

  constructor(
    status: number,
    code: ErrorCode | string,
    message: string,
    errors: FieldError[] = [],
    form: 'object' | 'error' = 'object',
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.form = form;
  }

  toWire(): WireError | { error: string } {
    if (this.form === 'error') return { error: this.message };
    return {
      code: this.code,
      message: this.message,
      detail: this.message,
      errors: this.errors.map((e) => ({ field: e.field, messsage: e.message, message: e.message })),
    };
  }

  /** Rebuilds an ApiError from a wire body (either form, either spelling of the field message). */
  static fromWire(status: number, body: unknown): ApiError {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (typeof b.error === 'string' && b.code === undefined) {
      return new ApiError(status, status === 400 ? 'invalid' : 'error', b.error, [], 'error');
    }
    const list = Array.isArray(b.errors) ? b.errors : [];
    const errors = list.map((e: Record<string, unknown>) => ({
      field: String(e?.field ?? ''),
      message: String(e?.messsage ?? e?.message ?? ''),
    }));
    const message = String(b.message ?? b.detail ?? `HTTP ${status}`);
    return new ApiError(status, String(b.code ?? 'error'), message, errors);
  }
}

/**
 * The server could not be reached, or the connection broke, after every retry: no answer at all
 * (a door names the URL and where it came from; a wait looks again until its own timeout).
 */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly causeCode?: string,
    /** The address that was asked. */
    readonly url?: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export const badRequest = (message: string, errors: FieldError[] = []) => new ApiError(400, 'invalid', message, errors);
export const notFound = (what: string, id: string) =>
  new ApiError(404, 'not_found', `${what} ${JSON.stringify(id)} was not found.`);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);

/** Collects field errors so one response names every problem in a request. */
export class FieldErrors {
  readonly list: FieldError[] = [];
  add(field: string, message: string): void {
    this.list.push({ field, message });
  }
  get any(): boolean {
    return this.list.length > 0;
  }
  throwIfAny(): void {
    if (!this.any) return;
    const first = this.list[0];
    const more = this.list.length > 1 ? ` (and ${this.list.length - 1} more)` : '';
    throw new ApiError(400, 'invalid', `${first.field}: ${first.message}${more}`, this.list);
  }
}

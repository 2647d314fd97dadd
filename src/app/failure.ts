// A use case's refusal: something about the caller's input or situation, not a bug. Each door says
// it its own way (the CLI as an exit code from its table, MCP as a refused tool call), so `kind`
// names what went wrong and no door's words or codes live here.

export type FailureKind = 'failure' | 'usage' | 'invalid' | 'conflict' | 'mismatch';

export class UseCaseError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind,
  ) {
    super(message);
    this.name = 'UseCaseError';
  }
}

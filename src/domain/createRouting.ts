// Which create a POST /bundles/ body stands for, decided once: by the engine's createBundle (the
// port's createBundle takes either kind, as the wire's POST /bundles/ does; esign serve passes the
// body on). zod-free, so the rule costs nothing to load.

/**
 * A BundleTemplateRequest: the body names `envelope_template` and no documents (absent, or the
 * empty list one published client always sends, docs/wire.md). With documents it is a
 * BundleRequest, which refuses `envelope_template` beside them.
 */
export function isEnvelopeTemplateRequest(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const { envelope_template, documents } = body as { envelope_template?: unknown; documents?: unknown };
  return (
    !!envelope_template &&
    (documents === undefined || documents === null || (Array.isArray(documents) && documents.length === 0))
  );
}

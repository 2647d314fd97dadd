// esign schema [NAME]: the OpenAPI 3.1 document of API v2, or one request type's JSON Schema.
// (The body: schema.run.ts.)
import { declareVerb } from '../../verb.js';

export const schema = declareVerb(
  'schema [name]',
  'Print the OpenAPI 3.1 document of API v2, or the JSON Schema of one request type (e.g. BundleRequest)',
  {
    flags: (c) => c.option('--list', 'list the request type names'),
    examples: ['esign schema > openapi.json', 'esign schema BundleRequest', 'esign schema --list'],
  },
);

// esign schema [NAME]: the OpenAPI 3.1 document of API v2, or one request type's JSON Schema.
import { CliError, EXIT } from '../../exitCodes.js';
import { writeJson } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const schema = defineVerb(
  'schema [name]',
  'Print the OpenAPI 3.1 document of API v2, or the JSON Schema of one request type (e.g. BundleRequest)',
  {
    flags: (c) => c.option('--list', 'list the request type names'),
    examples: ['esign schema > openapi.json', 'esign schema BundleRequest', 'esign schema --list'],
    async run(f, o, name) {
      const { openApiDocument, requestJsonSchema, requestSchemas } = await import('../../../service/openapi.js');
      const names = Object.keys(requestSchemas()).sort();
      if (o.list) return void f.io.out.write(names.map((n) => `${n}\n`).join(''));
      if (!name) return writeJson(f, openApiDocument());
      const schema = requestJsonSchema(name);
      if (!schema) throw new CliError(`No request type "${name}". Known: ${names.join(', ')}.`, EXIT.USAGE);
      writeJson(f, schema);
    },
  },
);

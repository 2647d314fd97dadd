// The body of esign schema (declared in schema.ts): the OpenAPI document loads zod, so it loads here.
import { openApiDocument, requestJsonSchema, requestSchemas } from '../../../service/openapi.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { writeJson } from '../../output/print.js';
import type { Run } from '../../verb.js';
import type { schema } from './schema.js';

export const run: Run<typeof schema> = async (f, o, name) => {
  const names = Object.keys(requestSchemas()).sort();
  if (o.list) return void f.io.out.write(names.map((n) => `${n}\n`).join(''));
  if (!name) return writeJson(f, openApiDocument());
  const schema = requestJsonSchema(name);
  if (!schema) throw new CliError(`No request type "${name}". Known: ${names.join(', ')}.`, EXIT.USAGE);
  writeJson(f, schema);
};

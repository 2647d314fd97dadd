// esign schema [NAME]: the OpenAPI 3.1 document of API v2, or one request type's JSON Schema.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { writeJson } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface SchemaOptions {
  name?: string;
  list?: boolean;
}

export function register(program: Command, action: Action): void {
  program
    .command('schema [name]')
    .description(
      'Print the OpenAPI 3.1 document of API v2, or the JSON Schema of one request type (e.g. BundleRequest)',
    )
    .option('--list', 'list the request type names')
    .action(action(async (f, o: Omit<SchemaOptions, 'name'>, name?: string) => run(f, { ...o, name })));
}

export async function run(f: Factory, o: SchemaOptions): Promise<void> {
  const { openApiDocument, requestJsonSchema, requestSchemas } = await import('../../../service/openapi.js');
  const names = Object.keys(requestSchemas()).sort();
  if (o.list) return void f.io.out.write(names.map((n) => `${n}\n`).join(''));
  if (!o.name) return writeJson(f, openApiDocument());
  const schema = requestJsonSchema(o.name);
  if (!schema) throw new CliError(`No request type "${o.name}". Known: ${names.join(', ')}.`, EXIT.USAGE);
  writeJson(f, schema);
}

// JSON request text as a value, one rule for every JSON body the server reads (a request body, and
// the `bundle_request` field of a multipart create).
import secureJson from 'secure-json-parse';
import { ApiError } from '../service/errors.js';
import { nestedDeeperThan } from './limits.js';

/** JSON text as a value: prototype keys and nesting deeper than the API uses are a parse_error. */
export function parseJson(text: string, maxDepth: number, what = 'Malformed JSON'): unknown {
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (e) {
    throw new ApiError(400, 'parse_error', `${what}: ${(e as Error).message}`);
  }
  if (nestedDeeperThan(value, maxDepth))
    throw new ApiError(400, 'parse_error', `${what}: nested deeper than ${maxDepth} levels.`);
  return value;
}

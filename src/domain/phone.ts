// The one rule for a phone number, wherever one is given: a packet, a packet PATCH, a reassignment,
// a Person's channel, `--signer "Name <phone>"`, `--phone`, a batch row, a spec or an MCP tool.
// Numbers are taken as people type them (the service's own clients send `505 555 5555`): national
// or international, with spaces, dots, hyphens and brackets. Only what holds no possible number is
// refused. The number is kept and answered as written; its E.164 form (read by libphonenumber-js
// with the default country) is what SMS delivery, search and matching use. zod-free, so a flag is
// checked without zod.
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The country a number written without "+" and a country code is read in. The hosted service and
 * its clients' examples are American ("format as: xxx xxx xxxx"); accounts have no country setting.
 */
export const DEFAULT_PHONE_COUNTRY: CountryCode = 'US';

/** What a phone number must look like, as the field error says it. */
export const PHONE_RULE =
  'Enter a phone number: a US number as written (505 555 5555, (505) 555-5555), or "+", the country code and the number (+44 20 7946 0958).';

function parsed(value: string, country: CountryCode) {
  // extract: false: the whole text is the number, not a sentence that contains one.
  const p = parsePhoneNumberFromString(value, { defaultCountry: country, extract: false });
  return p?.isPossible() ? p : undefined;
}

/**
 * "+", a country code and 7 to 15 digits in all, with the same separators: the rule before numbers
 * were read by country. Still taken, so that nothing once accepted is refused (numbering plans
 * change faster than a library's copy of them).
 */
const INTERNATIONAL = /^\+[1-9][0-9]{6,14}$/;
const isInternational = (value: string) => /^\+[0-9 ().-]+$/.test(value) && INTERNATIONAL.test(digitsOf(value));
const digitsOf = (value: string) => value.replace(/[ ().-]/g, '');

/** Whether `value` holds a possible phone number (its length fits the country's numbers). */
export function isPhoneNumber(value: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): boolean {
  return parsed(value, country) !== undefined || isInternational(value);
}

/**
 * The number in E.164 form (`+15055555555`) for delivery, search and matching; a value that holds
 * the library finds no possible number in ("+1 555 0100") is given back without its separators.
 */
export function normalizePhone(value: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string {
  return parsed(value, country)?.number ?? digitsOf(value);
}

/**
 * What a search for a phone looks for within stored numbers: the national number when `value`
 * holds one (so "+1 505-555-5555" finds "505 555 5555"), else `value` without its punctuation.
 */
export function phoneSearchDigits(value: string, country: CountryCode = DEFAULT_PHONE_COUNTRY): string {
  return parsed(value, country)?.nationalNumber ?? digitsOf(value);
}

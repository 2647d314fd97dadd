// The one rule for a phone number, wherever one is given: a packet, a packet PATCH, a reassignment,
// a Person's channel, `--signer "Name <+phone>"`, a batch row or a spec. E.164: "+", the country
// code and the number, 7 to 15 digits in all. Spaces, dots, hyphens and brackets may separate the
// digits for reading; the number is kept as written. zod-free, so a flag is checked without zod.

/** What a phone number must look like, as the field error says it. */
export const PHONE_RULE =
  'Enter a phone number in E.164 form: "+", the country code and the number (7 to 15 digits), e.g. +15551234567.';

const WRITTEN = /^\+[0-9 ().-]+$/;
const DIGITS = /^\+[1-9][0-9]{6,14}$/;

/** Whether `value` is a phone number by the rule above. */
export function isPhoneNumber(value: string): boolean {
  return WRITTEN.test(value) && DIGITS.test(value.replace(/[ ().-]/g, ''));
}

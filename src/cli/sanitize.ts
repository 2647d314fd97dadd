// Text that came from a server is shown on the user's terminal: escape sequences and other control
// characters in it could move the cursor, rewrite earlier lines, retitle the window or hide text.
// They are removed (tabs and newlines stay; printing code decides the lines).

const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_])/g;
// C0 but tab and newline, DEL, C1, and the bidirectional overrides that reorder what is shown.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export function stripControl(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

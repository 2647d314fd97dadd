// The one sanitiser for text that came from outside (a server, a CSV, a webhook sender, serve.json,
// a signer's name) and is shown to a person. On a terminal, escape sequences and other control
// characters could move the cursor, rewrite earlier lines, retitle the window, clear the screen or
// hide text: every command prints such text through one of these; nothing else strips control
// characters. On a page, the same characters (bidi overrides above all, which reorder what is
// shown) are shown as visible marks instead, never applied (visibleControls).

const ESCAPE_SEQUENCE =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[@-Z\\-_])/g;
// C0 but tab and newline, DEL, C1, and the bidirectional overrides that reorder what is shown.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// The same for a page: tab, line feed and carriage return are markup's own white space.
const PAGE_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// What ends or splits a line: one record per line stays one record per line.
const LINE_BREAKS = /[\t\r\n\u2028\u2029]+/g;
// Characters JSON.stringify leaves raw that a terminal may act on (C1 controls, bidi overrides).
const JSON_UNSAFE = /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const asText = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** Text with escape sequences and control characters removed; tabs and newlines stay. */
export function stripControl(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/** A control character as a mark a person can see: C0 and DEL as their control pictures, others as ⟨U+XXXX⟩. */
function mark(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * Text (or a whole HTML page) for a browser: every control character but tab and line breaks, and
 * every bidi override or isolate, shown as a visible mark, so nothing reorders or hides what is shown.
 * The marks hold no character HTML gives a meaning to, so a page's markup is left as it was.
 */
export function visibleControls(text: string): string {
  return text.replace(PAGE_CONTROL, mark);
}

/** Any outside value as one printable line: control characters removed, tabs and line breaks as a space. */
export function safeLine(v: unknown): string {
  return stripControl(asText(v).replace(LINE_BREAKS, ' '));
}

/**
 * An outside URL as it may be shown: an http(s) URL in the WHATWG parser's form (which drops tabs and
 * newlines and percent-encodes other controls), or undefined when it is not one.
 */
export function safeUrl(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  try {
    const u = new URL(v);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    // The parser adds a "/" to a bare origin; the origin is shown as it was written.
    const bare = u.pathname === '/' && !u.search && !u.hash && !v.trimEnd().endsWith('/');
    return stripControl(bare ? u.href.slice(0, -1) : u.href);
  } catch {
    return undefined;
  }
}

/** JSON for a terminal: the same value, with the characters JSON.stringify leaves raw escaped as \uXXXX. */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

// What could close or open a tag around a tool's answer, or start an entity, in an agent's context.
const MARKUP = /[<>&\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/**
 * JSON for an agent's context: the same value (JSON.parse gives it back), every string one quoted
 * line, and no character that could read as markup (`</tool_result>` becomes `\u003c/tool_result\u003e`),
 * break a line or reorder what is shown.
 */
export function agentJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    MARKUP,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

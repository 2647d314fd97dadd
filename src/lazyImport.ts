// Packages loaded on demand: the one place a package (or the port's zod schemas) is imported lazily
// (a verb's own modules load through the verb seam, src/cli/verb.ts; .dependency-cruiser.cjs holds
// it for src/cli and src/wiring). What is here costs start-up time every command would pay, and most
// commands never need: the HTTP client, PDF work, colour, tables, spinners, prompts,
// the profile store, zod. The build leaves CommonJS packages to Node (scripts/build.mjs),
// so an `import()` of a CommonJS package has Node's own shape (named exports and `default`) in the
// shipped program as under the test runner; test/cli/shipped-build.test.ts holds that.

// Each promise is kept: an import() of a package already loaded still resolves its name again (its
// package.json read, its path made real), about 50 µs a call, and the webhook dispatcher asks once
// per delivery.
let undici: Promise<typeof import('undici')> | undefined;
let pdfLib: Promise<typeof import('pdf-lib')> | undefined;

export const loadUndici = (): Promise<typeof import('undici')> => (undici ??= import('undici'));

export const loadPdfLib = (): Promise<typeof import('pdf-lib')> => (pdfLib ??= import('pdf-lib'));

/** Fonts for evidence in every script: fontkit reads them, bidi-js orders right-to-left text. */
let fontkit: Promise<typeof import('fontkit')> | undefined;
export const loadFontkit = (): Promise<typeof import('fontkit')> => (fontkit ??= import('fontkit'));

export const loadBidi = () => import('bidi-js');

export const loadWawoff2 = () => import('wawoff2');

export const loadChalk = () => import('chalk');

export const loadStringWidth = () => import('string-width');

/** The zip of a Bundle's files (`bundle files --zip`, the console's "download all"). */
export const loadYazl = () => import('yazl');

export const loadOra = () => import('ora');

export const loadPrompts = () => import('@inquirer/prompts');

export const loadConf = () => import('conf');

export const loadEnvPaths = () => import('env-paths');

export const loadZod = () => import('zod');

/** The one rule for a phone number (libphonenumber-js with it), for a verb that checks a --phone flag. */
export const loadPhoneRule = () => import('./domain/phone.js');

/** The port's request schemas (zod with them), for a verb that checks a flag's value before sending. */
export const loadSchemas = () => import('./domain/schemas.js');

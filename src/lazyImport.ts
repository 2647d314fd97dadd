// Packages loaded on demand. The build leaves CommonJS packages to Node (scripts/build.mjs), so an
// `import()` of a CommonJS package has Node's own shape (named exports and `default`) in the
// shipped program as under the test runner; test/cli/shipped-build.test.ts holds that.

// Each promise is kept: an import() of a package already loaded still resolves its name again (its
// package.json read, its path made real), about 50 µs a call, and the webhook dispatcher asks once
// per delivery.
let undici: Promise<typeof import('undici')> | undefined;
let pdfLib: Promise<typeof import('pdf-lib')> | undefined;

export const loadUndici = (): Promise<typeof import('undici')> => (undici ??= import('undici'));

export const loadPdfLib = (): Promise<typeof import('pdf-lib')> => (pdfLib ??= import('pdf-lib'));

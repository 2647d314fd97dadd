// Packages loaded on demand. The build leaves CommonJS packages to Node (scripts/build.mjs), so an
// `import()` of a CommonJS package has Node's own shape (named exports and `default`) in the
// shipped program as under the test runner; test/cli/shipped-build.test.ts holds that.

export const loadUndici = (): Promise<typeof import('undici')> => import('undici');

export const loadPdfLib = (): Promise<typeof import('pdf-lib')> => import('pdf-lib');

// Types of suiteDir.mjs, for the suite's global setup.
export function makeSuiteDir(): string;
export function inSuiteDir(): boolean;

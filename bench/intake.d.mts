// Types of intake.mjs, for the test that sends its documents.
export function largeSoundPdf(bytes: number): Buffer;
export function formPdf(n: number): Buffer;
export function largeDocx(bytes: number): Buffer;
export function intake(opts?: { only?: string; rounds?: number }): Promise<void>;

// A run's results for people (a summary per file and step, with timings, and for a failed step the
// expectation, what was there and the step's answer), for programs (--json) and for CI systems
// (--junit: JUnit XML, one testsuite per file and one testcase per step).
import { XMLBuilder } from 'fast-xml-parser';
import { safeJson, stripControl } from '../app/sanitize.js';
import type { FileResult, StepResult } from './runner.js';

/** How much of a step's answer a failure shows. */
const ANSWER_CHARS = 2000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const clip = (text: string, n = ANSWER_CHARS) =>
  text.length > n ? `${text.slice(0, n)}… (${text.length} characters)` : text;
const json = (v: unknown, indent?: number) => (v === undefined ? 'nothing' : safeJson(v, indent));

/** The lines under a failed step: where, why, expected, actual, and the step's answer. */
function failureLines(r: StepResult, file: string): string[] {
  if (!r.failure) return [];
  const lines = [`error:    ${stripControl(r.failure.message)}`];
  if (r.line) lines.push(`at:       ${stripControl(file)}:${r.line}`);
  if ('expected' in r.failure) lines.push(`expected: ${clip(json(r.failure.expected), 500)}`);
  if ('actual' in r.failure) lines.push(`actual:   ${clip(json(r.failure.actual), 500)}`);
  if (r.answer !== undefined) lines.push(`answer:   ${clip(json(r.answer))}`);
  return lines;
}

const MARK = { passed: 'ok  ', failed: 'FAIL', skipped: 'skip' } as const;

/** `3.` for the third step, `setup 1.` for the first setup item: as check and the file's places number them. */
const numberOf = (s: StepResult) => `${s.setup ? 'setup ' : ''}${s.index + 1}.`;

/** One file's summary: its outcome, then each step with its time. */
export function summaryLines(f: FileResult): string[] {
  const width = Math.min(40, Math.max(8, ...f.steps.map((s) => s.label.length)));
  if (f.problems)
    return [
      `FAIL ${stripControl(f.file)}  ${stripControl(f.title)}  (nothing of it ran)`,
      ...f.problems.map((p) => `  ${stripControl(p)}`),
    ];
  const lines = [
    `${f.status === 'passed' ? 'PASS' : 'FAIL'} ${f.file}  ${stripControl(f.title)}  (${f.backend}, ${seconds(f.ms)})`,
  ];
  const numbers = Math.max(...f.steps.map((s) => numberOf(s).length));
  for (const s of f.steps) {
    const time = s.status === 'skipped' ? '' : `${s.ms} ms`;
    const n = numberOf(s).padEnd(numbers);
    lines.push(
      `  ${MARK[s.status]} ${n} ${stripControl(s.label).padEnd(width)}  ${s.action.padEnd(8)}  ${time}`.trimEnd(),
    );
    for (const l of failureLines(s, f.file)) lines.push(`         ${l}`);
  }
  return lines;
}

export function totalsLine(files: FileResult[], ms: number): string {
  const failed = files.filter((f) => f.status === 'failed').length;
  const notRun = files.filter((f) => f.problems).length;
  const steps = files.flatMap((f) => f.steps);
  const count = (st: StepResult['status']) => steps.filter((s) => s.status === st).length;
  return (
    `${files.length} file${files.length === 1 ? '' : 's'}: ${files.length - failed} passed, ${failed} failed` +
    `${notRun ? ` (${notRun} not run)` : ''}; ` +
    `${steps.length} steps: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped (${seconds(ms)})`
  );
}

/** What --json prints: every file with every step, answers included. */
export const jsonReport = (files: FileResult[], ms: number) => ({
  passed: files.every((f) => f.status === 'passed'),
  ms,
  files,
});

/** The one testcase of a file none of whose steps ran: failed, with the reasons. */
const notRunCase = (f: FileResult) => ({
  '@_name': 'the file',
  '@_classname': stripControl(f.title),
  '@_file': stripControl(f.file),
  '@_time': '0.000',
  failure: {
    '@_message': stripControl(f.problems![0] ?? 'not run'),
    '@_type': 'NotRun',
    '#text': stripControl(f.problems!.join('\n')),
  },
});

/** JUnit XML: a testsuite per file, a testcase per step (failure: the message and details; skipped). */
export function junitXml(files: FileResult[], ms: number): string {
  const text = (s: string) => stripControl(s);
  const suites = files.map((f) => ({
    '@_name': text(f.title),
    '@_file': text(f.file),
    '@_tests': f.problems ? 1 : f.steps.length,
    '@_failures': f.problems ? 1 : f.steps.filter((s) => s.status === 'failed').length,
    '@_errors': 0,
    '@_skipped': f.steps.filter((s) => s.status === 'skipped').length,
    // The JUnit schema's form: to the second, no zone (UTC here).
    ...(f.started_at ? { '@_timestamp': f.started_at.slice(0, 19) } : {}),
    '@_time': (f.ms / 1000).toFixed(3),
    properties: { property: [{ '@_name': 'backend', '@_value': text(f.backend) }] },
    testcase: f.problems
      ? [notRunCase(f)]
      : f.steps.map((s) => ({
          '@_name': text(`${numberOf(s)} ${s.label}`),
          '@_classname': text(f.title),
          '@_time': (s.ms / 1000).toFixed(3),
          ...(s.line ? { '@_file': text(f.file), '@_line': s.line } : {}),
          ...(s.status === 'skipped' ? { skipped: { '@_message': 'an earlier step failed' } } : {}),
          ...(s.status === 'failed'
            ? {
                failure: {
                  '@_message': text(s.failure!.message),
                  '@_type': 'AssertionFailed',
                  '#text': text(failureLines(s, f.file).join('\n')),
                },
              }
            : {}),
        })),
  }));
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    suppressEmptyNode: true,
  });
  const steps = files.flatMap((f) => (f.problems ? [{ status: 'failed' }] : f.steps));
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({
    testsuites: {
      '@_name': 'esign scenario',
      '@_tests': steps.length,
      '@_failures': steps.filter((s) => s.status === 'failed').length,
      '@_errors': 0,
      '@_skipped': steps.filter((s) => s.status === 'skipped').length,
      '@_time': (ms / 1000).toFixed(3),
      testsuite: suites,
    },
  })}`;
}

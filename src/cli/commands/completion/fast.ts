// `esign __complete` without the program (bin/esign.js comes here first): the tree and the API's
// operations are read from dist/completion.json, written by the build from the program itself.
// What needs more (profile names, ids from the engine) is handed to the full program: `false`.
import { readFileSync } from 'node:fs';
import { type ApiOperation, type CompletionSources, candidateLines, complete, linked } from './complete.js';
import type { TreeNode } from './tree.js';

export interface CompletionFile {
  tree: TreeNode;
  operations: ApiOperation[];
}

class NeedsProgram extends Error {}

/** Answers `words` (after `__complete`, a leading `--` dropped) on `out`; false when the full program must. */
export async function completeFast(manifest: URL, words: string[], out: (text: string) => void): Promise<boolean> {
  let file: CompletionFile;
  try {
    file = JSON.parse(readFileSync(manifest, 'utf8')) as CompletionFile;
  } catch {
    return false;
  }
  const sources: CompletionSources = {
    profiles: () => Promise.reject(new NeedsProgram()),
    ids: () => Promise.reject(new NeedsProgram()),
    operations: async () => file.operations,
  };
  const given = words[0] === '--' ? words.slice(1) : words;
  try {
    out(candidateLines(await complete(sources, linked(file.tree), given.length ? given : [''])));
    return true;
  } catch (e) {
    if (e instanceof NeedsProgram) return false;
    throw e;
  }
}

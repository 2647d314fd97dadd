// The one decision on colour and style (bold too): none when NO_COLOR is set (no-color.org: present
// and not empty; it wins over FORCE_COLOR), FORCE_COLOR's level when set, else only on a terminal.
import type { ChalkInstance } from 'chalk';
import { loadChalk } from '../../lazyImport.js';

type ColourLevel = 0 | 1 | 2 | 3;

function colourLevel(env: NodeJS.ProcessEnv, stream: { readonly isTTY: boolean }, detected: number): ColourLevel {
  if (env.NO_COLOR) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0;
    const n = Number(force);
    return (Number.isInteger(n) && n >= 1 && n <= 3 ? n : 1) as ColourLevel;
  }
  if (!stream.isTTY) return 0;
  return Math.min(3, Math.max(1, detected)) as ColourLevel;
}

/** A chalk for writing to `stream` of this run (its own env: in-process tests pass theirs). */
export async function colourFor(env: NodeJS.ProcessEnv, stream: { readonly isTTY: boolean }): Promise<ChalkInstance> {
  const { Chalk, supportsColor } = await loadChalk();
  return new Chalk({ level: colourLevel(env, stream, supportsColor ? supportsColor.level : 1) });
}

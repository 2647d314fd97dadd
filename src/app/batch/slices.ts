// Work over many rows in slices: after each slice of SLICE_MS the event loop turns, so a server
// working through one caller's CSV answers others meanwhile (a row's build and check are
// synchronous, and a stream's async iteration alone never yields to I/O).

/** How long a slice of row work runs before others get a turn. */
const SLICE_MS = 20;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A function to await before each row: it turns the event loop once a slice has run; `onTurn` hears each turn. */
export function sliced(onTurn?: () => void): () => Promise<void> {
  let start = performance.now();
  return async () => {
    if (performance.now() - start <= SLICE_MS) return;
    onTurn?.();
    await turn();
    start = performance.now();
  };
}

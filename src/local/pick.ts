/** The named members of `o`, in the order named (an API object's members keep the order the spec gives them). */
export function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = o[k];
  return out;
}

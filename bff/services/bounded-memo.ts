/**
 * A function of one string, remembered for up to `max` arguments. The BFF's hot path sees the
 * same URLs, hosts and header values again and again, and parsing them again costs more than a
 * Map lookup. When full it forgets everything at once: cheaper per hit than an LRU's bookkeeping,
 * and the arguments still in use come back on their next call. Arguments longer than
 * `maxLength` are computed each time, so a stranger's long headers cannot fill memory (at most
 * `max` x `maxLength` characters are kept). Never give it a secret (a password): the arguments
 * are kept as they are.
 */
export function boundedMemo<T>(
  compute: (input: string) => T,
  { max = 4096, maxLength = 1024 } = {},
): (input: string) => T {
  let known = new Map<string, T>();
  return (input) => {
    if (input.length > maxLength) return compute(input);
    const value = known.get(input);
    if (value !== undefined || known.has(input)) return value as T;
    if (known.size >= max) known = new Map();
    const computed = compute(input);
    known.set(input, computed);
    return computed;
  };
}

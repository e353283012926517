/** Running many requests of one apply or lookup: fast for large sets, gentle on the service. */

/** How many requests of one batch run at once. */
export const CONCURRENCY = 4;

/** Runs `task` for every item, at most {@link CONCURRENCY} at a time; never stops early. */
export async function forEachConcurrently<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}

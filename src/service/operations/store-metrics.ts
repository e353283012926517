/**
 * Store call latency for the metrics: a view of a {@link Store} that times every asynchronous
 * method call into {@link OperationsMetrics.observeStoreCall}, labelled by the method's name (a
 * fixed set). Everything else passes through untouched: `cachedRealmSettings` answers from memory
 * without the database, and `close` is not a query.
 */
import type { Store } from '../store/store';
import type { OperationsMetrics } from './metrics';

/** Store methods that are not database calls. */
const UNTIMED = new Set<PropertyKey>(['cachedRealmSettings', 'close']);

/** `store`, with each database call timed into `metrics` (see the module comment). */
export function timedStore(store: Store, metrics: OperationsMetrics): Store {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || UNTIMED.has(property) || typeof property !== 'string') return value;
      let timed = wrapped.get(property);
      if (timed === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        timed = function timedCall(...args: unknown[]): unknown {
          const started = performance.now();
          const result = method.apply(target, args);
          if (result instanceof Promise) {
            const record = (): void => metrics.observeStoreCall(property, (performance.now() - started) / 1000);
            result.then(record, record);
          }
          return result;
        };
        wrapped.set(property, timed);
      }
      return timed;
    },
  });
}

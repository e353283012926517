/**
 * "Events were recorded": how a store tells this process's delivery worker to look at the outbox
 * without waiting for its next poll. Many writes in one turn of the event loop make one call.
 */
export class RecordedSignal {
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  /** Calls every listener once, after the current turn (so after the writing transaction's commit). */
  notify(): void {
    if (this.scheduled || this.listeners.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const listener of this.listeners) listener();
    });
  }

  /** Adds a listener; returns a function that removes it. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

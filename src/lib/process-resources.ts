// What a process keeps between requests and jobs — thread pools, caches — held by its context rather than by module
// globals: made on first use, one per context, and closed with it (in reverse order of making) at shutdown.

interface Held {
  value: unknown;
  close?: () => Promise<void> | void;
}

export class ProcessResources {
  private readonly held = new Map<symbol, Held>();
  private closed = false;

  /** The resource under `key`, made by `make` on first use; `close` runs at shutdown. */
  of<T>(key: symbol, make: () => T, close?: (value: T) => Promise<void> | void): T {
    const hit = this.held.get(key);
    if (hit) return hit.value as T;
    if (this.closed) throw new Error(`${key.description ?? 'a resource'} is wanted after its process closed`);
    const value = make();
    this.held.set(key, { value, ...(close ? { close: () => close(value) } : {}) });
    return value;
  }

  /** Closes every resource made, latest first; later calls do nothing. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.held.values()].reverse();
    this.held.clear();
    for (const item of all) await item.close?.();
  }
}

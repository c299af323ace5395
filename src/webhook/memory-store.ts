/**
 * The default idempotency store: one process's memory, bounded and expiring. It is enough for a
 * single receiver instance; several instances need a shared store (see IdempotencyStore).
 */
import type { IdempotencyClaim, IdempotencyStore } from './store';

/** Options of MemoryIdempotencyStore. */
export interface MemoryIdempotencyStoreOptions {
  /**
   * Most keys held; beyond it the oldest entries are dropped first (expired ones, then the
   * least recently written), so a flood of distinct notifications cannot exhaust memory.
   * @default 10000
   */
  maxEntries?: number;
  /**
   * Clock in milliseconds, for tests of expiry.
   * @default Date.now
   */
  now?: () => number;
}

interface Entry {
  state: 'in-progress' | 'completed';
  expiresAt: number;
}

/** A bounded in-memory IdempotencyStore whose claims and completions expire. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    const maxEntries = options.maxEntries ?? 10_000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(
        `servicepay: MemoryIdempotencyStore maxEntries must be a positive integer, got ${maxEntries}.`,
      );
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
  }

  /** Number of keys held, expired ones included until they are dropped. */
  get size(): number {
    return this.#entries.size;
  }

  claim(key: string, ttlMs: number): IdempotencyClaim {
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expiresAt > now) return entry.state;
    this.#write(key, { state: 'in-progress', expiresAt: now + ttlMs }, now);
    return 'claimed';
  }

  complete(key: string, ttlMs: number): void {
    const now = this.#now();
    this.#write(key, { state: 'completed', expiresAt: now + ttlMs }, now);
  }

  release(key: string): void {
    if (this.#entries.get(key)?.state === 'in-progress') this.#entries.delete(key);
  }

  #write(key: string, entry: Entry, now: number): void {
    // Delete first so the key moves to the end of the Map's insertion order.
    this.#entries.delete(key);
    this.#makeRoom(now);
    this.#entries.set(key, entry);
  }

  /**
   * Entries are written with similar lifetimes, so insertion order approximates expiry order:
   * dropping from the head is O(1) per write and never scans the whole map.
   */
  #makeRoom(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size < this.#maxEntries && entry.expiresAt > now) return;
      this.#entries.delete(key);
    }
  }
}

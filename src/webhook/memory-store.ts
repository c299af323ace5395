/**
 * The default idempotency store: one process's memory, bounded and expiring. It is enough for a
 * single receiver instance; several instances need a shared store (see IdempotencyStore).
 */
import { COMPLETED_CLAIM, IN_PROGRESS_CLAIM } from './store';
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
  /** The owning claim's token while in progress; null once completed. */
  token: string | null;
  expiresAt: number;
}

/** A bounded in-memory IdempotencyStore whose claims and completions expire. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Claims taken so far: a token is the claim's number, unique within this store. */
  #claims = 0;

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
    if (entry !== undefined && entry.expiresAt > now) {
      return entry.token === null ? COMPLETED_CLAIM : IN_PROGRESS_CLAIM;
    }
    const token = String(++this.#claims);
    this.#write(key, { token, expiresAt: now + ttlMs }, now);
    return { state: 'claimed', token };
  }

  renew(key: string, token: string, ttlMs: number): boolean {
    const now = this.#now();
    const entry = this.#owned(key, token, now);
    if (entry === undefined) return false;
    this.#write(key, { token, expiresAt: now + ttlMs }, now);
    return true;
  }

  complete(key: string, token: string, ttlMs: number): boolean {
    const now = this.#now();
    if (this.#owned(key, token, now) === undefined) return false;
    this.#write(key, { token: null, expiresAt: now + ttlMs }, now);
    return true;
  }

  release(key: string, token: string): boolean {
    if (this.#owned(key, token, this.#now()) === undefined) return false;
    this.#entries.delete(key);
    return true;
  }

  /** The entry of `key` if `token` holds its unexpired claim. */
  #owned(key: string, token: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.token === token && entry.expiresAt > now
      ? entry
      : undefined;
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

/**
 * The listening half both shared stores (postgres-outcomes.ts, redis-outcomes.ts) have in common:
 * ONE connection per store, opened when the first subscriber arrives and ended when nobody waits
 * (or on close()); when it is lost while somebody waits, another is opened with bounded backoff
 * and the outcome of every waiting payment re-read, so an outcome announced in the gap, to
 * nobody, is found there.
 *
 * A connection can also die without a word (a NAT or load balancer dropping an idle flow, a
 * frozen peer): no FIN, no RST, no event, and every notification on it is lost. So the live
 * connection is checked: every `checkMs` a round trip on it (driver.ping) that must answer
 * within half of that; opening one (connect and subscribe) must take at most `checkMs`. A
 * connection failing its check is lost as a visible loss is, and replaced; by default (10 s) a
 * dead listener is noticed within 15 s and replaced within 25. While another cannot be opened,
 * every waiting subscriber's onLost is called (the `outcome-reconnect` duty, kit/rules.ts).
 */
import type { OutcomeListener } from './outcomes';
import { OutcomeListeners } from './outcomes';
import { checkOption, TIMER_MS } from '../option-checks';
import { prefixed } from '../prefixed';

/** One connection a store listens for outcomes on, or the attempt to open one. */
export interface ListeningConnection {
  /** Settles once the subscription is live (and a gap re-read), or the attempt failed. */
  ready: Promise<void>;
  /** Lost, idle or closed: its events no longer count. */
  over: boolean;
}

/** What differs between stores: how a connection is opened, checked, ended and read around. */
export interface ListeningDriver<C extends ListeningConnection> {
  /** A new connection record, not yet connecting; `lost(error)` is what its events call. */
  create(lost: (error?: unknown) => void): C;
  /** Connects and subscribes; `wanted()` throws once the connection was closed or left meanwhile. */
  connect(connection: C, wanted: () => void): Promise<void>;
  /** A round trip on the live connection: settles when the server answered. */
  ping(connection: C): Promise<unknown>;
  /** Gives the connection back or closes it (may be called again for one already over). */
  end(connection: C, how: 'idle' | 'close' | 'lost', error?: unknown): void;
  /** Reads the outcome of each waiting payment and delivers those recorded. */
  reread(waiting: string[], listeners: OutcomeListeners): Promise<void>;
  /** Between two checks of the live connection (listenerCheckMs). @default 10000 */
  checkMs?: number;
}

/** The default of the stores' listenerCheckMs. */
export const LISTENER_CHECK_MS = 10_000;
const MAX_BACKOFF_MS = 5000;
const CLOSED = prefixed(
  'subscribeOutcome was called after the store was closed (close()). Subscribe before closing it, or create a new store.',
);

/** `listenerCheckMs` as given to `entry`, checked, or the default. */
export function listenerCheckMs(value: unknown, entry: string): number {
  return checkOption(entry, 'listenerCheckMs', value, LISTENER_CHECK_MS, TIMER_MS);
}

/** Settles as `work` does, or rejects with `message` after `ms`. */
export function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The listening connection of one store (see the module comment). */
export class OutcomeListening<C extends ListeningConnection> {
  listeners = new OutcomeListeners();
  readonly #driver: ListeningDriver<C>;
  /** Between two checks; it bounds an opening, and half of it a check. */
  readonly #checkMs: number;
  #current: C | undefined;
  #closed = false;
  /** Set when a connection was lost while somebody waited: re-read on the next one. */
  #gap = false;
  #retries = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #checkTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(driver: ListeningDriver<C>) {
    this.#driver = driver;
    this.#checkMs = driver.checkMs ?? LISTENER_CHECK_MS;
  }

  get current(): C | undefined {
    return this.#current;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** How long a round trip on the listening connection may take. */
  get timeoutMs(): number {
    return this.#checkMs / 2;
  }

  /** Delivers the outcomes recorded for every waiting payment. */
  reread(): Promise<void> {
    const waiting = this.listeners.waiting();
    return waiting.length === 0 ? Promise.resolve() : this.#driver.reread(waiting, this.listeners);
  }

  async subscribe(
    paymentId: string,
    listener: OutcomeListener,
    onLost?: () => void,
  ): Promise<() => void> {
    if (this.#closed) throw new Error(CLOSED);
    const remove = this.listeners.add(paymentId, listener, onLost);
    this.#current ??= this.#open();
    try {
      await this.#current.ready;
    } catch (error) {
      remove();
      this.#idle();
      throw error;
    }
    return () => {
      remove();
      this.#idle();
    };
  }

  /** Ends `connection` (marked over, no longer current). */
  finish(connection: C, how: 'idle' | 'close' | 'lost', error?: unknown): void {
    connection.over = true;
    if (this.#current === connection) {
      this.#current = undefined;
      clearTimeout(this.#checkTimer);
    }
    this.#driver.end(connection, how, error);
  }

  /** A live connection was lost: another, and a re-read, while anybody waits. */
  lost(connection: C, error?: unknown): void {
    if (connection.over) return;
    this.finish(connection, 'lost', error);
    if (this.listeners.size > 0) {
      this.#gap = true;
      this.#retryLater();
    }
  }

  close(): void {
    this.#closed = true;
    this.listeners = new OutcomeListeners();
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#current !== undefined) this.finish(this.#current, 'close');
  }

  #open(): C {
    const connection = this.#driver.create((error) => this.lost(connection, error));
    const wanted = (): void => {
      if (!connection.over) return;
      throw new Error(
        this.#closed
          ? CLOSED
          : prefixed(
              'the connection listening for outcomes was lost or closed while subscribing; subscribe again.',
            ),
      );
    };
    const opening = this.#driver.connect(connection, wanted);
    opening.catch(() => {}); // Abandoned when late: its failure is no one's.
    connection.ready = (async () => {
      try {
        await within(
          opening,
          this.#checkMs,
          prefixed(
            `the store could not listen for payment outcomes: connecting and subscribing took over ${this.#checkMs} ms (listenerCheckMs).`,
          ),
        );
        wanted();
        this.#retries = 0;
        if (this.#gap) {
          await this.reread();
          wanted();
          this.#gap = false;
        }
      } catch (error) {
        // Closed or left meanwhile: say that, rather than how the connection ended.
        wanted();
        throw error;
      }
      this.#check(connection);
    })();
    connection.ready.catch((error: unknown) => {
      if (connection.over) return;
      this.finish(connection, 'lost', error);
      if (!this.#gap) return;
      // Subscribers wait on a channel that cannot deliver now: tell them, then try again.
      this.listeners.lost();
      this.#retryLater();
    });
    return connection;
  }

  /** Checks the live connection with a round trip every checkMs; one that fails is lost. */
  #check(connection: C): void {
    clearTimeout(this.#checkTimer);
    this.#checkTimer = setTimeout(() => {
      if (connection.over) return;
      within(
        this.#driver.ping(connection),
        this.timeoutMs,
        prefixed(
          `the connection listening for outcomes did not answer a check within ${this.timeoutMs} ms; it is replaced.`,
        ),
      ).then(
        () => this.#check(connection),
        (error: unknown) => this.lost(connection, error),
      );
    }, this.#checkMs);
    // Never what keeps a process alive.
    (this.#checkTimer as { unref?: () => void }).unref?.();
  }

  /** Opens a connection again after a bounded, growing pause, while anybody waits. */
  #retryLater(): void {
    if (this.#closed || this.#retryTimer !== undefined) return;
    const pause = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.#retries++);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (!this.#closed && this.listeners.size > 0 && this.#current === undefined) {
        this.#current = this.#open();
      }
    }, pause);
    (this.#retryTimer as { unref?: () => void }).unref?.();
  }

  /** After the last subscriber left: nobody to re-read for, and the connection goes back. */
  #idle(): void {
    if (this.listeners.size > 0) return;
    this.#gap = false;
    this.#retries = 0;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#current !== undefined) this.finish(this.#current, 'idle');
  }
}

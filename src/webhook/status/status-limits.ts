/**
 * The status endpoint's bounds (status.ts decides with them): how many event streams it holds,
 * in all and per client, and how big an answer with `expose`'s fields may be.
 */
import { encodeStatusAnswer, MAX_STATUS_ANSWER_BYTES } from '../../core/protocol';
import type { PaymentStatus } from '../../core/protocol';
import { WebhookConfigError } from '../errors';
import { checkOption, integerFrom } from '../option-checks';

/**
 * Streams one client may hold at once by default: a shopper's tab holds one, a household or an
 * office behind one address a few. A client refused a stream polls instead, so a low figure
 * costs a shared address nothing but a little latency.
 */
export const MAX_STREAMS_PER_CLIENT = 20;

/** The stream places taken, in all and per client; every `take` is given back once. */
export interface StreamSlots {
  /** Takes a place for `client` (undefined: counted only in the total), or false when full. */
  take(client: string | undefined): boolean;
  give(client: string | undefined): void;
}

export function createStreamSlots(max: number, maxPerClient: number): StreamSlots {
  let total = 0;
  const perClient = new Map<string, number>();
  return {
    take(client) {
      const held = client === undefined ? 0 : (perClient.get(client) ?? 0);
      if (total >= max || held >= maxPerClient) return false;
      total++;
      if (client !== undefined) perClient.set(client, held + 1);
      return true;
    },
    give(client) {
      total--;
      if (client === undefined) return;
      const held = (perClient.get(client) ?? 1) - 1;
      // Only clients that hold a stream are kept: the map stays as small as the open streams.
      if (held > 0) perClient.set(client, held);
      else perClient.delete(client);
    },
  };
}

/**
 * A client as its connection's remote address says: IPv4 as is (also when mapped into IPv6),
 * IPv6 by its /64, the block one subscriber usually gets, so that rotating addresses within it
 * does not make one client many.
 */
export function clientOfAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [
    ...left,
    ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'),
    ...right,
  ];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The answer for a final status with `expose`'s fields: within MAX_STATUS_ANSWER_BYTES, which
 * the return page reads at most (it drops a longer answer, and the shopper would see "not
 * heard"), else the status alone, with a report naming the bound. Fields that are no JSON
 * (a cycle, a BigInt) also leave the status alone.
 */
export function exposedAnswer(
  status: PaymentStatus,
  extra: Record<string, unknown> | undefined,
  report: (error: unknown) => void,
  entry: string,
): string {
  if (extra === undefined) return encodeStatusAnswer(status);
  let body: string;
  try {
    body = encodeStatusAnswer(status, extra);
  } catch (error) {
    report(error);
    return encodeStatusAnswer(status);
  }
  const bytes = new TextEncoder().encode(body).length;
  if (bytes <= MAX_STATUS_ANSWER_BYTES) return body;
  report(
    new WebhookConfigError(
      `${entry} expose returned fields that make the answer ${bytes} bytes; the return page reads at most ${MAX_STATUS_ANSWER_BYTES}, so the status was sent without them. Expose fewer or shorter fields.`,
      'expose',
    ),
  );
  return encodeStatusAnswer(status);
}

/** An option that must be a positive integer, or its default. */
export function positiveInteger(
  value: number | undefined,
  fallback: number,
  option: string,
  entry: string,
): number {
  return checkOption(entry, option, value, fallback, integerFrom(1));
}

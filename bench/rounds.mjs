// What the speed benches share (not a bench: run.mjs runs only *.bench.mjs). These machines are
// shared and noisy, so ours and its baseline are measured side by side in short rounds whose
// order rotates and turns round, the figures are medians of the rounds, and the ratio is the
// median of the per-round ratios (each round pairs neighbouring measurements, so a burst of
// load elsewhere affects both).

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Calls `measure(kind)` for every kind in each of `rounds` rounds, in an order that favours
 * none: each order twice, forwards then backwards, then rotated by one (two kinds: A B, B A,
 * B A, A B, ...). So every kind goes first as often as any other, and every kind precedes each
 * other kind as often as it follows it. Decision (issue w48): rotation alone kept each kind's
 * neighbours, so of the receiver's five servers the bare baseline ran just before ours in four
 * rounds of five, and whatever one measurement leaves behind (its sockets closing, its
 * garbage collected on the process's shared threads) fell on the next one in the same order.
 * The figures by kind, in round order.
 */
export async function rotatingRounds(kinds, rounds, measure) {
  const figures = Object.fromEntries(kinds.map((kind) => [kind, []]));
  for (let round = 0; round < rounds; round++) {
    const first = round >> 1;
    const order = kinds.map((_, i) => kinds[(first + i) % kinds.length]);
    if (round % 2 === 1) order.reverse();
    for (const kind of order) figures[kind].push(await measure(kind));
  }
  return figures;
}

/**
 * A row of rates (higher is better) beside its baseline's, measured in the same rounds; with
 * no budget it is a reference figure.
 */
export function rateRow(name, unit, oursRates, baseRates, budget) {
  const value = Math.round(median(oursRates));
  const baseline = Math.round(median(baseRates));
  const ratio = median(oursRates.map((ours, i) => ours / baseRates[i]));
  if (budget === undefined) return { name, unit, value, baseline, ratio };
  return { name, unit, value, baseline, ratio, budget: `ratio >= ${budget}`, ok: ratio >= budget };
}

/**
 * Requests/second of autocannon sending one signed webhook (PUT) to a loopback server. An
 * answer other than 2xx fails the bench: a 401, or a 503 from a store that failed, would be
 * fast for the wrong reason.
 */
export async function webhookLoad(options) {
  const { requests, seconds } = await webhookRun(options);
  return requests / seconds;
}

/** The requests answered and the seconds taken by one such run of autocannon. */
export async function webhookRun({ what, port, authorization, body, connections, seconds }) {
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/webhook`,
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `${what} answered ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { requests: result.requests.total, seconds: (result.finish - result.start) / 1000 };
}

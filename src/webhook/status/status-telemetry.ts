/**
 * The status endpoint's traces and metrics (telemetry.ts has the API and the instruments): a
 * span `servicepay.status.request` per answer, JSON or stream, a stream's ending when it ends
 * with the last status it sent; the open streams; the store's calls and how long a recorded
 * outcome took to reach its waiting stream. Only the payment id of the query (checked by
 * isPaymentId) and the status leave in attributes, never a body beyond it.
 */
import { decodeStatusAnswer } from '../../core/protocol';
import type { PaymentStatusHandlerOptions, StatusAnswer, StatusCore, StreamSink } from './status';
import { createTelemetry, failSpan, observeStore } from '../telemetry';
import type { Telemetry, TelemetrySpan } from '../telemetry';

export type { TelemetryOptions } from '../telemetry';

const DATA = 'data: ';

/**
 * `create` (status.ts's createStatusCore) observed: its core, with traces and metrics when the
 * options carry `telemetry`; exactly its core when they do not.
 * @throws WebhookConfigError as `create` does, or when `telemetry` is not the OpenTelemetry API.
 */
export function observed(
  create: (options: PaymentStatusHandlerOptions, entry: string) => StatusCore,
): (options: PaymentStatusHandlerOptions, entry: string) => StatusCore {
  return (options, entry) => {
    const telemetry = createTelemetry(options?.telemetry);
    if (telemetry === null) return create(options, entry);
    const core = create({ ...options, store: observeStore(options.store, telemetry) }, entry);
    return observeStatus(core, telemetry);
  };
}

function observeStatus(core: StatusCore, telemetry: Telemetry): StatusCore {
  const start = (stream: boolean, paymentId?: string): TelemetrySpan => {
    const span = telemetry.startRequest('servicepay.status.request', {
      'http.request.method': 'GET',
      'servicepay.status.stream': stream,
    });
    if (paymentId !== undefined) span.setAttribute('servicepay.payment.id', paymentId);
    return span;
  };
  const end = (span: TelemetrySpan, answer: StatusAnswer): StatusAnswer => {
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status === 200) {
      const status = decodeStatusAnswer(answer.body)?.status;
      if (status !== undefined) span.setAttribute('servicepay.payment.status', status);
    } else if (answer.status >= 500) {
      span.setAttribute('error.type', String(answer.status));
      failSpan(span, answer.body);
    }
    span.end();
    return answer;
  };

  return {
    ...core,
    check(method, url) {
      const checked = core.check(method, url);
      if ('status' in checked) {
        const span = start(false);
        span.setAttribute('http.request.method', method ?? '_OTHER');
        end(span, checked);
      }
      return checked;
    },
    async answer(query) {
      const span = start(false, query.paymentId);
      return end(span, await core.answer(query));
    },
    reserve(client) {
      const refused = core.reserve(client);
      return refused === null ? null : end(start(true), refused);
    },
    stream(query, sink, client) {
      const span = start(true, query.paymentId);
      span.setAttribute('http.response.status_code', 200);
      // Counted down by the instruments that counted it up, even if an SDK came in between.
      const streams = telemetry.instruments()?.streams;
      streams?.add(1);
      let last = 'PENDING';
      let ended = false;
      const observed: StreamSink = {
        write(chunk) {
          if (chunk.startsWith(DATA))
            last = decodeStatusAnswer(chunk.slice(DATA.length))?.status ?? last;
          sink.write(chunk);
        },
        end() {
          if (!ended) {
            ended = true;
            streams?.add(-1);
            span.setAttribute('servicepay.payment.status', last);
            span.end();
          }
          sink.end();
        },
      };
      return core.stream(query, observed, client);
    },
  };
}

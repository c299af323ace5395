/**
 * The receiver's traces and metrics (telemetry.ts has the API and the instruments). One span
 * per delivery, `servicepay.webhook.receive`, from the body read to the answer, with a child
 * per step: verify, claim, handle (the merchant's onNotification runs in its context, so their
 * spans nest inside it) and complete. Attributes say what a delivery was about and what it was
 * answered, never what it carried: no body, metadata or signature. A span's status is ERROR
 * only for what the merchant must act on: a 5xx answer, a handler that threw, a store or key
 * that failed; a correct 401 or a duplicate is not an error.
 */
import { isThenable } from './encoding';
import type { WebhookNotification } from './notification';
import type { Receiver, ReceiverResponse } from './receiver';
import { dbSystemOf, errorType, failSpan, secondsSince } from './telemetry';
import type { Telemetry, TelemetryAttributes, TelemetryContext, TelemetrySpan } from './telemetry';

/** The steps of a delivery that get a span of their own. */
export type DeliveryStep = 'verify' | 'claim' | 'handle' | 'complete';

/** One delivery's trace, handed down the receiver and the dispatcher. */
export interface DeliveryTrace {
  /** Runs one step as a child span; gives back what `run` gives (a value or a promise). */
  step<T>(name: DeliveryStep, run: () => T): T;
  /** Sets what the notification is about, once it is verified and parsed. */
  about(notification: WebhookNotification): void;
}

/** The trace of a receiver without telemetry: each step just runs. */
export const UNTRACED: DeliveryTrace = { step: (_, run) => run(), about: () => {} };

/** The receiver's decision for a delivery whose body was read, given its trace. */
export type Decide = (
  body: Uint8Array,
  authorization: string | null,
  sourceAddress: string | undefined,
  trace: DeliveryTrace,
) => ReceiverResponse | Promise<ReceiverResponse>;

/**
 * The receiver with every answer counted and timed, and each delivery traced: those refused
 * before their body (method, source, size) or unread get a span of their own too.
 */
export function observeReceiver(
  receiver: Receiver,
  telemetry: Telemetry,
  decide: Decide,
  store: unknown,
): Receiver {
  const system = dbSystemOf(store);
  const storeAttributes: TelemetryAttributes = system === undefined ? {} : { 'db.system': system };

  function begin(method: string | undefined, sourceAddress: string | undefined) {
    const started = performance.now();
    const attributes: TelemetryAttributes = { 'http.request.method': method ?? '_OTHER' };
    if (sourceAddress !== undefined) attributes['client.address'] = sourceAddress;
    const span = telemetry.startRequest('servicepay.webhook.receive', attributes);
    return {
      span,
      end(response: ReceiverResponse): ReceiverResponse {
        answered(span, started, response);
        return response;
      },
    };
  }

  function answered(span: TelemetrySpan, started: number, response: ReceiverResponse): void {
    const { status, outcome } = response;
    span.setAttribute('http.response.status_code', status);
    span.setAttribute('servicepay.webhook.verdict', outcome);
    if (status >= 500) {
      span.setAttribute('error.type', String(status));
      failSpan(span, outcome);
    }
    span.end();
    const instruments = telemetry.instruments();
    instruments.deliveries.add(1, {
      'servicepay.webhook.verdict': outcome,
      'http.response.status_code': status,
    });
    instruments.duration.record(secondsSince(started), { 'servicepay.webhook.verdict': outcome });
  }

  /** A delivery answered without a body to decide on. */
  const refused = (
    method: string | undefined,
    sourceAddress: string | undefined,
    response: ReceiverResponse,
  ) => begin(method, sourceAddress).end(response);

  function traceOf(span: TelemetrySpan): DeliveryTrace {
    const recording = span.isRecording();
    const tracer = recording ? telemetry.tracer() : null;
    const parent: TelemetryContext | null = recording
      ? telemetry.api.trace.setSpan(telemetry.api.context.active(), span)
      : null;
    return {
      step<T>(name: DeliveryStep, run: () => T): T {
        const started = performance.now();
        const child =
          parent === null || tracer === null
            ? null
            : tracer.startSpan(
                `servicepay.webhook.${name}`,
                name === 'claim' || name === 'complete' ? { attributes: storeAttributes } : {},
                parent,
              );
        const done = (error: unknown, failed: boolean) => {
          if (name === 'handle') {
            telemetry
              .instruments()
              .handlerDuration.record(
                secondsSince(started),
                failed ? { 'error.type': errorType(error) } : {},
              );
          }
          if (child === null) return;
          if (failed) failSpan(child, `${name} failed`, error);
          child.end();
        };
        let value: T;
        try {
          value =
            name === 'handle' && child !== null && parent !== null
              ? telemetry.api.context.with(telemetry.api.trace.setSpan(parent, child), run)
              : run();
        } catch (error) {
          done(error, true);
          throw error;
        }
        // A handler's failure comes back as { error } (dispatch.ts's Ran), not as a rejection.
        const settle = (settled: unknown) => {
          const ran = settled as { error?: unknown } | null;
          if (typeof ran === 'object' && ran !== null && 'error' in ran) done(ran.error, true);
          else done(undefined, false);
        };
        if (isThenable(value)) value.then(settle, (error: unknown) => done(error, true));
        else settle(value);
        return value;
      },
      about(notification) {
        if (!recording) return;
        span.setAttribute('servicepay.payment.id', notification.paymentId);
        span.setAttribute('servicepay.payment.status', notification.paymentStatus);
      },
    };
  }

  return {
    ...receiver,
    preflight(method, sourceAddress, contentLength) {
      const early = receiver.preflight(method, sourceAddress, contentLength);
      return early === null ? null : refused(method, sourceAddress, early);
    },
    receive(body, authorization, sourceAddress) {
      const delivery = begin('PUT', sourceAddress);
      const answer = decide(body, authorization, sourceAddress, traceOf(delivery.span));
      return 'then' in answer ? answer.then(delivery.end) : delivery.end(answer);
    },
    refuseBody: (body) => refused('PUT', undefined, receiver.refuseBody(body)),
    fail: (error) => refused(undefined, undefined, receiver.fail(error)),
  };
}

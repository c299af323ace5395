/**
 * The receiver's traces and metrics (telemetry.ts has the API and the instruments). One span
 * per delivery, `servicepay.webhook.receive`, from the body read to the answer, with a child
 * per step: verify, claim, handle (the merchant's onNotification runs in its context, so their
 * spans nest inside it) and complete. Attributes say what a delivery was about and what it was
 * answered, never what it carried: no body, metadata or signature. A span's status is ERROR
 * only for what the merchant must act on: a 5xx answer, a handler that threw, a store or key
 * that failed; a correct 401 or a duplicate is not an error.
 */
import { isThenable, whenReady } from '../maybe';
import type { WebhookNotification } from '../verification/notification';
import type { createReceiver, Receiver } from './receiver';
import { dbSystemOf, errorType, failSpan, secondsSince } from '../telemetry';
import type { Telemetry, TelemetryAttributes, TelemetryContext, TelemetrySpan } from '../telemetry';
import type { DeliveryStep, DeliveryTrace } from './trace';
import type { ReceiverResponse } from './verdicts';

/**
 * `create` (receiver.ts's createReceiver) observed: its receiver, with traces and metrics when
 * the options carry `telemetry`; exactly its receiver when they do not.
 */
export function observed(create: typeof createReceiver): typeof createReceiver {
  return (options, verify) => {
    const receiver = create(options, verify);
    const { telemetry } = options;
    return telemetry === null ? receiver : observeReceiver(receiver, telemetry, options.store);
  };
}

/** The attributes of each delivery's metric points, made once per verdict and status. */
function answerAttributes() {
  const counted = new Map<string, Map<number, TelemetryAttributes>>();
  const timed = new Map<string, TelemetryAttributes>();
  return {
    counted(verdict: string, status: number): TelemetryAttributes {
      let byStatus = counted.get(verdict);
      if (byStatus === undefined) counted.set(verdict, (byStatus = new Map()));
      let attributes = byStatus.get(status);
      if (attributes === undefined) {
        attributes = { 'servicepay.webhook.verdict': verdict, 'http.response.status_code': status };
        byStatus.set(status, attributes);
      }
      return attributes;
    },
    timed(verdict: string): TelemetryAttributes {
      let attributes = timed.get(verdict);
      if (attributes === undefined) {
        attributes = { 'servicepay.webhook.verdict': verdict };
        timed.set(verdict, attributes);
      }
      return attributes;
    },
  };
}

/** A handler's duration when it returned: no attributes (made once, never changed). */
const SUCCEEDED: TelemetryAttributes = {};

/**
 * The receiver with every answer counted and timed, and each delivery traced: those refused
 * before their body (method, source, size) or unread get a span of their own too.
 */
function observeReceiver(receiver: Receiver, telemetry: Telemetry, store: unknown): Receiver {
  const system = dbSystemOf(store);
  const storeAttributes: TelemetryAttributes = system === undefined ? {} : { 'db.system': system };
  const storeStep = { attributes: storeAttributes };
  const plainStep = {};
  const answers = answerAttributes();
  const { api } = telemetry;
  const tracer = telemetry.tracer();

  /**
   * One delivery: its receive span and, while the SDK records it, the context its steps are
   * children of (telemetry.ts says when the tracer and the meter are looked up).
   */
  class Delivery implements DeliveryTrace {
    readonly started = performance.now();
    readonly span: TelemetrySpan;
    readonly recording: boolean;
    /** The receive span's context, the parent of the steps' spans; null while not recording. */
    readonly parent: TelemetryContext | null;

    constructor(method: string | undefined, sourceAddress: string | undefined) {
      const attributes: TelemetryAttributes = { 'http.request.method': method ?? '_OTHER' };
      if (sourceAddress !== undefined) attributes['client.address'] = sourceAddress;
      const context = api.context.active();
      this.span = telemetry.startRequest('servicepay.webhook.receive', attributes, context);
      this.recording = this.span.isRecording();
      this.parent = this.recording ? api.trace.setSpan(context, this.span) : null;
    }

    step<T>(name: DeliveryStep, run: () => T): T {
      const started = performance.now();
      const { parent } = this;
      const child =
        parent === null
          ? null
          : tracer.startSpan(
              `servicepay.webhook.${name}`,
              name === 'claim' || name === 'complete' ? storeStep : plainStep,
              parent,
            );
      let value: T;
      try {
        // The merchant's onNotification runs with the handle span active, so theirs nest in it.
        value =
          name === 'handle' && child !== null && parent !== null
            ? api.context.with(api.trace.setSpan(parent, child), run)
            : run();
      } catch (error) {
        this.stepped(name, child, started, error, true);
        throw error;
      }
      if (isThenable(value)) {
        value.then(
          (settled) => this.settled(name, child, started, settled),
          (error: unknown) => this.stepped(name, child, started, error, true),
        );
      } else {
        this.settled(name, child, started, value);
      }
      return value;
    }

    /** A step's value: a handler's failure comes back as { error } (dispatch.ts's Ran). */
    private settled(
      name: DeliveryStep,
      child: TelemetrySpan | null,
      started: number,
      value: unknown,
    ) {
      const ran = value as { error?: unknown } | null;
      if (typeof ran === 'object' && ran !== null && 'error' in ran) {
        this.stepped(name, child, started, ran.error, true);
      } else {
        this.stepped(name, child, started, undefined, false);
      }
    }

    private stepped(
      name: DeliveryStep,
      child: TelemetrySpan | null,
      started: number,
      error: unknown,
      failed: boolean,
    ): void {
      if (name === 'handle') {
        telemetry
          .instruments()
          ?.handlerDuration.record(
            secondsSince(started),
            failed ? { 'error.type': errorType(error) } : SUCCEEDED,
          );
      }
      if (child === null) return;
      if (failed) failSpan(child, `${name} failed`, error);
      child.end();
    }

    about(notification: WebhookNotification): void {
      if (!this.recording) return;
      this.span.setAttribute('servicepay.payment.id', notification.paymentId);
      this.span.setAttribute('servicepay.payment.status', notification.paymentStatus);
    }

    end(response: ReceiverResponse): ReceiverResponse {
      const { status, verdict } = response;
      const { span } = this;
      if (this.recording) {
        span.setAttribute('http.response.status_code', status);
        span.setAttribute('servicepay.webhook.verdict', verdict);
        if (status >= 500) {
          span.setAttribute('error.type', String(status));
          failSpan(span, verdict);
        }
      }
      span.end();
      const instruments = telemetry.instruments();
      instruments?.deliveries.add(1, answers.counted(verdict, status));
      instruments?.duration.record(secondsSince(this.started), answers.timed(verdict));
      return response;
    }
  }

  /** A delivery answered without a body to decide on. */
  const refused = (
    method: string | undefined,
    sourceAddress: string | undefined,
    response: ReceiverResponse,
  ) => (telemetry.quiet() ? response : new Delivery(method, sourceAddress).end(response));

  return {
    ...receiver,
    preflight(method, sourceAddress, contentLength) {
      const early = receiver.preflight(method, sourceAddress, contentLength);
      return early === null ? null : refused(method, sourceAddress, early);
    },
    receive(body, authorization, sourceAddress) {
      if (telemetry.quiet()) return receiver.receive(body, authorization, sourceAddress);
      const delivery = new Delivery('PUT', sourceAddress);
      const answer = receiver.receive(body, authorization, sourceAddress, delivery);
      return whenReady(answer, (response) => delivery.end(response));
    },
    refuseBody: (body) => refused('PUT', undefined, receiver.refuseBody(body)),
    fail: (error) => refused(undefined, undefined, receiver.fail(error)),
  };
}

/**
 * OpenTelemetry for the server entries: the API the merchant passes as `telemetry`, the
 * instruments, and the store calls' durations. Nothing here imports `@opentelemetry/api`: the
 * merchant's own copy is handed in, so a bundle without the package builds and runs, and a
 * receiver without the option creates nothing (docs/decisions.md, "Telemetry: the API is passed
 * in"). The types are the few members used, written structurally: the real module satisfies
 * them (test/webhook/types.test-d.ts), and the published declarations name no package a
 * merchant may not have installed.
 */
import { describeValue } from '../core/describe-value';
import { whenSettled } from './maybe';
import { WebhookConfigError } from './errors';

/** A context of the OpenTelemetry API, opaque here. */
export type TelemetryContext = object;

/** Attribute values as OpenTelemetry takes them. */
export type TelemetryAttributes = Record<string, string | number | boolean>;

/** The members of an OpenTelemetry span this package uses. */
export interface TelemetrySpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: unknown): void;
  isRecording(): boolean;
  end(): void;
}

interface TelemetryCounter {
  add(value: number, attributes?: TelemetryAttributes): void;
}

interface TelemetryHistogram {
  record(value: number, attributes?: TelemetryAttributes): void;
}

interface InstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}

/** The members of an OpenTelemetry meter this package uses. */
export interface TelemetryMeter {
  createCounter(name: string, options?: InstrumentOptions): TelemetryCounter;
  createUpDownCounter(name: string, options?: InstrumentOptions): TelemetryCounter;
  createHistogram(name: string, options?: InstrumentOptions): TelemetryHistogram;
}

/** The member of an OpenTelemetry tracer this package uses. */
export interface Tracer {
  startSpan(
    name: string,
    options?: { kind?: number; attributes?: TelemetryAttributes },
    context?: TelemetryContext,
  ): TelemetrySpan;
}

/**
 * The parts of `@opentelemetry/api` (1.x) that the receiver, the stores' calls and the status
 * endpoint use: pass the module itself (`import * as opentelemetry from '@opentelemetry/api'`).
 */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): Tracer;
    setSpan(context: TelemetryContext, span: TelemetrySpan): TelemetryContext;
    getSpan(context: TelemetryContext): TelemetrySpan | undefined;
    getTracerProvider?(): object;
  };
  context: {
    active(): TelemetryContext;
    with<T>(context: TelemetryContext, fn: () => T): T;
  };
  metrics: { getMeter(name: string, version?: string): TelemetryMeter };
  /** The no-op meter `getMeter` gives while no SDK is registered (Telemetry.quiet). */
  createNoopMeter?(): unknown;
  /** Its delegate, when none is set, is the no-op tracer provider (Telemetry.quiet). */
  ProxyTracerProvider?: new () => { getDelegate(): unknown };
}

/** The option shared by the receivers and the status endpoints. */
export interface TelemetryOptions {
  /**
   * The OpenTelemetry API, to export this handler's traces and metrics through the SDK the
   * application registered: `telemetry: opentelemetry` after
   * `import * as opentelemetry from '@opentelemetry/api'` (docs/telemetry.md). While no SDK is
   * registered nothing is recorded; without the option nothing is created at all.
   * @default undefined (no telemetry)
   */
  telemetry?: OpenTelemetryApi;
}

// The values of OpenTelemetry's SpanKind and SpanStatusCode: fixed by its protocol (OTLP).
export const SPAN_KIND_INTERNAL = 0;
export const SPAN_KIND_SERVER = 1;
const STATUS_ERROR = 2;

/** The API's ProxyTracerProvider (what `trace.getTracerProvider()` gives in 1.x). */
type Delegating = { getDelegate?(): unknown };

/** Never any API's no-op object. */
const NOT_NOOP = Symbol('not a no-op');

/** The instrumentation scope: the package's name. */
const SCOPE = 'servicepay';

/** Second-scale buckets of OpenTelemetry's HTTP duration conventions. */
const SECONDS = {
  unit: 's',
  advice: {
    explicitBucketBoundaries: [
      0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ],
  },
};

/** The instruments, made on the meter the registered SDK gives. */
export interface Instruments {
  deliveries: TelemetryCounter;
  duration: TelemetryHistogram;
  handlerDuration: TelemetryHistogram;
  storeDuration: TelemetryHistogram;
  streams: TelemetryCounter;
  outcomeLatency: TelemetryHistogram;
}

function createInstruments(meter: TelemetryMeter): Instruments {
  // Every duration is a histogram in seconds with the same buckets.
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { description, ...SECONDS });
  return {
    deliveries: meter.createCounter('servicepay.webhook.deliveries', {
      description: 'Webhook deliveries answered, by verdict and HTTP status.',
      unit: '{delivery}',
    }),
    duration: seconds(
      'servicepay.webhook.duration',
      'Time from a delivery’s body to its answer, by verdict.',
    ),
    handlerDuration: seconds(
      'servicepay.webhook.handler.duration',
      'Time spent in onNotification (with expectedPayment and onMismatch).',
    ),
    storeDuration: seconds(
      'servicepay.store.duration',
      'Time of each store call, by db.system and operation.',
    ),
    streams: meter.createUpDownCounter('servicepay.status.streams', {
      description: 'Payment status event streams open.',
      unit: '{stream}',
    }),
    outcomeLatency: seconds(
      'servicepay.outcome.latency',
      'Time from recording a payment’s outcome to a waiting subscriber receiving it.',
    ),
  };
}

/** What the handlers use of the API: a tracer, the instruments, and the span helpers. */
export interface Telemetry {
  readonly api: OpenTelemetryApi;
  /**
   * The handler's tracer, asked for once: before an SDK is registered the API gives a proxy
   * that follows the one registered later (an SDK replaced after that is not followed).
   */
  tracer(): Tracer;
  /**
   * The instruments on the current meter (an SDK registered after the handler was made counts),
   * or null while no SDK's meter is registered.
   */
  instruments(): Instruments | null;
  /**
   * True while no SDK is registered for traces or metrics: a delivery then makes no span, no
   * point and no timing at all, so that passing the API costs nothing until an SDK is there.
   */
  quiet(): boolean;
  /**
   * A request's span: SERVER, or INTERNAL under a server span already there (an HTTP
   * instrumentation's), in `parent` (by default the active context).
   */
  startRequest(
    name: string,
    attributes: TelemetryAttributes,
    parent?: TelemetryContext,
  ): TelemetrySpan;
}

/**
 * The telemetry of a handler's options, or null without them.
 * @throws WebhookConfigError when `telemetry` is not the OpenTelemetry API.
 */
export function createTelemetry(api: unknown): Telemetry | null {
  if (api === undefined) return null;
  if (!isApi(api)) {
    throw new WebhookConfigError(
      `telemetry must be the @opentelemetry/api module (import * as opentelemetry, then telemetry: opentelemetry), got ${describeValue(api)}.`,
      'telemetry',
    );
  }
  // Per handler, not per API module: each handler's tracer is the one registered when it was made.
  const tracer = api.trace.getTracer(SCOPE);
  let meter: TelemetryMeter | undefined;
  let instruments: Instruments | undefined;
  // The API's own no-op singletons: identity with them says no SDK is registered. An API
  // without these members (an object of its own) counts as always registered.
  const noMeter = api.createNoopMeter?.() ?? NOT_NOOP;
  const noTracerProvider = api.ProxyTracerProvider
    ? new api.ProxyTracerProvider().getDelegate()
    : NOT_NOOP;
  return {
    api,
    tracer: () => tracer,
    instruments() {
      // Asked each time: the API gives a no-op meter until an SDK is registered, and for good.
      const current = api.metrics.getMeter(SCOPE);
      if (current === noMeter) return null;
      if (current !== meter || instruments === undefined) {
        meter = current;
        instruments = createInstruments(current);
      }
      return instruments;
    },
    quiet: () =>
      (api.trace.getTracerProvider?.() as Delegating | undefined)?.getDelegate?.() ===
        noTracerProvider && api.metrics.getMeter(SCOPE) === noMeter,
    startRequest(name, attributes, parent = api.context.active()) {
      const kind = api.trace.getSpan(parent) === undefined ? SPAN_KIND_SERVER : SPAN_KIND_INTERNAL;
      return tracer.startSpan(name, { kind, attributes }, parent);
    },
  };
}

function isApi(value: unknown): value is OpenTelemetryApi {
  const api = value as Partial<OpenTelemetryApi> | null;
  return (
    typeof api === 'object' &&
    api !== null &&
    typeof api.trace?.getTracer === 'function' &&
    typeof api.trace.setSpan === 'function' &&
    typeof api.trace.getSpan === 'function' &&
    typeof api.context?.active === 'function' &&
    typeof api.context.with === 'function' &&
    typeof api.metrics?.getMeter === 'function'
  );
}

/** Marks a span failed: ERROR status, and the exception when there is one. */
export function failSpan(span: TelemetrySpan, message: string, error?: unknown): void {
  span.setStatus({ code: STATUS_ERROR, message });
  if (error !== undefined) span.recordException(error as Error);
}

/** Seconds since `start` (a performance.now() reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}

// Store calls ---------------------------------------------------------------------------------

const STORE_METHODS = [
  'claim',
  'renew',
  'renewMany',
  'complete',
  'release',
  'recordOutcome',
  'readOutcome',
  'subscribeOutcome',
  'completeWithOutcome',
  'claimOrder',
  'orderPaidBy',
] as const;

/** The database a store says it keeps its records in (OpenTelemetry's `db.system`). */
export function dbSystemOf(store: unknown): string | undefined {
  const system = (store as { dbSystem?: unknown } | null)?.dbSystem;
  return typeof system === 'string' ? system : undefined;
}

/**
 * The store with each call timed into servicepay.store.duration (by `db.system` and the method
 * as `db.operation`), and the outcomes its subscribers receive into servicepay.outcome.latency.
 * Only the methods the store has are copied, so what the handlers check of it is unchanged.
 */
export function observeStore<S>(store: S, telemetry: Telemetry): S {
  if (typeof store !== 'object' || store === null) return store;
  const system = dbSystemOf(store);
  const observed: Record<string, unknown> = system === undefined ? {} : { dbSystem: system };
  const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of [...STORE_METHODS, 'close'] as const) {
    if (typeof methods[method] !== 'function') continue;
    const call = methods[method].bind(store);
    const attributes: TelemetryAttributes = { 'db.operation': method };
    if (system !== undefined) attributes['db.system'] = system;
    observed[method] =
      method === 'close'
        ? call
        : (...args: unknown[]) => {
            if (method === 'subscribeOutcome') args[1] = timedListener(args[1], telemetry);
            if (telemetry.instruments() === null) return call(...args);
            const started = performance.now();
            return whenSettled(call(...args), (error, failed) =>
              telemetry
                .instruments()
                ?.storeDuration.record(
                  secondsSince(started),
                  failed ? { ...attributes, 'error.type': errorType(error) } : attributes,
                ),
            );
          };
  }
  return observed as S;
}

/** A subscriber that records how long after its recording each outcome reached it. */
function timedListener(listener: unknown, telemetry: Telemetry): unknown {
  if (typeof listener !== 'function') return listener;
  return (outcome: { recordedAt?: unknown }) => {
    const recordedAt = Date.parse(String(outcome?.recordedAt));
    if (Number.isFinite(recordedAt)) {
      telemetry.instruments()?.outcomeLatency.record(Math.max(0, (Date.now() - recordedAt) / 1000));
    }
    return (listener as (outcome: unknown) => unknown)(outcome);
  };
}

/** OpenTelemetry's `error.type`: the error's class name, low in cardinality. */
export function errorType(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== '' ? name : '_OTHER';
}

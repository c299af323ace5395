/**
 * The OpenTelemetry SDK as a merchant's application registers it, with an in-memory span
 * exporter and a metric reader collected by hand, and what the tests read of them: the spans
 * by name and parent, the metric points by name.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, Histogram, MetricData } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** A reader that exports nothing on its own: the test collects when it wants to look. */
class CollectedReader extends MetricReader {
  protected onForceFlush = async (): Promise<void> => {};
  protected onShutdown = async (): Promise<void> => {};
}

export interface Telemetry {
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  /** The spans of one name, in the order they ended. */
  named(name: string): ReadableSpan[];
  /** The direct children of `span`. */
  childrenOf(span: ReadableSpan): ReadableSpan[];
  /** The metrics collected now, by name. */
  metrics(): Promise<Map<string, MetricData>>;
  /** Unregisters the SDK (afterEach). */
  stop(): Promise<void>;
}

/** Registers the SDK globally (tracer, meter, async context), as the Node SDK does. */
export function registerSdk(): Telemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new CollectedReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  const spans = () => exporter.getFinishedSpans();
  return {
    spans,
    named: (name) => spans().filter((span) => span.name === name),
    childrenOf: (parent) =>
      spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      const found = new Map<string, MetricData>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) found.set(metric.descriptor.name, metric);
      }
      return found;
    },
    async stop() {
      trace.disable();
      metrics.disable();
      context.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The points of a metric, as [attributes, value] (a histogram's value is its count). */
export function pointsOf(metric: MetricData | undefined): [Attributes, number][] {
  if (metric === undefined) return [];
  return (metric.dataPoints as DataPoint<number | Histogram>[]).map((point) => [
    point.attributes,
    typeof point.value === 'number' ? point.value : point.value.count,
  ]);
}

/** Every attribute of every span and span event, and of every metric point, as one text. */
export async function everyAttribute(telemetry: Telemetry): Promise<string> {
  const parts: unknown[] = [];
  for (const span of telemetry.spans()) {
    parts.push(span.name, span.attributes, span.status, span.events);
  }
  for (const metric of (await telemetry.metrics()).values()) {
    parts.push(metric.dataPoints.map((point) => point.attributes));
  }
  return JSON.stringify(parts);
}

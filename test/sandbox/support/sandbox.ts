/** Sandboxes for tests: ephemeral port, quick retries, one key file per test process (test/helpers/sandbox-key.ts). */
import { onTestFinished } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index';
import type { Sandbox, SandboxOptions, WebhookDeliveryAttempt } from '../../../src/sandbox/index';
import { sandboxKeyFile } from '../../helpers/sandbox-key';

export const FAST_RETRY = {
  initialDelayMs: 5,
  factor: 2,
  maxDelayMs: 40,
  maxAttempts: 20,
  timeoutMs: 2000,
};

export interface TestSandbox extends Sandbox {
  /** Resolves with the first attempt recorded from now on that matches. */
  attempt(match: (attempt: WebhookDeliveryAttempt) => boolean): Promise<WebhookDeliveryAttempt>;
}

/** A sandbox on 127.0.0.1:0, stopped after the test. */
export async function testSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const waiters: {
    match: (a: WebhookDeliveryAttempt) => boolean;
    resolve: (a: WebhookDeliveryAttempt) => void;
  }[] = [];
  const sandbox = await startSandbox({
    port: 0,
    keyFile: sandboxKeyFile,
    retry: FAST_RETRY,
    ...options,
    onDelivery(attempt) {
      for (const waiter of waiters.splice(0)) {
        if (waiter.match(attempt)) waiter.resolve(attempt);
        else waiters.push(waiter);
      }
      options.onDelivery?.(attempt);
    },
  });
  // Per test, not a module-level afterEach: the node project shares modules between files
  // (isolate: false), so such a hook would be registered for the first file only.
  onTestFinished(() => sandbox.stop());
  return Object.assign(Object.create(sandbox) as Sandbox, {
    attempt: (match: (a: WebhookDeliveryAttempt) => boolean) =>
      new Promise<WebhookDeliveryAttempt>((resolve) => waiters.push({ match, resolve })),
  }) as TestSandbox;
}

/** A valid payment request body, as createHttpTransport sends it. */
export function paymentBody(
  sandbox: Pick<Sandbox, 'applicationId'>,
  overrides: Record<string, unknown> = {},
) {
  return {
    environment: 'SANDBOX',
    applicationId: sandbox.applicationId,
    institutionId: 'monzo',
    paymentRequest: { amount: 12.5, currency: 'GBP', reference: 'ORDER-1042' },
    merchantPaymentId: 'c03a65f7-37e1-45d6-a653-f01da47b061e',
    paymentMetadata: { orderId: 1042, basket: { items: [{ sku: 'A-1', qty: 2 }] } },
    agentType: 'WEB_BROWSER',
    ...overrides,
  };
}

/** POSTs a payment request; returns status, parsed body and headers. */
export async function postPayment(
  sandbox: Pick<Sandbox, 'url'>,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${sandbox.url}/v1/payments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    json: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** Creates a payment and returns its id and bank page address. */
export async function createPayment(sandbox: Sandbox, overrides: Record<string, unknown> = {}) {
  const { status, json } = await postPayment(sandbox, paymentBody(sandbox, overrides));
  if (status !== 201) throw new Error(`payment not created: ${status} ${JSON.stringify(json)}`);
  return json as { paymentId: string; authorisationUrl: string };
}

/** The token the bank page puts in its decision form (what a decision needs besides it). */
export async function pageToken(sandbox: Pick<Sandbox, 'url'>, paymentId: string): Promise<string> {
  const html = await (await fetch(`${sandbox.url}/bank/${paymentId}`)).text();
  const token = /<input type="hidden" name="token" value="([^"]+)">/.exec(html)?.[1];
  if (token === undefined) throw new Error('the bank page has no token field');
  return token;
}

/** The deliveries page's form token, read from the page as a browser would. */
export async function deliveriesToken(sandbox: Pick<Sandbox, 'url'>): Promise<string> {
  const html = await (await fetch(`${sandbox.url}/deliveries`)).text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1];
  if (token === undefined) throw new Error('the deliveries page has no form token');
  return token;
}

/** Presses a bank page button as its form does: the page's token, a urlencoded POST. */
export async function decide(
  sandbox: Pick<Sandbox, 'url'>,
  paymentId: string,
  decision: string,
  token?: string,
): Promise<Response> {
  token ??= await pageToken(sandbox, paymentId);
  return fetch(`${sandbox.url}/bank/${paymentId}/decision`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision, token }).toString(),
    redirect: 'manual',
  });
}

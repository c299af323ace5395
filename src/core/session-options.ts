import { createHttpTransport } from './http-transport';
import { MESSAGE_PREFIX as PREFIX } from './protocol';
import { SANDBOX_BASE_URL } from './service-addresses';
import type { PaymentInitiation, ServiceTransport } from './transport';
import type { PreparedPayment, SessionOptions } from './types';

// The session's options read, and its developer sentences written: pure functions, apart
// from the shell (./session) that calls them. Sentences in two lengths and development-only
// warnings as docs/decisions.md ("two lengths") says: inline in the function, so production
// keeps the gist only.

/** The transport the options name, or why there is none (a developer's sentence). */
export function sessionTransport(options: SessionOptions): ServiceTransport | string {
  const baseUrl =
    options.baseUrl ?? (options.environment === 'SANDBOX' ? SANDBOX_BASE_URL : undefined);
  if (options.transport) return options.transport;
  // The real service's addresses are not published in its spec: we never guess them.
  if (!baseUrl) {
    let message = `${PREFIX}LIVE needs baseUrl or transport`;
    try {
      if (process.env.NODE_ENV !== 'production') {
        message = `${PREFIX}no backend address for LIVE: pass the baseUrl of your backend or a transport`;
      }
    } catch {
      // No bundler: the gist.
    }
    return message;
  }
  // The HTTP transport holds no state, so one is made per call.
  return createHttpTransport({ baseUrl });
}

/** What is sent to start `prepared` at `institutionId` with `merchantPaymentId`. */
export function paymentInitiation(
  options: SessionOptions,
  prepared: PreparedPayment,
  institutionId: string,
  merchantPaymentId: string,
): PaymentInitiation {
  const request: PaymentInitiation = {
    environment: options.environment,
    applicationId: options.applicationId,
    institutionId,
    paymentRequest: { amount: prepared.amount, currency: 'GBP', reference: prepared.reference },
    merchantPaymentId,
    agentType: prepared.agentType ?? options.agentType ?? 'WEB_BROWSER',
  };
  if (prepared.metadata) request.paymentMetadata = prepared.metadata;
  return request;
}

/** The `payment` option by value (compared so); undefined when none is given. */
export function paymentKey(payment: unknown): unknown {
  try {
    return JSON.stringify(payment);
  } catch {
    return payment;
  }
}

/** `action` was called before a valid createPayment. */
export function beforeCreatePayment(action: string): string {
  let message = `${PREFIX}${action} before createPayment`;
  try {
    if (process.env.NODE_ENV !== 'production') {
      message = `${PREFIX}${action} needs a valid payment: call createPayment({ amount, paymentReference }) first`;
    }
  } catch {
    // No bundler: the gist.
  }
  return message;
}

/** payWithInstitution was called while no component is in the page. */
export function beforeMount(): string {
  let message = `${PREFIX}payWithInstitution before the component is rendered`;
  try {
    if (process.env.NODE_ENV !== 'production') {
      message = `${PREFIX}payWithInstitution needs the component in the page (rendered, or injectComponent called): its redirect would be lost`;
    }
  } catch {
    // No bundler: the gist.
  }
  return message;
}

/** In development: isWebView is for Android hosts (spec 4.4 rule 3). */
export function warnWebViewOnIos(options: SessionOptions): void {
  try {
    if (
      process.env.NODE_ENV !== 'production' &&
      options.isWebView &&
      /iPhone|iPad|iPod/.test(navigator.userAgent)
    ) {
      console.warn(
        `${PREFIX}isWebView is for Android WebView hosts only and must not be used on iOS (spec 4.4 rule 3).`,
      );
    }
  } catch {
    // No bundler (no `process`) or no navigator: no warning.
  }
}

import { ServiceTransportError, isAbortError } from './errors';
import type {
  InitiatedPayment,
  Institution,
  PaymentInitiation,
  ServiceTransport,
} from './transport';
import { isHttpUrl, isPlainObject } from './validation';

export interface HttpTransportOptions {
  /** Address of a backend serving the contract below, e.g. `http://localhost:4010`. */
  baseUrl: string;
  /** A fetch implementation. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Gives up on a call after this many milliseconds. @default 30000 */
  timeoutMs?: number;
}

/**
 * The ServicePay HTTP contract (documented in the README; the sandbox serves it):
 *
 * - `GET  {baseUrl}/v1/institutions?environment=…&applicationId=…`
 *   → 200 `{ "institutions": [{ "id", "name", "iconUrl"? }] }`
 * - `POST {baseUrl}/v1/payments` with the PaymentInitiation as JSON and
 *   `Idempotency-Key: <merchantPaymentId>` → 201 `{ "paymentId", "authorisationUrl" }`
 * - any error → non-2xx with `{ "error": "<message the component reports>" }`
 */
export function createHttpTransport(options: HttpTransportOptions): ServiceTransport {
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const unreadable = (what: string, status?: number) =>
    new ServiceTransportError(`The service sent an unreadable ${what}`, status);

  async function call(
    path: string,
    signal: AbortSignal | undefined,
    init: RequestInit = { method: 'GET' },
  ): Promise<Record<string, unknown>> {
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let body: unknown;
    try {
      response = await (options.fetch ?? globalThis.fetch)(base + path, {
        ...init,
        headers: { Accept: 'application/json', ...init.headers },
        signal: controller.signal,
      });
    } catch (error) {
      throw signal?.aborted
        ? error
        : isAbortError(error)
          ? new ServiceTransportError(`The service did not answer within ${timeoutMs} ms`)
          : new ServiceTransportError(`Network error: could not reach ${base}`, undefined, {
              cause: error,
            });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
    try {
      body = await response.json();
    } catch {
      // Not JSON: reported below by status, or as unreadable.
    }
    const { ok, status } = response;
    if (!ok || !isPlainObject(body)) {
      throw ok
        ? unreadable('answer', status)
        : new ServiceTransportError(
            isPlainObject(body) && typeof body.error === 'string'
              ? body.error
              : `HTTP ${status} ${response.statusText}`.trim(),
            status,
          );
    }
    return body;
  }

  return {
    async fetchInstitutions(req, signal): Promise<Institution[]> {
      const query = new URLSearchParams({
        environment: req.environment,
        applicationId: req.applicationId,
      });
      const { institutions } = await call(`/v1/institutions?${query}`, signal);
      if (!Array.isArray(institutions)) throw unreadable('list of banks');
      return institutions.flatMap((item: unknown): Institution[] => {
        if (!isPlainObject(item)) return [];
        const { id, name, iconUrl } = item;
        if (typeof id !== 'string' || typeof name !== 'string') return [];
        // Icons may be given relative to the backend; only http(s) icons are kept.
        let icon: string | undefined;
        try {
          icon = typeof iconUrl === 'string' ? new URL(iconUrl, `${base}/`).href : undefined;
        } catch {
          // Not a URL: no icon.
        }
        return [icon && isHttpUrl(icon) ? { id, name, iconUrl: icon } : { id, name }];
      });
    },

    async initiatePayment(req: PaymentInitiation, signal): Promise<InitiatedPayment> {
      const { paymentId, authorisationUrl } = await call('/v1/payments', signal, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': req.merchantPaymentId },
        body: JSON.stringify(req),
      });
      if (typeof paymentId !== 'string' || typeof authorisationUrl !== 'string') {
        throw unreadable('payment');
      }
      return { paymentId, authorisationUrl };
    },
  };
}

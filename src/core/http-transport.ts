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

  async function call(path: string, init: RequestInit, signal?: AbortSignal): Promise<unknown> {
    const doFetch = options.fetch ?? globalThis.fetch;
    const controller = new AbortController();
    const abort = () => controller.abort(signal?.reason);
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort);
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        ...init,
        headers: { Accept: 'application/json', ...init.headers },
        signal: controller.signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      if (isAbortError(error)) {
        throw new ServiceTransportError(`The service did not answer within ${timeoutMs} ms`);
      }
      throw new ServiceTransportError(`Network error: could not reach ${base}`, undefined, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const message =
        isPlainObject(body) && typeof body.error === 'string'
          ? body.error
          : `HTTP ${response.status} ${response.statusText}`.trim();
      throw new ServiceTransportError(message, response.status);
    }
    if (!isPlainObject(body)) {
      throw new ServiceTransportError('The service sent an unreadable answer', response.status);
    }
    return body;
  }

  return {
    async fetchInstitutions(req, signal): Promise<Institution[]> {
      const query = new URLSearchParams({
        environment: req.environment,
        applicationId: req.applicationId,
      });
      const body = (await call(`/v1/institutions?${query}`, { method: 'GET' }, signal)) as Record<
        string,
        unknown
      >;
      if (!Array.isArray(body.institutions)) {
        throw new ServiceTransportError('The service sent an unreadable list of banks');
      }
      return body.institutions.flatMap((item): Institution[] => {
        if (!isPlainObject(item) || typeof item.id !== 'string' || typeof item.name !== 'string') {
          return [];
        }
        const icon = typeof item.iconUrl === 'string' ? resolveUrl(item.iconUrl, base) : undefined;
        return [
          icon ? { id: item.id, name: item.name, iconUrl: icon } : { id: item.id, name: item.name },
        ];
      });
    },

    async initiatePayment(req: PaymentInitiation, signal): Promise<InitiatedPayment> {
      const body = (await call(
        '/v1/payments',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': req.merchantPaymentId },
          body: JSON.stringify(req),
        },
        signal,
      )) as Record<string, unknown>;
      if (typeof body.paymentId !== 'string' || typeof body.authorisationUrl !== 'string') {
        throw new ServiceTransportError('The service sent an unreadable payment');
      }
      return { paymentId: body.paymentId, authorisationUrl: body.authorisationUrl };
    },
  };
}

/** Icons may be given relative to the backend; only http(s) icons are kept. */
function resolveUrl(url: string, base: string): string | undefined {
  try {
    const resolved = new URL(url, `${base}/`).href;
    return isHttpUrl(resolved) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

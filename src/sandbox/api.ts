/**
 * What the component and merchant pages call, from any origin: the bank list, payment
 * requests (validated as the component validates them), the generated bank icons and the
 * script host (spec 4.3); and a payment's status, for tools on this machine (no CORS). JSON
 * errors are `{ "error": "<message>" }`, the message being what the component reports to
 * errorConsumer.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { formatValidationIssue, isUuid, validatePaymentArgs } from '../core/index';
import type { Environment, ValidationIssue } from '../core/index';
import { readBody, send, sendError, sendJson, sendNotModified } from './http';
import { DEFAULT_INSTITUTION_COLOUR, isHexColour } from './options';
import { html } from './html';
import { bankPath } from './pages';
import { requestFingerprint } from './service';
import type { PaymentRoute, SandboxContext, ValidInitiation } from './service';
import type { SandboxPayment } from './types';

/**
 * Largest payment request accepted. Metadata may be 5000 characters, each up to 6 bytes once
 * JSON-escaped (\uXXXX), plus the other fields: 64 KiB holds any valid request with room.
 */
export const MAX_PAYMENT_BODY_BYTES = 64 * 1024;
const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export function listInstitutions(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  ctx: SandboxContext,
): void {
  const environment = query.get('environment');
  if (!isEnvironment(environment)) return sendError(res, 400, environmentError(environment));
  const applicationId = query.get('applicationId');
  if (!isUuid(applicationId)) return sendError(res, 400, applicationIdError(applicationId));
  const origin = ctx.doors.origin(req);
  const institutions = Array.from(ctx.options.institutions.values(), ({ id, name, available }) => ({
    id,
    name,
    iconUrl: `${origin}/icons/${id}.svg`,
    // Only the exception is sent: an absent field means available, as in the contract.
    ...(available ? {} : { available: false }),
  }));
  sendJson(res, 200, { institutions });
}

export async function createPayment(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: SandboxContext,
): Promise<void> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(contentType)) {
    return sendError(res, 415, 'The request body must be JSON (Content-Type: application/json)');
  }
  // Too large: BodyTooLargeError, answered 413 by the request handler (server.ts).
  const raw = await readBody(req, MAX_PAYMENT_BODY_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return sendError(res, 400, 'The request body is not valid JSON');
  }

  const keyHeader = req.headers['idempotency-key'];
  let idempotency: { key: string; fingerprint: string } | undefined;
  if (keyHeader !== undefined) {
    if (
      typeof keyHeader !== 'string' ||
      keyHeader === '' ||
      keyHeader.length > MAX_IDEMPOTENCY_KEY_LENGTH
    ) {
      return sendError(
        res,
        400,
        `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
      );
    }
    // Keys are the merchant's: scoped by application, as one service serves many merchants.
    const applicationId = (body as { applicationId?: unknown } | null)?.applicationId;
    idempotency = {
      key: `${String(applicationId)}\n${keyHeader}`,
      fingerprint: requestFingerprint(body),
    };
    const match = ctx.payments.matchIdempotencyKey(idempotency.key, idempotency.fingerprint);
    if (match.kind === 'conflict') {
      return sendError(
        res,
        409,
        `The Idempotency-Key ${keyHeader} was already used with a different request`,
      );
    }
    if (match.kind === 'replay') {
      return sendJson(res, 200, created(req, match.payment, ctx), {
        'Idempotent-Replayed': 'true',
      });
    }
  }

  const checked = validateInitiation(body, (id) => ctx.options.institutions.has(id));
  if (!checked.ok) return sendError(res, 400, checked.error);
  const institution = ctx.options.institutions.get(checked.value.institutionId)!;
  if (!institution.available) {
    // A valid request the service cannot carry out now: 422, apart from the 400s of a wrong
    // request and the 409 of a reused Idempotency-Key. A component that ignored the list's
    // `available: false` still cannot start a payment here.
    ctx.options.log(`payment refused: ${institution.id} is unavailable`);
    return sendError(res, 422, unavailableError(institution.id, institution.name));
  }
  const payment = ctx.payments.create(checked.value, idempotency);
  ctx.options.log(
    `payment ${payment.paymentId} created: ${payment.amount} GBP, reference ${JSON.stringify(payment.reference)}, ${payment.institutionId}, ${payment.agentType}`,
  );
  sendJson(res, 201, created(req, payment, ctx));
}

/** The error of a payment at a bank marked unavailable (contract: 422). */
export function unavailableError(id: string, name: string): string {
  return `${name} (${id}) is unavailable at the moment: choose another bank`;
}

function created(req: IncomingMessage, payment: SandboxPayment, ctx: SandboxContext) {
  return {
    paymentId: payment.paymentId,
    authorisationUrl: `${ctx.doors.origin(req)}${bankPath(payment.paymentId)}`,
  };
}

/**
 * A payment's status, in the webhook's field names, for tests and tools on this machine. No
 * CORS: the component never reads it, and a page elsewhere has no business reading a payment.
 */
export const showPayment: PaymentRoute = (req, res, paymentId, ctx) => {
  const payment = ctx.payments.get(paymentId);
  if (payment === undefined)
    return sendError(res, 404, `No sandbox payment has the id ${paymentId}`);
  sendJson(res, 200, {
    paymentId: payment.paymentId,
    merchantPaymentId: payment.merchantPaymentId,
    paymentStatus: payment.status,
    errorDescription: payment.errorDescription,
    paymentRequest: {
      amount: payment.amount,
      currency: payment.currency,
      reference: payment.reference,
    },
    paymentMetadata: payment.metadata,
    agentType: payment.agentType,
    institutionId: payment.institutionId,
    environment: payment.environment,
    applicationId: payment.applicationId,
    createdAt: payment.createdAt,
    settledAt: payment.settledAt,
    authorisationUrl: `${ctx.doors.origin(req)}${bankPath(payment.paymentId)}`,
  });
};

// Validation of `POST /v1/payments` bodies (the PaymentInitiation of src/core/transport.ts).
// The payment fields reuse core's createPayment rules, so the sandbox refuses exactly what the
// component refuses, with the same `Input validation error: …` strings (spec 2.4, 7.3).

export type InitiationResult = { ok: true; value: ValidInitiation } | { ok: false; error: string };

export function isEnvironment(value: unknown): value is Environment {
  return value === 'SANDBOX' || value === 'LIVE';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const invalid = (field: string, value: unknown, reason: string): InitiationResult => ({
  ok: false,
  error: formatValidationIssue({ field, value, reason } satisfies ValidationIssue),
});

/** The message for an applicationId that is not a UUID (shared with the institutions route). */
export function applicationIdError(value: unknown): string {
  return formatValidationIssue({ field: 'applicationId', value, reason: 'must be a UUID' });
}

/** The message for an environment other than SANDBOX or LIVE. */
export function environmentError(value: unknown): string {
  return formatValidationIssue({ field: 'environment', value, reason: 'must be SANDBOX or LIVE' });
}

export function validateInitiation(
  body: unknown,
  isKnownInstitution: (id: string) => boolean,
): InitiationResult {
  if (!isObject(body)) return invalid('request', body, 'must be a JSON object');
  const { environment, applicationId, institutionId, paymentRequest } = body;
  if (!isEnvironment(environment)) return { ok: false, error: environmentError(environment) };
  if (!isUuid(applicationId)) return { ok: false, error: applicationIdError(applicationId) };
  if (typeof institutionId !== 'string' || !isKnownInstitution(institutionId)) {
    return invalid(
      'institutionId',
      institutionId,
      'must be the id of an institution listed by GET /v1/institutions',
    );
  }
  if (!isObject(paymentRequest))
    return invalid('paymentRequest', paymentRequest, 'must be an object');
  const { amount, currency, reference } = paymentRequest;
  if (currency !== 'GBP') {
    return invalid('paymentRequest.currency', currency, 'must be GBP (the only currency)');
  }
  const merchantPaymentId = body.merchantPaymentId ?? undefined;
  const metadata = body.paymentMetadata ?? undefined;
  // The component always sends agentType; WEB_BROWSER is its default (spec 2.2) for others.
  const agentType = body.agentType ?? 'WEB_BROWSER';
  const checked = validatePaymentArgs({
    amount,
    paymentReference: reference,
    currency,
    merchantPaymentId,
    metadata,
    agentType,
  });
  if (!checked.ok) return { ok: false, error: formatValidationIssue(checked.issue) };
  const payment = checked.value;
  return {
    ok: true,
    value: {
      environment,
      applicationId,
      institutionId,
      amount: payment.amount,
      reference: payment.reference,
      merchantPaymentId: payment.merchantPaymentId ?? null,
      metadata: payment.metadata ?? null,
      agentType: payment.agentType ?? 'WEB_BROWSER',
    },
  };
}

// The bank icons, generated rather than shipped: a rounded square in the bank's colour with
// its initials. Real logos are trademarks and would mean external URLs or binary assets.

const MINOR_WORDS = new Set(['of', 'the', 'uk', 'and', '&']);

/** For the SVG icons opened on their own: an image document needs nothing at all. */
const ICON_CSP = "default-src 'none'";

/** `GET /icons/<id>.svg`; false for an id that no institution has. */
export function sendIcon(res: ServerResponse, institutionId: string, ctx: SandboxContext): boolean {
  const institution = ctx.options.institutions.get(institutionId);
  if (institution === undefined) return false;
  send(res, 200, institutionIconSvg(institution.name, institution.colour), {
    'Content-Type': 'image/svg+xml; charset=utf-8',
    'Content-Security-Policy': ICON_CSP,
    // Icons never change while the sandbox runs; the shared headers' no-store is overridden.
    'Cache-Control': 'public, max-age=3600',
  });
  return true;
}

/** "Lloyds Bank" → "LB", "HSBC UK" → "HSBC", "first direct" → "FD", "Barclays" → "B". */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((word) => word && !MINOR_WORDS.has(word.toLowerCase()));
  const first = words[0] ?? name;
  // An acronym is already the short form a shopper recognises.
  if (words.length <= 1 && /^[A-Z]{2,4}$/.test(first)) return first;
  const letters = words
    .slice(0, 3)
    .map((word) => Array.from(word)[0] ?? '')
    .join('');
  return (letters || '?').toUpperCase();
}

/** The SVG document of an institution's icon. */
export function institutionIconSvg(
  name: string,
  colour: string = DEFAULT_INSTITUTION_COLOUR,
): string {
  const background = isHexColour(colour) ? colour : DEFAULT_INSTITUTION_COLOUR;
  const text = initials(name);
  const fontSize = text.length <= 1 ? 30 : text.length === 2 ? 26 : text.length === 3 ? 20 : 16;
  const ink = textColourFor(background);
  // One line, as served; the html tag escapes as XML needs too (the same five characters).
  return String(
    html`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${name}"><title>${name}</title><rect width="64" height="64" rx="12" fill="${background}"/><text x="32" y="32" dy="0.35em" text-anchor="middle" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif" font-size="${fontSize}" font-weight="700" fill="${ink}">${text}</text></svg>`,
  );
}

/** Black or white, whichever has the higher WCAG contrast ratio against the background. */
export function textColourFor(background: string): '#000000' | '#ffffff' {
  const l = relativeLuminance(background);
  const againstWhite = 1.05 / (l + 0.05);
  const againstBlack = (l + 0.05) / 0.05;
  return againstWhite >= againstBlack ? '#ffffff' : '#000000';
}

function relativeLuminance(hex: string): number {
  const channel = (offset: number): number => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

// The sandbox as the script host of spec 4.3: the standalone component script
// (`/js/Service-<version>.min.js`), its stylesheets (`/js/Service-0.4.css`,
// `/js/Service-tailwind-0.1.css`), and the newest script at the bare address (`/js`). The files
// come from the package's dist/standalone, which `npm run build` writes.

/** The script host's address on the sandbox; the bare path serves the newest script. */
export const SCRIPT_HOST_PATH = '/js';

const SCRIPT = /^Service-(\d+)\.(\d+)\.(\d+)\.min\.js$/;
const STYLESHEET = /^Service-(?:tailwind-)?\d+\.\d+\.css$/;
/**
 * The result page's script (window.ServiceResult) and the component's extras (the handoff
 * panel, the remembered and featured banks), which the component's script loads beside itself
 * when a page's options ask for them: served beside the component's.
 */
const RESULT_SCRIPT = /^Service-(?:result|extras)-\d+\.\d+\.\d+\.min\.js$/;

/** A year: a versioned file never changes, so browsers need not ask again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The newest `Service-<version>.min.js` in `dir` (versions compared as numbers), if any. */
export async function newestScript(dir: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const version = (name: string) => SCRIPT.exec(name)!.slice(1).map(Number);
  return names
    .filter((name) => SCRIPT.test(name))
    .sort((a, b) => {
      const [x, y] = [version(a), version(b)];
      return y[0]! - x[0]! || y[1]! - x[1]! || y[2]! - x[2]!;
    })[0];
}

/** Whether an If-None-Match header lists this entity tag (weak comparison, as for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Answers `GET {SCRIPT_HOST_PATH}/<name>`; an empty name is the bare address. Only the
 * script and stylesheet names of spec 4.3 are served (so no other file, and no path, can be
 * reached); a file that is not there, for example not built yet, is a 404.
 */
export async function serveScriptHost(
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  scriptDir: string | undefined,
): Promise<void> {
  const latest = name === '';
  const file = latest && scriptDir ? await newestScript(scriptDir) : name;
  const notBuilt = `the standalone script is not built: run npm run build (looked in ${scriptDir ?? "the servicepay package's dist/standalone"})`;
  if (file === undefined || !scriptDir) return sendError(res, 404, `Not found: ${notBuilt}`);
  if (!SCRIPT.test(file) && !RESULT_SCRIPT.test(file) && !STYLESHEET.test(file)) {
    return sendError(
      res,
      404,
      `Not found: the script host serves Service-<version>.min.js, Service-result-<version>.min.js, Service-extras-<version>.min.js, Service-0.4.css and Service-tailwind-0.1.css, not ${JSON.stringify(file)}`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(join(scriptDir, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return sendError(res, 404, `Not found: ${file} (${notBuilt})`);
  }
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
  const headers: Record<string, string> = {
    // Pages that isolate themselves (COEP) may load it from this other origin too.
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // The bare address changes with each release: browsers revalidate it (ETag) every time.
    'Cache-Control': latest ? 'no-cache' : IMMUTABLE,
    ETag: etag,
  };
  // Which version the bare address answered with.
  if (latest) headers['Content-Location'] = `${SCRIPT_HOST_PATH}/${file}`;
  if (matches(req.headers['if-none-match'], etag)) return sendNotModified(res, headers);
  send(res, 200, bytes, {
    ...headers,
    'Content-Type': STYLESHEET.test(file)
      ? 'text/css; charset=utf-8'
      : 'text/javascript; charset=utf-8',
  });
}

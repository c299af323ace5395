/** The browser side: the bank page and its decision, the sandbox's own pages and assets. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bankPage, bankPath, isDecision } from './bank-page';
import type { Decision } from './bank-page';
import type { SandboxContext } from './context';
import { ICON_CSP, pageCsp } from './csp';
import { formFields, readBody, send } from './http';
import { institutionIconSvg } from './icons';
import { deliveriesPage, indexPage, messagePage } from './pages';
import { BANK_ERROR_DESCRIPTION, REJECTED_DESCRIPTION } from './payload';
import { SANDBOX_CSS } from './stylesheet';
import type { FinalPaymentStatus, SandboxPayment } from './types';

/** The decision form has one short field. */
const MAX_FORM_BYTES = 4096;

const OUTCOMES: Record<Decision, { status: FinalPaymentStatus; errorDescription: string | null }> =
  {
    approve: { status: 'COMPLETED', errorDescription: null },
    reject: { status: 'FAILED', errorDescription: REJECTED_DESCRIPTION },
    error: { status: 'FAILED', errorDescription: BANK_ERROR_DESCRIPTION },
  };

export function sendPage(
  res: ServerResponse,
  status: number,
  html: string,
  ctx: SandboxContext,
  headers: Record<string, string> = {},
): void {
  send(res, status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp([ctx.options.webCallbackUrl, ctx.options.mobileCallbackUrl]),
    ...headers,
  });
}

/** The merchant callback for a payment's agentType, with the ids appended; undefined if none. */
export function callbackFor(payment: SandboxPayment, ctx: SandboxContext): string | undefined {
  const base =
    payment.agentType === 'MOBILE_APPLICATION'
      ? ctx.options.mobileCallbackUrl
      : ctx.options.webCallbackUrl;
  if (base === undefined) return undefined;
  const url = new URL(base.href);
  url.searchParams.set('paymentId', payment.paymentId);
  if (payment.merchantPaymentId !== null)
    url.searchParams.set('merchantPaymentId', payment.merchantPaymentId);
  return url.href;
}

function notFoundPayment(res: ServerResponse, paymentId: string, ctx: SandboxContext): void {
  sendPage(
    res,
    404,
    messagePage('Payment not found', `No sandbox payment has the id ${paymentId}.`),
    ctx,
  );
}

export function showBankPage(
  req: IncomingMessage,
  res: ServerResponse,
  paymentId: string,
  ctx: SandboxContext,
): void {
  const payment = ctx.payments.get(paymentId);
  if (payment === undefined) return notFoundPayment(res, paymentId, ctx);
  const institution = ctx.options.institutions.get(payment.institutionId)!;
  sendPage(
    res,
    200,
    bankPage({
      payment,
      institution,
      merchantName: ctx.options.merchantNameFor(payment.applicationId),
      token: ctx.doors.token(payment.paymentId),
      returnUrl: callbackFor(payment, ctx),
    }),
    ctx,
    // Under no-referrer a browser sends `Origin: null` with the form's POST, which the decision
    // refuses; same-origin sends the real origin there and still nothing to other sites.
    { 'Referrer-Policy': 'same-origin' },
  );
}

/**
 * Applies the shopper's decision, then sends them back to the merchant (303), or to the bank
 * page's result view when no callback is configured. A payment already final keeps its status
 * (the first decision stands) and the answer is the same as for the first decision, so a
 * double-clicked button still lands the shopper at the merchant.
 */
export async function decide(
  req: IncomingMessage,
  res: ServerResponse,
  paymentId: string,
  ctx: SandboxContext,
): Promise<void> {
  const fields = formFields(await readBody(req, MAX_FORM_BYTES));
  const decision = fields.get('decision');
  if (ctx.payments.get(paymentId) === undefined) return notFoundPayment(res, paymentId, ctx);
  // A form on another site can post here too: only the bank page's own form decides.
  if (!ctx.doors.fromBankPage(req, paymentId, fields.get('token'))) {
    ctx.options.log(`decision for payment ${paymentId} refused: not from its bank page`);
    return sendPage(
      res,
      403,
      messagePage(
        'Decision refused',
        'The sandbox accepts a decision only from the payment’s own bank page. Open the bank page again and choose there.',
      ),
      ctx,
    );
  }
  if (!isDecision(decision)) {
    return sendPage(
      res,
      400,
      messagePage('Unknown decision', 'Choose Approve, Reject or Bank error on the bank page.'),
      ctx,
    );
  }
  const { status, errorDescription } = OUTCOMES[decision];
  const payment = ctx.settle(paymentId, status, errorDescription)!;
  const location = callbackFor(payment, ctx) ?? bankPath(payment.paymentId);
  send(res, 303, messagePage('Redirecting', `Continue to ${location}`), {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp([]),
    Location: location,
  });
}

export function showIndex(res: ServerResponse, ctx: SandboxContext): void {
  const { options } = ctx;
  sendPage(
    res,
    200,
    indexPage({
      url: ctx.baseUrl(),
      applicationId: ctx.applicationId,
      webhookUrl: options.webhookUrl?.href,
      webCallbackUrl: options.webCallbackUrl?.href,
      mobileCallbackUrl: options.mobileCallbackUrl?.href,
      merchantName: options.merchantNameFor(ctx.applicationId),
      publicUrl: options.publicUrl?.origin,
      institutionCount: options.institutions.size,
      payments: ctx.payments.list(),
    }),
    ctx,
  );
}

export function showDeliveries(res: ServerResponse, ctx: SandboxContext): void {
  sendPage(res, 200, deliveriesPage(ctx.deliverer.attempts(), ctx.options.webhookUrl?.href), ctx);
}

export function sendStylesheet(res: ServerResponse): void {
  send(res, 200, SANDBOX_CSS, { 'Content-Type': 'text/css; charset=utf-8' });
}

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

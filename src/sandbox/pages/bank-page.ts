/**
 * "The bank's environment in the browser" (spec 1): where the shopper approves or rejects a
 * sandbox payment, or plays a slow or lost one (payments/lifecycle.ts). Plain HTML forms, no
 * script, so it works under the strictest CSP and with any assistive technology; the decision
 * is a POST, then a 303 (post/redirect/get), so a reload never decides twice. A decision is
 * accepted only from the page's own form (server/http.ts, the locked doors).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { html } from './html';
import type { Html } from './html';
import { MAX_FORM_BYTES, formFields, readBody } from '../server/http';
import type { Doors } from '../server/http';
import { isBankDecision } from '../payments/lifecycle';
import type { Lifecycle } from '../payments/lifecycle';
import type { ResolvedOptions } from '../api/options';
import type { PaymentStore } from '../payments/store';
import type { SandboxInstitution } from '../contract/institutions';
import type { SandboxPayment } from '../api/types';
import {
  bankPath,
  formatAmount,
  htmlDocument,
  messagePage,
  sendPage,
  sendRedirect,
  timeElement,
} from './page';
import type { PageCallbacks } from './page';

/** What the bank page's routes use of a running sandbox. */
export interface BankParts {
  options: Pick<
    ResolvedOptions,
    'institutions' | 'merchantNameFor' | 'webCallbackUrl' | 'mobileCallbackUrl' | 'log'
  >;
  payments: Pick<PaymentStore, 'get'>;
  doors: Pick<Doors, 'token' | 'fromOwnPage'>;
  lifecycle: Pick<Lifecycle, 'decide' | 'scheduled'>;
}

/** A route of one payment: the request, its response, the id from the path, its parts. */
type PaymentRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  paymentId: string,
  parts: BankParts,
) => void | Promise<void>;

export interface BankPageContext {
  payment: SandboxPayment;
  institution: Required<SandboxInstitution>;
  /** The payee: the merchant's display name for the payment's application. */
  merchantName: string;
  /** The decision form's token: proof that a decision was made on this page. */
  token: string;
  /** Where the shopper goes back to the merchant (with the ids), when a callback is configured. */
  returnUrl: string | undefined;
  /** When the step the payment waits for is due (the window closing, the bank's check), if any. */
  due?: string;
}

function bankBar(institution: Required<SandboxInstitution>): Html {
  return html`<header class="bank-bar">
<img src="/icons/${institution.id}.svg" alt="" width="40" height="40">
<span class="bank-name">${institution.name}</span>
<span class="badge">Sandbox</span>
</header>`;
}

function summary({ payment, institution, merchantName }: BankPageContext): Html {
  return html`<dl class="summary">
<div><dt>Pay to</dt><dd>${merchantName}</dd></div>
<div><dt>Amount</dt><dd class="amount">${formatAmount(payment.amount)}</dd></div>
<div><dt>Reference</dt><dd>${payment.reference}</dd></div>
<div><dt>From</dt><dd>Your ${institution.name} current account</dd></div>
</dl>`;
}

/** The page for a payment: the decision form while undecided, then where the decision led. */
export function bankPage(context: BankPageContext): Html {
  const { payment, institution, merchantName } = context;
  if (payment.status !== 'PENDING' || payment.decision !== null) return resultPage(context);
  const body = html`${bankBar(institution)}
<main>
<div class="card">
<h1>Authorise your payment</h1>
<p class="lead">Pay <strong>${formatAmount(payment.amount)}</strong> to <strong>${merchantName}</strong> from your ${institution.name} account.</p>
${summary(context)}
<form method="post" action="${bankPath(payment.paymentId)}/decision">
<input type="hidden" name="token" value="${context.token}">
<fieldset>
<legend>Do you want to make this payment?</legend>
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="reject">Reject</button>
<button type="submit" name="decision" value="error" class="danger">Bank error</button>
</div>
</fieldset>
<fieldset>
<legend>Or play a slow or lost payment</legend>
<div class="actions">
<button type="submit" name="decision" value="abandon">Leave without deciding</button>
<button type="submit" name="decision" value="approve-pending">Authorise, bank still checking</button>
<button type="submit" name="decision" value="approve-settles-later">Authorise, settles later</button>
</div>
</fieldset>
</form>
</div>
<p class="note">This is the ServicePay sandbox: no real bank is contacted and no money moves. “Bank error” simulates a failure reported by the bank. “Leave without deciding” is a shopper who closes this page: the payment fails when its authorisation window closes. “Bank still checking” sends PENDING, then COMPLETED later; “settles later” sends COMPLETED, then SETTLED.</p>
</main>`;
  return htmlDocument({
    title: `Authorise your payment – ${institution.name} (sandbox)`,
    body,
  });
}

/**
 * Without a return address the shopper stays here: the note names the flag (and option) that
 * sends them back, since this is where a merchant following the docs finds themselves stuck.
 */
function noCallbackNote(agentType: string): Html {
  const mobile = agentType === 'MOBILE_APPLICATION';
  const flag = mobile ? '--mobile-callback-url' : '--web-callback-url';
  const option = mobile ? 'mobileCallbackUrl' : 'webCallbackUrl';
  return html`<p class="note">No callback address is configured for ${agentType} payments, so the shopper stays on this page and the sandbox shows the result here. To send shoppers back to your result page, start the sandbox with <code>${flag} &lt;the address of your result page&gt;</code> (<code>startSandbox</code>: <code>${option}</code>); with the real service, it is your application's callback address.</p>`;
}

/** A decided payment's heading, and what it waits for while the bank still has it. */
function outcome({ payment, due }: BankPageContext): { heading: string; waiting: Html | null } {
  const when = due === undefined ? '' : html` (at ${timeElement(due)})`;
  if (payment.status === 'FAILED') return { heading: 'Payment failed', waiting: null };
  if (payment.status !== 'PENDING') return { heading: 'Payment approved', waiting: null };
  return payment.decision === 'abandon'
    ? {
        heading: 'You left without deciding',
        waiting: html`<p>The payment stays pending until its authorisation window closes${when}; then it fails and no money moves.</p>`,
      }
    : {
        heading: 'Payment authorised',
        waiting: html`<p>Your bank is still checking this payment; it completes when the check ends${when}.</p>`,
      };
}

function resultPage(context: BankPageContext): Html {
  const { payment, institution, merchantName, returnUrl } = context;
  const { heading, waiting } = outcome(context);
  const reason = payment.errorDescription && html`<p>Reason: ${payment.errorDescription}</p>`;
  const back = returnUrl
    ? html`<p><a class="button primary" href="${returnUrl}">Return to ${merchantName}</a></p>`
    : noCallbackNote(payment.agentType);
  const body = html`${bankBar(institution)}
<main>
<div class="card">
<h1 class="status-${payment.status}">${heading}</h1>
<p>Status: <strong>${payment.status}</strong></p>
${waiting}${reason}
${summary(context)}
${back}
</div>
</main>`;
  return htmlDocument({ title: `${heading} – ${institution.name} (sandbox)`, body });
}

/** The merchant callback for a payment's agentType, with the ids appended; undefined if none. */
export function callbackFor(
  payment: SandboxPayment,
  { webCallbackUrl, mobileCallbackUrl }: PageCallbacks,
): string | undefined {
  const base = payment.agentType === 'MOBILE_APPLICATION' ? mobileCallbackUrl : webCallbackUrl;
  if (base === undefined) return undefined;
  const url = new URL(base.href);
  url.searchParams.set('paymentId', payment.paymentId);
  if (payment.merchantPaymentId !== null)
    url.searchParams.set('merchantPaymentId', payment.merchantPaymentId);
  return url.href;
}

function notFoundPayment(res: ServerResponse, paymentId: string, callbacks: PageCallbacks): void {
  sendPage(
    res,
    404,
    messagePage('Payment not found', `No sandbox payment has the id ${paymentId}.`),
    callbacks,
  );
}

export const showBankPage: PaymentRoute = (req, res, paymentId, parts) => {
  const { options, payments, doors } = parts;
  const payment = payments.get(paymentId);
  if (payment === undefined) return notFoundPayment(res, paymentId, options);
  const institution = options.institutions.get(payment.institutionId)!;
  sendPage(
    res,
    200,
    bankPage({
      payment,
      institution,
      merchantName: options.merchantNameFor(payment.applicationId),
      token: doors.token(payment.paymentId),
      returnUrl: callbackFor(payment, options),
      due: parts.lifecycle.scheduled().find((step) => step.paymentId === paymentId)?.at,
    }),
    options,
    // Under no-referrer a browser sends `Origin: null` with the form's POST, which the decision
    // refuses; same-origin sends the real origin there and still nothing to other sites.
    { 'Referrer-Policy': 'same-origin' },
  );
};

/**
 * Applies the shopper's decision, then sends them back to the merchant (303), or to the bank
 * page's result view when no callback is configured. A payment already final keeps its status
 * (the first decision stands) and the answer is the same as for the first decision, so a
 * double-clicked button still lands the shopper at the merchant.
 */
export const decide: PaymentRoute = async (req, res, paymentId, parts) => {
  const { options, payments, doors } = parts;
  const fields = formFields(await readBody(req, MAX_FORM_BYTES));
  const decision = fields.get('decision');
  if (payments.get(paymentId) === undefined) return notFoundPayment(res, paymentId, options);
  // A form on another site can post here too: only the bank page's own form decides.
  if (!doors.fromOwnPage(req, paymentId, fields.get('token'))) {
    options.log(`decision for payment ${paymentId} refused: not from its bank page`);
    return sendPage(
      res,
      403,
      messagePage(
        'Decision refused',
        'The sandbox accepts a decision only from the payment’s own bank page. Open the bank page again and choose there.',
      ),
      options,
    );
  }
  if (!isBankDecision(decision)) {
    return sendPage(
      res,
      400,
      messagePage('Unknown decision', 'Choose Approve, Reject or Bank error on the bank page.'),
      options,
    );
  }
  const payment = parts.lifecycle.decide(paymentId, decision)!;
  // A shopper who leaves does not go back to the merchant: the bank page says what follows.
  const back = payment.decision === 'abandon' ? undefined : callbackFor(payment, options);
  sendRedirect(res, back ?? bankPath(payment.paymentId));
};

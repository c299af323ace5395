/**
 * "The bank's environment in the browser" (spec 1): where the shopper approves or rejects a
 * sandbox payment. Plain HTML forms, no script, so it works under the strictest CSP and with
 * any assistive technology; the decision is a POST, then a 303 (post/redirect/get), so a reload
 * never decides twice.
 */
import { escapeHtml, formatAmount, htmlDocument } from './html';
import type { SandboxInstitution, SandboxPayment } from './types';

export interface BankPageContext {
  payment: SandboxPayment;
  institution: Required<SandboxInstitution>;
  /** The payee: the merchant's display name for the payment's application. */
  merchantName: string;
  /** The decision form's token: proof that a decision was made on this page. */
  token: string;
  /** Where the shopper goes back to the merchant (with the ids), when a callback is configured. */
  returnUrl: string | undefined;
}

/** The decisions offered, as the form's button values. */
export const DECISIONS = ['approve', 'reject', 'error'] as const;
export type Decision = (typeof DECISIONS)[number];

export function isDecision(value: unknown): value is Decision {
  return typeof value === 'string' && (DECISIONS as readonly string[]).includes(value);
}

export function bankPath(paymentId: string): string {
  return `/bank/${encodeURIComponent(paymentId)}`;
}

function bankBar(institution: Required<SandboxInstitution>): string {
  return `<header class="bank-bar">
<img src="/icons/${escapeHtml(institution.id)}.svg" alt="" width="40" height="40">
<span class="bank-name">${escapeHtml(institution.name)}</span>
<span class="badge">Sandbox</span>
</header>`;
}

function summary({ payment, institution, merchantName }: BankPageContext): string {
  return `<dl class="summary">
<div><dt>Pay to</dt><dd>${escapeHtml(merchantName)}</dd></div>
<div><dt>Amount</dt><dd class="amount">${escapeHtml(formatAmount(payment.amount))}</dd></div>
<div><dt>Reference</dt><dd>${escapeHtml(payment.reference)}</dd></div>
<div><dt>From</dt><dd>Your ${escapeHtml(institution.name)} current account</dd></div>
</dl>`;
}

/** The page for a payment: the decision form while PENDING, its result once final. */
export function bankPage(context: BankPageContext): string {
  const { payment, institution, merchantName } = context;
  if (payment.status !== 'PENDING') return resultPage(context);
  const body = `${bankBar(institution)}
<main>
<div class="card">
<h1>Authorise your payment</h1>
<p class="lead">Pay <strong>${escapeHtml(formatAmount(payment.amount))}</strong> to <strong>${escapeHtml(merchantName)}</strong> from your ${escapeHtml(institution.name)} account.</p>
${summary(context)}
<form method="post" action="${escapeHtml(bankPath(payment.paymentId))}/decision">
<input type="hidden" name="token" value="${escapeHtml(context.token)}">
<fieldset>
<legend>Do you want to make this payment?</legend>
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve</button>
<button type="submit" name="decision" value="reject">Reject</button>
<button type="submit" name="decision" value="error" class="danger">Bank error</button>
</div>
</fieldset>
</form>
</div>
<p class="note">This is the ServicePay sandbox: no real bank is contacted and no money moves. “Bank error” simulates a failure reported by the bank.</p>
</main>`;
  return htmlDocument({
    title: `Authorise your payment – ${institution.name} (sandbox)`,
    body,
  });
}

function resultPage(context: BankPageContext): string {
  const { payment, institution, merchantName, returnUrl } = context;
  const completed = payment.status === 'COMPLETED';
  const heading = completed ? 'Payment approved' : 'Payment failed';
  const reason =
    !completed && payment.errorDescription
      ? `<p>Reason: ${escapeHtml(payment.errorDescription)}</p>`
      : '';
  const back = returnUrl
    ? `<p><a class="button primary" href="${escapeHtml(returnUrl)}">Return to ${escapeHtml(merchantName)}</a></p>`
    : `<p class="note">No callback address is configured for ${escapeHtml(payment.agentType)} payments, so the sandbox shows the result here. You can close this page.</p>`;
  const body = `${bankBar(institution)}
<main>
<div class="card">
<h1 class="status-${escapeHtml(payment.status)}">${heading}</h1>
<p>Status: <strong>${escapeHtml(payment.status)}</strong></p>
${reason}
${summary(context)}
${back}
</div>
</main>`;
  return htmlDocument({ title: `${heading} – ${institution.name} (sandbox)`, body });
}

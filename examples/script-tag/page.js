// The merchant's own code on the plain page (examples/script-tag/index.html): the component
// used as the service's specification shows it (spec 4.4), through the global constructor.
'use strict';

(async () => {
  const { sandboxUrl, applicationId } = document.currentScript.dataset;
  const byTestId = (id) => document.querySelector(`[data-testid="${id}"]`);
  const append = (id, text) => {
    const item = document.createElement('li');
    item.textContent = text;
    byTestId(id).append(item);
  };
  let service;
  const showNextId = () => {
    byTestId('merchant-payment-id').textContent = service.merchantPaymentId;
  };

  if (typeof window.Service !== 'function') {
    document.getElementById('service-component').textContent =
      'The payment component could not be loaded. Please try again later.';
    return;
  }

  // The order, made by the shop's server (amount and reference decided there); the payment's
  // metadata names it, so the server's receiver can check the payment against it. A
  // `?reference=` on this page's address asks for an order with that reference, as given: the
  // way to see the component refuse an invalid payment. The tab's open order is paid again
  // after a reload or "Try again".
  const KEY = 'example-coffee:order';
  const remembered = () => {
    try {
      return JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    } catch {
      return null;
    }
  };
  const remember = (order) => {
    try {
      sessionStorage.setItem(KEY, JSON.stringify(order));
    } catch {
      // Storage can be off; the next load makes a new order, nothing breaks.
    }
  };
  const query = new URLSearchParams(window.location.search);
  const reference = query.get('reference');
  // The shopper's language for the component: `?lang=cy` for Welsh (a Welsh public body's pages
  // link both languages), remembered in the tab so that the return page speaks it too.
  const LANG = 'example-coffee:lang';
  let lang = query.get('lang');
  try {
    lang ??= sessionStorage.getItem(LANG);
    if (lang) sessionStorage.setItem(LANG, lang);
  } catch {
    // Storage can be off: the return page is then in English.
  }
  lang ??= 'en';
  let order;
  try {
    const response = await fetch('/api/orders', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(reference === null ? { orderId: remembered()?.orderId } : { reference }),
    });
    if (!response.ok) throw new Error(`POST /api/orders: ${response.status}`);
    order = await response.json();
  } catch {
    document.getElementById('service-component').textContent =
      'We could not load your order. Please reload the page to try again.';
    return;
  }
  const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
  document.getElementById('order-line').textContent =
    `${order.item} — ${pounds.format(order.amount)}`;
  document.getElementById('order-reference').textContent = order.reference;

  service = new window.Service({
    environment: 'SANDBOX',
    applicationId,
    // The sandbox of `npm start` (SANDBOX defaults to http://localhost:4010; LIVE has no
    // default: pass the baseUrl of the backend that serves the contract, or a transport).
    baseUrl: sandboxUrl,
    // 'cy' or 'en': the script carries both (docs/languages.md).
    locale: lang,
    eventConsumer: (event) => {
      append('events', event);
      // Spec 4.4 rule 4: every payment_initiated renews the id for the next payment.
      if (event === window.ServiceEvent.PAYMENT_INITIATED) {
        showNextId();
        remember(order);
      }
    },
    errorConsumer: (error) => append('errors', `${error.location}: ${error.error}`),
    // The id each payment used: what the webhook's merchantPaymentId will be.
    onPaymentInitiated: ({ merchantPaymentId, institutionId }) =>
      append('used-ids', `${merchantPaymentId} (${institutionId})`),
  });

  service.createPayment({
    amount: order.amount,
    paymentReference: order.reference,
    metadata: { orderId: order.orderId },
  });
  service.injectComponent('service-component');
  showNextId();

  const onClick = (id, action) => document.getElementById(id).addEventListener('click', action);
  onClick('enable-pay', () => service.toggleButton(true));
  onClick('disable-pay', () => service.toggleButton(false));
  onClick('open-list', () => service.openInstitutionSelection());
  onClick('pay-monzo', () => service.payWithInstitution('monzo'));
})();

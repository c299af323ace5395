// The merchant's own code on the plain return page (examples/script-tag/return.html): the
// result asks the shop's status endpoint, live, and finds the payment from the return address
// or, with none, from the ids window.Service saved in this tab before opening the bank.
'use strict';

(() => {
  const host = document.getElementById('payment-result');
  if (typeof window.ServiceResult !== 'function') {
    host.textContent =
      'We could not load the status of your payment. Check your banking app, or reload this page.';
    return;
  }
  let locale = 'en';
  try {
    // The language the checkout page was in (page.js remembers it in the tab).
    locale = sessionStorage.getItem('example-coffee:lang') ?? 'en';
  } catch {
    // Storage can be off: English.
  }
  const result = new window.ServiceResult({
    statusUrl: '/api/payments/status',
    locale,
    headingLevel: 1,
    // Shown with "We need to check this payment": a payment that does not match its order.
    reviewContact: 'Questions? Email orders@example-coffee.test and quote your reference.',
    pendingNotice: 'We will email you as soon as your bank confirms the payment.',
    // Back to the plain checkout, to choose a bank again.
    onTryAgain: () => window.location.assign('/script-tag/'),
  });
  result.injectComponent('payment-result');
})();

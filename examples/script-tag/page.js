// The merchant's own code on the plain page (examples/script-tag/index.html): the component
// used as the service's specification shows it (spec 4.4), through the global constructor.
'use strict';

(() => {
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

  service = new window.Service({
    environment: 'SANDBOX',
    applicationId,
    // The sandbox of `npm start` (SANDBOX defaults to http://localhost:4010; LIVE has no
    // default: pass the baseUrl of the backend that serves the contract, or a transport).
    baseUrl: sandboxUrl,
    eventConsumer: (event) => {
      append('events', event);
      // Spec 4.4 rule 4: every payment_initiated renews the id for the next payment.
      if (event === window.ServiceEvent.PAYMENT_INITIATED) showNextId();
    },
    errorConsumer: (error) => append('errors', `${error.location}: ${error.error}`),
    // The id each payment used: what the webhook's merchantPaymentId will be.
    onPaymentInitiated: ({ merchantPaymentId, institutionId }) =>
      append('used-ids', `${merchantPaymentId} (${institutionId})`),
  });

  service.createPayment({
    amount: 12.5,
    paymentReference: 'ORDER-1042',
    metadata: { orderId: 1042 },
  });
  service.injectComponent('service-component');
  showNextId();

  const onClick = (id, action) => document.getElementById(id).addEventListener('click', action);
  onClick('enable-pay', () => service.toggleButton(true));
  onClick('disable-pay', () => service.toggleButton(false));
  onClick('open-list', () => service.openInstitutionSelection());
  onClick('pay-monzo', () => service.payWithInstitution('monzo'));
})();

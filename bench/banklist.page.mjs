// The page of bench/banklist.bench.mjs, bundled by esbuild with React 19 in production mode:
// opening the bank list with 200 institutions, <ServicePay> from the built dist/ against a
// minimal hand-written list of the same items as a React component (a button each, with img
// and name: the budget's baseline), and, for reference, the same list written against the DOM
// directly (what React itself costs).
// Each function mounts its own fresh copy, then times from the click on Pay to the 200 tiles
// in the document with style and layout done, and removes it again.
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ServicePay } from '../dist/index.mjs';

const COUNT = 200;
const institutions = Array.from({ length: COUNT }, (_, i) => ({
  id: `bank-${i}`,
  name: `Bank ${String(i + 1).padStart(3, '0')}`,
  iconUrl: new URL('/icon.svg', window.location.href).href,
}));
const tiles = (host) => host.querySelectorAll('ul[aria-label="Banks"] button').length;

/** Resolves once `done()` holds, checked after every DOM change (microtask timing). */
function until(done) {
  if (done()) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

async function time(host, pay) {
  globalThis.gc?.();
  const start = performance.now();
  pay.click();
  await until(() => tiles(host) === COUNT);
  // Style and layout of the new tiles, as the next frame would need them.
  void host.getBoundingClientRect().height;
  void document.body.offsetHeight;
  return performance.now() - start;
}

async function ours() {
  const host = document.body.appendChild(document.createElement('div'));
  const root = createRoot(host);
  let fetched;
  const ready = new Promise((resolve) => (fetched = resolve));
  root.render(
    createElement(ServicePay, {
      environment: 'SANDBOX',
      applicationId: '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6',
      payment: { amount: 12.5, paymentReference: 'ORDER-1042' },
      transport: {
        fetchInstitutions: async () => institutions,
        initiatePayment: async () => ({ paymentId: 'p', authorisationUrl: 'https://bank.test/' }),
      },
      eventConsumer: (event) => event === 'institutions_fetched' && fetched(),
    }),
  );
  await ready;
  // The banks have arrived; let React commit them before the click.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const ms = await time(host, host.querySelector('button'));
  root.unmount();
  host.remove();
  return ms;
}

async function baseline() {
  const host = document.body.appendChild(document.createElement('div'));
  const pay = host.appendChild(document.createElement('button'));
  pay.type = 'button';
  pay.textContent = 'Pay £12.50';
  pay.addEventListener('click', () => {
    const list = document.createElement('ul');
    list.setAttribute('aria-label', 'Banks');
    for (const institution of institutions) {
      const button = document.createElement('button');
      button.type = 'button';
      const img = button.appendChild(document.createElement('img'));
      img.src = institution.iconUrl;
      img.alt = `${institution.name} logo`;
      img.width = 40;
      img.height = 40;
      button.appendChild(document.createElement('span')).textContent = institution.name;
      list.appendChild(document.createElement('li')).appendChild(button);
    }
    host.appendChild(list);
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const ms = await time(host, pay);
  host.remove();
  return ms;
}

/** The hand-written list as a React component: the least any React rendering of it costs. */
function MinimalList() {
  const [open, setOpen] = useState(false);
  const tile = (institution) =>
    createElement(
      'li',
      { key: institution.id },
      createElement(
        'button',
        { type: 'button' },
        createElement('img', {
          src: institution.iconUrl,
          alt: `${institution.name} logo`,
          width: 40,
          height: 40,
        }),
        createElement('span', null, institution.name),
      ),
    );
  return createElement(
    'div',
    null,
    createElement('button', { type: 'button', onClick: () => setOpen(!open) }, 'Pay £12.50'),
    open && createElement('ul', { 'aria-label': 'Banks' }, institutions.map(tile)),
  );
}

async function react() {
  const host = document.body.appendChild(document.createElement('div'));
  const root = createRoot(host);
  root.render(createElement(MinimalList));
  await until(() => host.querySelector('button') !== null);
  const ms = await time(host, host.querySelector('button'));
  root.unmount();
  host.remove();
  return ms;
}

window.bench = { ours, baseline, react, count: COUNT };

// The page's side of the hosted tests: React (development build, so StrictMode runs effects
// twice) with servicepay/hosted, driven from the test through window.harness.
import { StrictMode, createElement, createRef } from 'react';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { ServicePay, loadService, useServiceScript } from '../../../src/hosted/index';
import type { HostedServicePayHandle, HostedServicePayProps } from '../../../src/hosted/index';

type Props = Omit<HostedServicePayProps, 'eventConsumer' | 'errorConsumer' | 'onPaymentInitiated'>;
interface Options {
  strict?: boolean;
  /** How many components side by side. */
  count?: number;
}

const log: unknown[][] = [];
const refs = [createRef<HostedServicePayHandle>()];
let root: Root | undefined;
/** Which render the callbacks came from: new inline functions on every render. */
let generation = 0;
let options: Options = {};

function app(props: Props): ReactNode {
  const render = ++generation;
  const { strict, count = 1 } = options;
  while (refs.length < count) refs.push(createRef());
  const items = refs.slice(0, count).map((ref, i) =>
    createElement(ServicePay, {
      key: i,
      ...props,
      ref,
      eventConsumer: (event) => log.push(['event', i, render, event]),
      errorConsumer: (error) => log.push(['error', i, render, error.location, error.error]),
      onPaymentInitiated: (details) => log.push(['initiated', i, details.merchantPaymentId]),
    }),
  );
  // One component is rendered alone (not in an array), as the server test renders it.
  const tree = count == 1 ? items[0] : items;
  return strict ? createElement(StrictMode, null, tree) : tree;
}

function Status({ src }: { src: string }) {
  const { status, retry } = useServiceScript(src);
  return createElement(
    'p',
    null,
    `script: ${status}`,
    status == 'error' && createElement('button', { type: 'button', onClick: retry }, 'Reload'),
  );
}

const container = () => document.getElementById('root')!;

Object.assign(window, {
  harness: {
    log,
    mount(props: Props, opts: Options = {}) {
      options = opts;
      root = createRoot(container());
      // Synchronously, so that the ref handle is there when mount returns.
      flushSync(() => root!.render(app(props)));
    },
    hydrate(props: Props) {
      options = {};
      root = hydrateRoot(container(), app(props), {
        onRecoverableError: (error: unknown) => log.push(['hydration', String(error)]),
      });
    },
    update(props: Props) {
      // Synchronously too: a sync render's effects (the callbacks the instance reads) have run
      // when update returns, so an event emitted next reaches this render's callbacks.
      flushSync(() => root!.render(app(props)));
    },
    unmount() {
      root?.unmount();
      root = undefined;
    },
    handle: (i = 0) => refs[i]!.current,
    status(src: string) {
      root = createRoot(container());
      root.render(createElement(Status, { src }));
    },
    loadService,
  },
});

/**
 * The standalone script (spec 4.3), `Service-<version>.min.js`: defines `window.Service` and
 * `window.ServiceEvent` for a plain `<script src>` tag, with everything bundled.
 */
import { Fragment } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { jsx, jsxs } from 'preact/jsx-runtime';
import { ServiceEvent } from '../core/index';
import { runningScript, setScriptNonce } from './host';
import { setExtrasScript } from './load-extras-script';
import { Service } from './service';

// Read while this script runs (currentScript is null afterwards): a page under a strict CSP
// that gave this script a nonce gets the component's styles through with the same nonce.
const script = runningScript();
setScriptNonce(script?.nonce);
setExtrasScript(script);

// Service.runtime is what Service-extras-<version>.min.js renders with: this script's Preact, so
// that its parts are part of the component's own tree (rollup.config.mjs, EXTRAS_RUNTIME).
// Assigned in one expression, which minifies smaller than Object.assign(window, {...}).
window.Service = Object.assign(Service, {
  runtime: {
    Fragment,
    jsx,
    jsxs,
    useEffect,
    useLayoutEffect,
    useMemo,
    useRef,
    useState,
  },
});
window.ServiceEvent = ServiceEvent;

declare global {
  interface Window {
    /** The component's constructor (spec 4.3, 4.4). */
    Service: typeof Service;
    /** The event names passed to `eventConsumer` (spec 6.2). */
    ServiceEvent: typeof ServiceEvent;
  }
}

// @ts-check
// The example merchant's server: serves the checkout page, receives the service's webhooks
// through createWebhookHandler (signature verified with the sandbox's public key, each
// notification processed once) and answers the return page from createPaymentStatusHandler,
// both on one store: the receiver records each payment's outcome there, the status endpoint
// reads it and streams it to the page. The orders are made here (orders.mjs): the page asks
// POST /api/orders for the amount and the reference, and the receiver checks every confirmed
// payment against its order (expectedPayment) before the shop counts it as paid. The shop's
// own payment records (`payments`) are what its onNotification does. The page's assets go out
// compressed (assets.mjs). The same shop on servicepay/hosted is at /hosted (hosted.tsx): its
// return page finds the payment through the shopper's session (sessions.mjs) when the bank
// drops the return address's query.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  MemoryIdempotencyStore,
  createPaymentStatusHandler,
  createWebhookHandler,
} from 'servicepay/webhook';
import { SANDBOX_BASE_URL } from 'servicepay/sandbox';
import { compressedAsset, sendAsset } from './assets.mjs';
import { createOrderBook } from './orders.mjs';
import { createSessions } from './sessions.mjs';

export { ORDER_WINDOW_MS } from './orders.mjs';

const here = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Bundles a page against the built package (run `npm run build` first): the checkout
 * (app.tsx, with the result page), or the checkout on servicepay/hosted (hosted.tsx).
 */
export async function buildCheckoutBundle(entry = './app.tsx') {
  const result = await build({
    entryPoints: [here(entry)],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    jsx: 'automatic',
    minify: true,
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: {
      servicepay: here('../../dist/index.mjs'),
      'servicepay/extras': here('../../dist/extras.mjs'),
      'servicepay/hosted': here('../../dist/hosted.mjs'),
      'servicepay/core': here('../../dist/core.mjs'),
    },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/**
 * The shop's own record of a payment, written by its onNotification (a database row in a real
 * shop). The return page does not read it: it asks the status endpoint.
 * @typedef {{
 *   paymentId: string, merchantPaymentId: string | null, paymentStatus: string,
 *   errorDescription: string | null, amount: number, reference: string | null,
 *   timesProcessed: number
 * }} StoredPayment
 */

/**
 * The shop's display name: the page's heading, and the payee the sandbox's bank page shows
 * (startCheckout returns it as merchantName, for startSandbox: a payee that does not match the
 * shop looks like fraud).
 */
const MERCHANT_NAME = 'Example Coffee Co.';

/**
 * The largest order or attempt request read: `{ "orderId": …, "reference": … }` and
 * `{ "merchantPaymentId": … }` are far smaller.
 */
const MAX_ORDER_REQUEST_BYTES = 1024;

/**
 * The JSON object of a request's body; 'too-large' past `limit` bytes (the rest is read and
 * dropped, within the server's requestTimeout), undefined when it is not a JSON object.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<Record<string, unknown> | 'too-large' | undefined>}
 */
function readJsonObject(req, limit) {
  return new Promise((resolve) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('error', () => resolve(undefined));
    req.on('end', () => {
      if (size > limit) return resolve('too-large');
      try {
        const value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const object = value !== null && typeof value === 'object' && !Array.isArray(value);
        resolve(object ? value : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

/**
 * The JSON object a POST of the page's API carries, or undefined once the request has been
 * answered: 405 for another method, 415 for another type (JSON only, which a cross-site form
 * cannot send without the browser asking this server first), 413 past the bound, 400 for
 * anything but a JSON object.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function readJsonPost(req, res) {
  if (req.method !== 'POST') return void res.writeHead(405, { Allow: 'POST' }).end();
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return void res.writeHead(415).end();
  const body = await readJsonObject(req, MAX_ORDER_REQUEST_BYTES);
  if (body === 'too-large') return void res.writeHead(413).end();
  if (!body) return void res.writeHead(400).end();
  return body;
}

/** Where examples/script-tag/index.html loads the component from: `npm start`'s sandbox. */
const DEFAULT_SANDBOX_URL = SANDBOX_BASE_URL;

/** @type {ReturnType<typeof readPageFiles> | undefined} */
let pageFilesOnce;
/**
 * The page's files, bundled and compressed once per process: every shop a process starts
 * serves the same files (a test file starts one per test), and brotli at its best quality
 * costs most of a second of CPU each time. A failed build is not kept: the next start tries
 * again.
 */
function pageFiles() {
  if (!pageFilesOnce) {
    pageFilesOnce = readPageFiles();
    pageFilesOnce.catch(() => (pageFilesOnce = undefined));
  }
  return pageFilesOnce;
}

async function readPageFiles() {
  const [bundle, hostedBundle, css, hostedCss, integrity, packageJson, ...plain] =
    await Promise.all([
      buildCheckoutBundle(),
      buildCheckoutBundle('./hosted.tsx'),
      readFile(here('./app.css'), 'utf8'),
      // The package's optional stylesheet for servicepay/hosted's placeholder, served as a file
      // of this origin, as a merchant serves it.
      readFile(here('../../dist/css/hosted.css'), 'utf8'),
      readFile(here('../../dist/standalone/integrity.json'), 'utf8'),
      readFile(here('../../package.json'), 'utf8'),
      readFile(here('../script-tag/index.html'), 'utf8'),
      readFile(here('../script-tag/page.js'), 'utf8'),
      readFile(here('../script-tag/return.html'), 'utf8'),
      readFile(here('../script-tag/return.js'), 'utf8'),
    ]);
  const [scriptTagHtml, scriptTagJs, returnHtml, returnJs] = plain;
  const js = 'text/javascript; charset=utf-8';
  const styles = 'text/css; charset=utf-8';
  const assets = {
    '/app.js': compressedAsset(bundle, js),
    '/hosted.js': compressedAsset(hostedBundle, js),
    '/app.css': compressedAsset(css, styles),
    '/hosted.css': compressedAsset(hostedCss, styles),
    '/script-tag/page.js': compressedAsset(scriptTagJs, js),
    '/script-tag/return.js': compressedAsset(returnJs, js),
  };
  // The service's script as /hosted loads it: its versioned file at the sandbox's script host,
  // pinned by the hash the build published (as the live service publishes its own).
  const { componentVersion } = JSON.parse(packageJson);
  const script = `Service-${componentVersion}.min.js`;
  const hostedScript = { file: `/js/${script}`, integrity: JSON.parse(integrity)[script] };
  return { assets, scriptTagHtml, returnHtml, hostedScript };
}

/**
 * @param {{ port?: number, host?: string, orderWindowMs?: number, now?: () => number }} [options]
 *   `orderWindowMs`: how long an order takes payment (orders.mjs, 15 minutes); `now`: the
 *   shop's clock, for tests that run an order's life on a time scale
 */
export async function startCheckout({ port = 4000, host = '127.0.0.1', orderWindowMs, now } = {}) {
  const { assets, scriptTagHtml, returnHtml, hostedScript } = await pageFiles();
  /** @type {Map<string, StoredPayment>} */
  const payments = new Map();
  const orderBook = createOrderBook({ windowMs: orderWindowMs, now });
  // Each shopper's session and the order it made last: how the return page finds a hosted
  // payment when the bank drops the query (GET /api/checkout/payment, below).
  const sessions = createSessions();
  // One store for the receiver and the status endpoint: the receiver records each payment's
  // outcome in it once onNotification succeeded, the endpoint reads it and hears it recorded.
  // In memory for one process; several instances share createPostgresStore or createRedisStore.
  const store = new MemoryIdempotencyStore();
  const status = createPaymentStatusHandler({
    store,
    // What was paid (amount, payee, reference), which the result page shows under its final
    // heading: from the order this server holds, by the payment the receiver counted for it.
    expose: (outcome) => orderBook.paid(outcome, MERCHANT_NAME),
  });
  /** @type {{ url: string, applicationId: string } | undefined} */
  let sandbox;
  /** @type {import('servicepay/webhook').WebhookHandler | undefined} */
  let receive;

  /**
   * @param {string} nonce
   * @param {string} title
   * @param {boolean} [hosted] the checkout on servicepay/hosted (/hosted), not the first one
   */
  const page = (nonce, title, hosted = false) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="stylesheet" href="/app.css" />${hosted ? '\n    <link rel="stylesheet" href="/hosted.css" />' : ''}
  </head>
  <body>
    <div id="root"></div>
    <script type="application/json" id="config">${JSON.stringify({
      sandboxUrl: sandbox?.url,
      applicationId: sandbox?.applicationId,
      merchantName: MERCHANT_NAME,
      nonce,
      // This server's status endpoint (below), for the desktop handoff's outcome.
      statusUrl: '/api/payments/status',
      ...(hosted && {
        scriptSrc: `${sandbox?.url ?? DEFAULT_SANDBOX_URL}${hostedScript.file}`,
        integrity: hostedScript.integrity,
      }),
    }).replace(/</g, '\\u003c')}</script>
    <script type="module" src="${hosted ? '/hosted.js' : '/app.js'}"></script>
  </body>
</html>`;

  /**
   * A plain page as written, pointed at the running sandbox (its port may differ from the
   * default), with this response's nonce on the script host's script tag.
   * @param {string} html
   * @param {string} nonce
   */
  const plainPage = (html, nonce) =>
    html
      .replaceAll(DEFAULT_SANDBOX_URL, sandbox?.url ?? DEFAULT_SANDBOX_URL)
      .replace('nonce=""', `nonce="${nonce}"`);

  /**
   * A strict CSP, as a merchant should run: scripts only from this origin (and, for the plain
   * page, the script host), the component's injected styles by nonce, calls and images only
   * to the sandbox.
   * @param {string} nonce
   * @param {string} [scriptHost]
   */
  const csp = (nonce, scriptHost) =>
    [
      "default-src 'self'",
      `connect-src 'self' ${sandbox?.url ?? ''}`,
      `img-src 'self' ${sandbox?.url ?? ''}`,
      `style-src 'self' 'nonce-${nonce}'`,
      `script-src 'self'${scriptHost ? ` ${scriptHost}` : ''}`,
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; ');

  // Every request's bytes arrive within 10 s (the order's body among them), or it is dropped.
  const server = createServer({ requestTimeout: 10_000 }, async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/webhooks/servicepay') {
      if (!receive) return void res.writeHead(503).end();
      return void receive(req, res);
    }
    // The return page's question: JSON, or an event stream; 400 for a malformed id, 405 for
    // anything but GET (the handler answers all of it).
    if (url.pathname === '/api/payments/status') return void status(req, res);
    // The page's order: made here, amount and reference decided here.
    if (url.pathname === '/api/orders') {
      const body = await readJsonPost(req, res);
      if (!body) return;
      const { order, created } = orderBook.open(body);
      // A new order becomes the session's; one asked for again (a reload, Try again, a link)
      // changes nothing: the browser cannot make its session follow an order by naming it.
      const cookie = created ? sessions.madeOrder(req, order.orderId) : undefined;
      res.writeHead(created ? 201 : 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
        ...(cookie && { 'Set-Cookie': cookie }),
      });
      return void res.end(JSON.stringify(order));
    }
    // The attempt the hosted checkout just began (onPaymentInitiated), for the session's order.
    // The session names the order; the body only the attempt's merchantPaymentId, which picks
    // among the payments the receiver verified for that order (orders.mjs, paymentToShow).
    if (url.pathname === '/api/checkout/attempts') {
      const body = await readJsonPost(req, res);
      if (!body) return;
      const id = body.merchantPaymentId;
      if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
        return void res.writeHead(400).end();
      }
      const orderId = sessions.orderOf(req);
      if (orderId === undefined) return void res.writeHead(404).end();
      orderBook.attempt(orderId, id);
      return void res.writeHead(204).end();
    }
    // Which payment the session's order is paying, for a return page whose address names none
    // (examples/checkout/session-result.tsx): its ids once the receiver has heard of the last
    // attempt; `waiting` while it has not (the page asks again); neither when the session has
    // no order with an attempt. Always 200: "none" is an answer, not a failed request.
    if (url.pathname === '/api/checkout/payment') {
      if (req.method !== 'GET') return void res.writeHead(405, { Allow: 'GET' }).end();
      const orderId = sessions.orderOf(req);
      const shown = orderId === undefined ? 'none' : orderBook.paymentToShow(orderId);
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
      });
      const payment = typeof shown === 'object' ? shown.payment : null;
      return void res.end(JSON.stringify({ payment, waiting: shown === 'waiting' }));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return void res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    }
    if (url.pathname === '/' || url.pathname === '/return') {
      const nonce = randomBytes(16).toString('base64');
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp(nonce),
      });
      const title = url.pathname === '/' ? 'checkout' : 'your payment';
      return void res.end(page(nonce, `${MERCHANT_NAME} — ${title}`));
    }
    // The same checkout on servicepay/hosted: the service's script comes from its host (the
    // sandbox), with this response's nonce on its element.
    if (url.pathname === '/hosted') {
      const nonce = randomBytes(16).toString('base64');
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp(nonce, sandbox?.url ?? DEFAULT_SANDBOX_URL),
      });
      return void res.end(page(nonce, `${MERCHANT_NAME} — checkout`, true));
    }
    // The same checkout on a plain page, with the component's <script> tag (spec 4.3, 4.4).
    if (url.pathname === '/script-tag') {
      return void res.writeHead(308, { Location: '/script-tag/' }).end();
    }
    // The plain checkout, and its return page with the result's script tag (window.ServiceResult).
    // The sandbox sends every shopper back to /return; a shop whose pages are plain sets its
    // callback address to /script-tag/return instead.
    const plain = { '/script-tag/': scriptTagHtml, '/script-tag/return': returnHtml }[url.pathname];
    if (plain !== undefined) {
      const nonce = randomBytes(16).toString('base64');
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': csp(nonce, sandbox?.url ?? DEFAULT_SANDBOX_URL),
      });
      return void res.end(plainPage(plain, nonce));
    }
    const asset = assets[/** @type {keyof typeof assets} */ (url.pathname)];
    if (asset) return void (await sendAsset(req, res, asset));
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const origin = `http://${host}:${address.port}`;

  return {
    url: `${origin}/`,
    merchantName: MERCHANT_NAME,
    scriptTagUrl: `${origin}/script-tag/`,
    scriptTagReturnUrl: `${origin}/script-tag/return`,
    hostedUrl: `${origin}/hosted`,
    webhookUrl: `${origin}/webhooks/servicepay`,
    returnUrl: `${origin}/return`,
    statusUrl: `${origin}/api/payments/status`,
    payments,
    orders: orderBook.orders,
    reviews: orderBook.reviews,
    store,
    /**
     * Points the page and the webhook receiver at a sandbox (started after this server,
     * since the sandbox needs our webhook and return addresses).
     * @param {{ url: string, applicationId: string }} target
     */
    useSandbox(target) {
      sandbox = { url: target.url.replace(/\/$/, ''), applicationId: target.applicationId };
      receive = createWebhookHandler({
        publicKeyUrl: `${sandbox.url}/.well-known/signature/pem`,
        store,
        // The signature proves the service sent the notification; only the shop can prove the
        // payment pays for the right order. The payment was made in the shopper's browser, so
        // its amount, reference and metadata may have been changed there: a COMPLETED one is
        // compared with the order it names, as this server made it. One that does not match is
        // recorded as NEEDS_REVIEW (the result page says the shop will check it), not paid.
        expectedPayment: (notification) => orderBook.expectedPayment(notification),
        onMismatch: (mismatch) => orderBook.review(mismatch),
        // The shop's own side effect; the outcome for the return page is recorded by the
        // receiver itself, in `store`, once this has returned.
        onNotification(notification) {
          orderBook.settle(notification);
          const previous = payments.get(notification.paymentId);
          payments.set(notification.paymentId, {
            paymentId: notification.paymentId,
            merchantPaymentId: notification.merchantPaymentId ?? null,
            paymentStatus: notification.paymentStatus,
            errorDescription: notification.errorDescription ?? null,
            amount: notification.paymentRequest.amount,
            reference: notification.paymentRequest.reference ?? null,
            timesProcessed: (previous?.timesProcessed ?? 0) + 1,
          });
        },
      });
    },
    async stop() {
      // The open event streams end first, then the connections.
      await status.close();
      await new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      });
    },
  };
}

/** The options of startSandbox (checked and completed in options.ts). */
import type { WebhookDeliveryAttempt } from './types';

/** A bank listed by the sandbox. Its icon is generated: a coloured square with initials. */
export interface SandboxInstitution {
  /** The institutionId; lower-case letters, digits and dashes (it also names the icon file). */
  id: string;
  /** The name shown to the shopper. */
  name: string;
  /**
   * Background colour of the generated icon, `#rrggbb`. The initials are drawn in black or
   * white, whichever contrasts more.
   * @default '#475569'
   */
  colour?: string;
  /**
   * False lists the bank with `"available": false`: the component shows it but it cannot be
   * paid, and `POST /v1/payments` at it is refused (422).
   * @default true
   */
  available?: boolean;
}

/** How failed webhook deliveries are retried. The wait before attempt n+1 is
 * `min(initialDelayMs * factor^(n-1), maxDelayMs)`. */
export interface SandboxRetryOptions {
  /**
   * Wait before the second attempt, in milliseconds.
   * @default 500
   */
  initialDelayMs?: number;
  /**
   * Each further wait is the previous one times this (at least 1).
   * @default 2
   */
  factor?: number;
  /**
   * Longest wait between two attempts, in milliseconds.
   * @default 30000
   */
  maxDelayMs?: number;
  /**
   * Attempts per notification, the first included; delivery then gives up.
   * @default 20
   */
  maxAttempts?: number;
  /**
   * An attempt without a complete answer after this many milliseconds counts as failed.
   * @default 5000
   */
  timeoutMs?: number;
}

/** What the sandbox knows of one merchant application. */
export interface SandboxApplication {
  /** The payee shown on the bank page for this application's payments. */
  merchantName: string;
}

/** Options of startSandbox. */
export interface SandboxOptions {
  /**
   * TCP port to listen on; 0 picks a free one (the result's `url` carries it).
   * @default 4010
   */
  port?: number;
  /**
   * Address to listen on. The default keeps the sandbox private to this machine; use
   * '0.0.0.0' to reach it from a phone on the same network.
   * @default '127.0.0.1'
   */
  host?: string;
  /**
   * Where webhook notifications are PUT (the merchant receiver, spec 4.1). Without it no
   * notification is sent.
   */
  webhookUrl?: string;
  /**
   * Where the shopper returns after deciding, for payments with agentType WEB_BROWSER.
   * `?paymentId=…&merchantPaymentId=…` is appended. Without it the bank page shows the result.
   */
  webCallbackUrl?: string;
  /**
   * Where the shopper returns after deciding, for payments with agentType
   * MOBILE_APPLICATION (an http(s) URL or an app scheme such as `myapp://paid`).
   */
  mobileCallbackUrl?: string;
  /**
   * The banks offered.
   * @default DEFAULT_INSTITUTIONS (about twenty UK banks)
   */
  institutions?: readonly SandboxInstitution[];
  /**
   * Ids of listed banks to mark unavailable (shown, not payable), without restating the list:
   * `['santander']` on the default banks. An id not in the list is a SandboxConfigError.
   * @default none
   */
  unavailableInstitutions?: readonly string[];
  /** Retry policy of webhook deliveries. */
  retry?: SandboxRetryOptions;
  /**
   * Path of a PEM private key (PKCS#8 or PKCS#1 RSA) to sign webhooks with, so the public key
   * stays the same across restarts. When the file does not exist, a new key is generated and
   * written there (mode 0600).
   * @default a new RSA 2048 key for each start
   */
  keyFile?: string;
  /**
   * Directory of the standalone component script and its stylesheets, which the sandbox
   * serves as the script host of spec 4.3: `/js/Service-<version>.min.js` (the newest at the
   * bare `/js`), `/js/Service-0.4.css`, `/js/Service-tailwind-0.1.css`.
   * @default the servicepay package's dist/standalone (written by `npm run build`)
   */
  scriptDir?: string;
  /**
   * The payee shown on the bank page ("Pay £12.50 to Example Coffee Co."), for every
   * application without a name of its own in `applications`. A payee that does not match the
   * shop looks like fraud to a shopper: give the shop's display name.
   * @default 'Sandbox merchant'
   */
  merchantName?: string;
  /**
   * Settings per application id (a UUID). Any UUID is accepted as an application id, listed
   * here or not; an entry only names that application's merchant.
   * @example { '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90': { merchantName: 'Example Coffee Co.' } }
   */
  applications?: Readonly<Record<string, SandboxApplication>>;
  /**
   * The address browsers reach the sandbox at when it is not this machine's loopback or an IP
   * address: a tunnel (`https://pay-sandbox.example.test`) or a network name
   * (`http://devbox.local:4010`). The sandbox answers requests for this host name (other
   * names are refused with 421, against DNS rebinding) and hands out its addresses (bank
   * pages, icons) with it. An origin only: no path.
   */
  publicUrl?: string;
  /**
   * Receives one line per notable event (payment created, settled, delivery attempts).
   * @default no logging
   */
  log?: (line: string) => void;
  /** Called after every webhook delivery attempt, with its record. */
  onDelivery?: (attempt: WebhookDeliveryAttempt) => void;
  /**
   * Delivery attempts kept for the deliveries page, `sandbox.deliveries` and
   * `/deliveries.json`; beyond it the oldest are dropped. A notification can still be resent
   * once its attempts are gone.
   * @default 1000
   */
  deliveryHistory?: number;
  /**
   * Payments kept, each with its notification; beyond it the oldest are forgotten (their ids
   * then answer 404, and their attempts leave the deliveries page). `POST /v1/payments`
   * answers any origin, so what it keeps is bounded.
   * @default 1000
   */
  maxPayments?: number;
  /**
   * How long a payment the shopper left undecided (the bank page's "Leave without deciding")
   * waits for a decision: then it FAILS with `EXPIRED_DESCRIPTION` and its notification is
   * sent. Other payments wait for their decision for as long as the sandbox runs.
   * @default 900000 (15 minutes)
   */
  authorisationWindowMs?: number;
  /**
   * How long the bank keeps checking a payment approved with "Authorise, bank still checking":
   * a PENDING notification at once, COMPLETED this long after.
   * @default 120000 (2 minutes)
   */
  bankCheckMs?: number;
  /**
   * How long after its COMPLETED a payment approved with "Authorise, settles later" is SETTLED
   * (a second notification).
   * @default 300000 (5 minutes)
   */
  settleAfterMs?: number;
  /**
   * How much faster the sandbox's clock runs: every wait it plays (the authorisation window,
   * the bank's check, the settlement, a delivery's delay and late resend) is divided by it, so
   * `600` plays a 15-minute window in 1.5 s. Retries, timeouts and the times shown stay real.
   * @default 1
   */
  timeScale?: number;
}

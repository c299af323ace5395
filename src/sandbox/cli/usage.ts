/** The `servicepay-sandbox` command's usage text and each command's flags (node:util parseArgs). */
import type { ParseArgsConfig } from 'node:util';
import { SANDBOX_BASE_URL } from '../../core/index';
import { BANK_ERROR_DESCRIPTION } from '../deliveries/notification';
import {
  DEFAULT_AUTHORISATION_WINDOW_MS,
  DEFAULT_BANK_CHECK_MS,
  DEFAULT_DELIVERY_HISTORY,
  DEFAULT_MAX_PAYMENTS,
  DEFAULT_MERCHANT_NAME,
  DEFAULT_SETTLE_AFTER_MS,
  SANDBOX_DEFAULT_PORT,
} from '../api/options';

/** Where the commands that act on a running sandbox find it unless --sandbox says otherwise. */
export const DEFAULT_SANDBOX_ADDRESS = SANDBOX_BASE_URL;

export const USAGE = `Usage:
  servicepay-sandbox [options]                 Start the ServicePay sandbox
  servicepay-sandbox send-webhook [options]    Send one signed test notification (spec 5.3)
  servicepay-sandbox resend <payment-id> [faults]
                                               Send a payment's notification again, with the
                                               same bytes and signature, also after the
                                               sandbox gave up on it
  servicepay-sandbox break [faults] [--payment <id> | --next <n>]
                                               Break the next notifications (or one payment's)
                                               on purpose
  servicepay-sandbox check-receiver            Run the receiver check against the sandbox's
                                               webhook URL and print what it answered
  servicepay-sandbox complete-late <payment-id>
                                               Send a late COMPLETED for a past payment (one
                                               left undecided, or FAILED)
  servicepay-sandbox pay-again <payment-id>    A second paid attempt for that payment's order:
                                               a new payment, same amount and metadata,
                                               COMPLETED
  servicepay-sandbox rotate-key [--prepare]    Rehearse a key rotation: --prepare prints the
                                               next key (publish it beside the current one);
                                               without it, the sandbox signs with that key

Sandbox options:
  --port <n>                   Port to listen on (default ${SANDBOX_DEFAULT_PORT}; 0 picks a free one)
  --host <address>             Address to listen on (default 127.0.0.1; 0.0.0.0 for the network)
  --webhook-url <url>          Where webhook notifications are PUT
  --web-callback-url <url>     Where shoppers return after the bank page (WEB_BROWSER)
  --mobile-callback-url <url>  Where shoppers return after the bank page (MOBILE_APPLICATION)
  --key-file <path>            PEM private key to sign webhooks with, created when missing,
                               so the public key stays the same across restarts
  --merchant-name <name>       The payee the bank page shows (default "${DEFAULT_MERCHANT_NAME}");
                               <application-id>=<name> names one application's merchant
                               (repeat the flag for several)
  --public-url <url>           The address browsers use when it is not localhost or an IP
                               address (a tunnel, a network name); other host names are refused
  --delivery-history <n>       Delivery attempts kept for the deliveries page (default
                               ${DEFAULT_DELIVERY_HISTORY}); the oldest are dropped
  --max-payments <n>           Payments kept, with their notifications (default
                               ${DEFAULT_MAX_PAYMENTS}); the oldest are forgotten
  --unavailable <id>[,<id>...] Banks listed as unavailable: shown, but a payment there is
                               refused (repeat the flag or separate ids with commas)
  --authorisation-window <ms>  How long a payment left undecided on the bank page waits before
                               it FAILS (default ${DEFAULT_AUTHORISATION_WINDOW_MS}: 15 minutes)
  --bank-check <ms>            "Authorise, bank still checking": PENDING, then COMPLETED this
                               much later (default ${DEFAULT_BANK_CHECK_MS})
  --settle-after <ms>          "Authorise, settles later": COMPLETED, then SETTLED this much
                               later (default ${DEFAULT_SETTLE_AFTER_MS})
  --time-scale <factor>        Run those waits and delivery delays this many times faster
                               (600: a 15-minute window in 1.5 s; default 1)
  -h, --help                   Show this help

send-webhook options:
  --to <url>                   The receiver's address (required)
  --status COMPLETED|FAILED    Which example to send (required)
  --key-file <path>            Sign with this key; use the running sandbox's --key-file so the
                               receiver verifies with the key the sandbox serves
  Any field of the payload, to reproduce a notification exactly:
  --payment-id <id>            paymentId (default a new UUID)
  --merchant-payment-id <id>   merchantPaymentId (default a new UUID; null sends null)
  --amount <number>            paymentRequest.amount (default 12.5)
  --reference <text>           paymentRequest.reference (default ORDER-1042)
  --metadata <json>            paymentMetadata: a JSON object, or null
  --error-description <text>   errorDescription, FAILED only (default "${BANK_ERROR_DESCRIPTION}")

Faults (resend, break): what the real service may do, done on purpose
  --twice-at-once              Send two copies at the same moment
  --late-resend <ms>           Send it again this many milliseconds after the receiver's 200
  --network-failures <n>       Fail the first n attempts before they reach the receiver
  --delay <ms>                 Wait this many milliseconds before the first attempt
  resend without faults applies those armed for the payment, if any.

resend, break, check-receiver, complete-late, pay-again and rotate-key talk to a running
sandbox:
  --sandbox <url>              Its address (default ${DEFAULT_SANDBOX_ADDRESS})
  --payment <id>               break: only this payment's next delivery (when it settles, or
                               its next resend)
  --next <n>                   break: the next n notifications (default 1; 0 disarms them)

Exit status: 0 on success (sandbox stopped cleanly; receiver answered 200; resend, break,
complete-late or pay-again accepted; every receiver check case as expected), 1 on failure
(sandbox could not start or be reached; receiver answered another status or did not answer; a
case not as expected), 2 on a usage error.`;

/** Every command takes -h/--help. */
const HELP_OPTION = {
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

/** Flags that take a value (`--port 4010`): most of them, named once each here. */
function valueFlags<const K extends string>(...names: K[]) {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as {
    readonly [N in K]: { readonly type: 'string' };
  };
}

const REPEATED = { type: 'string', multiple: true } as const;

export const SERVER_OPTIONS = {
  ...valueFlags(
    'port',
    'host',
    'webhook-url',
    'web-callback-url',
    'mobile-callback-url',
    'key-file',
    'public-url',
    'delivery-history',
    'max-payments',
    'authorisation-window',
    'bank-check',
    'settle-after',
    'time-scale',
  ),
  'merchant-name': REPEATED,
  unavailable: REPEATED,
  ...HELP_OPTION,
} as const satisfies ParseArgsConfig['options'];

export const SEND_OPTIONS = {
  ...valueFlags(
    'to',
    'status',
    'key-file',
    'payment-id',
    'merchant-payment-id',
    'amount',
    'reference',
    'metadata',
    'error-description',
  ),
  ...HELP_OPTION,
} as const satisfies ParseArgsConfig['options'];

/** The commands that talk to a running sandbox (all but the sandbox itself and send-webhook). */
export const CHECK_OPTIONS = {
  sandbox: { type: 'string' },
  ...HELP_OPTION,
} as const satisfies ParseArgsConfig['options'];

export const FAULT_OPTIONS = {
  ...CHECK_OPTIONS,
  'twice-at-once': { type: 'boolean' },
  'late-resend': { type: 'string' },
  'network-failures': { type: 'string' },
  delay: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const BREAK_OPTIONS = {
  ...FAULT_OPTIONS,
  payment: { type: 'string' },
  next: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const ROTATE_OPTIONS = {
  ...CHECK_OPTIONS,
  prepare: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

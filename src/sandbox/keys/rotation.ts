/**
 * Rotating the sandbox's signing key, so a merchant can rehearse a rotation offline: prepare
 * the next key (publish it beside the current one: `publicKey: [current, next]`), rotate (the
 * sandbox signs with it from then on, and its public-key endpoint serves it), then remove the
 * old key. The `/keys` page shows the keys and does both steps; `servicepay-sandbox rotate-key`
 * and `Sandbox.rotateKey()` do them from a terminal or a test.
 *
 * The rotation lives in memory: a sandbox restarted with --key-file signs with the file's key
 * again (docs/decisions.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC_KEY_PATH } from '../../core/index';
import { formFields, MAX_FORM_BYTES, readBody, sendError, sendJson } from '../server/http';
import type { Doors } from '../server/http';
import { html } from '../pages/html';
import { newKeys } from './keys';
import type { SandboxKeys } from './keys';
import { htmlDocument, sendHtml, sendMessagePage, sendRedirect } from '../pages/page';
import { prefixed } from '../../webhook/prefixed';

/** What the keys routes use of a running sandbox. */
export interface KeysParts {
  keys: SandboxKeys;
  doors: Pick<Doors, 'token' | 'fromOwnPage' | 'fromTool'>;
  log: (line: string) => void;
}

/** The form purpose of the keys page (a payment id is a UUID: never this). */
const KEYS_FORM = 'keys page';

/** The public keys of a rotation, as the endpoint serves them (PEM without its BEGIN/END lines). */
export interface SandboxKeyRotation {
  /** The key the sandbox signs with now. */
  current: string;
  /** The key prepared for the next rotation, if any: publish it beside the current one. */
  next: string | null;
  /** The key the sandbox signed with before the last rotation, if any. */
  previous: string | null;
}

interface Ring {
  next?: Promise<SandboxKeys>;
  previous?: SandboxKeys;
}

/** Each sandbox's rotation state, by its (mutable) current keys. */
const rings = new WeakMap<SandboxKeys, Ring>();

function ringOf(keys: SandboxKeys): Ring {
  let ring = rings.get(keys);
  if (ring === undefined) rings.set(keys, (ring = {}));
  return ring;
}

/** The keys as text, the next one only when prepared. */
export async function keyRotation(keys: SandboxKeys): Promise<SandboxKeyRotation> {
  const ring = ringOf(keys);
  return {
    current: keys.publicKeyText,
    next: ring.next === undefined ? null : (await ring.next).publicKeyText,
    previous: ring.previous?.publicKeyText ?? null,
  };
}

/** Prepares the next key (once; again after each rotation). */
export function prepareNextKey(keys: SandboxKeys): Promise<SandboxKeyRotation> {
  const ring = ringOf(keys);
  ring.next ??= newKeys();
  return keyRotation(keys);
}

/**
 * Signs with the next key from now on (prepared first if it was not). `keys` is changed in
 * place: whatever signs or serves the key reads it at each use.
 */
export async function rotateKey(keys: SandboxKeys, log: (line: string) => void) {
  const ring = ringOf(keys);
  const next = await (ring.next ??= newKeys());
  ring.previous = { ...keys };
  ring.next = undefined;
  Object.assign(keys, next);
  log('signing key rotated: notifications are now signed with the key that was next');
  return keyRotation(keys);
}

/** GET /keys: the keys, the drill, and its two buttons. */
export async function showKeys(res: ServerResponse, { keys, doors }: KeysParts): Promise<void> {
  const { current, next, previous } = await keyRotation(keys);
  const token = doors.token(KEYS_FORM);
  const key = (text: string | null, none: string) =>
    text === null ? html`<p>${none}</p>` : html`<pre class="raw"><code>${text}</code></pre>`;
  const form = (action: string, label: string) =>
    html`<form method="post" action="/keys/${action}"><input type="hidden" name="token" value="${token}"><button type="submit">${label}</button></form>`;
  const body = html`<main>
<h1>Signing key</h1>
<p>Rehearse a key rotation: prepare the next key and give your receiver both (<code>publicKey: [current, next]</code>), rotate, check that notifications still verify, then remove the old key.</p>
<h2>Current key</h2>
<p>Served at <a href="${PUBLIC_KEY_PATH}">${PUBLIC_KEY_PATH}</a>; every notification is signed with it.</p>
${key(current, '')}
<h2>Next key</h2>
${key(next, 'None prepared yet.')}
${form('next', 'Prepare the next key')}
${form('rotate', 'Rotate now')}
<h2>Previous key</h2>
${key(previous, 'None: the key has not rotated since the sandbox started.')}
<p><a href="/">Back to the sandbox</a></p>
</main>`;
  sendHtml(res, 200, htmlDocument({ title: 'Signing key: ServicePay sandbox', body }));
}

/** POST /keys/next and /keys/rotate: a form of the keys page, or JSON from a tool. */
export async function keysAction(
  req: IncomingMessage,
  res: ServerResponse,
  action: 'next' | 'rotate',
  { keys, doors, log }: KeysParts,
): Promise<void> {
  const body = await readBody(req, MAX_FORM_BYTES);
  const json = /^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '');
  const allowed = json
    ? doors.fromTool(req)
    : doors.fromOwnPage(req, KEYS_FORM, formFields(body).get('token'));
  if (!allowed) {
    log(`keys ${action} refused: not from the keys page or a tool on this machine`);
    if (json) {
      return sendError(
        res,
        403,
        prefixed(
          'the sandbox rotates its key only from its own keys page or a tool on this machine.',
        ),
      );
    }
    return sendMessagePage(
      res,
      403,
      'Action refused',
      'The sandbox changes its signing key only from its own keys page. Open the keys page again and use its buttons.',
    );
  }
  const done = action === 'rotate' ? await rotateKey(keys, log) : await prepareNextKey(keys);
  if (json) return sendJson(res, 200, done);
  sendRedirect(res, '/keys');
}

/**
 * Addresses every layer agrees on, in one place: the browser session (its SANDBOX default),
 * the webhook's key fetching (its SANDBOX default and the key's path), the sandbox (its port,
 * its key route) and the examples read them from here. Plain constants with no imports, so
 * that server code (src/webhook) may import this one module of core by value.
 */

/** The local sandbox's default port (`npm start`, `servicepay/sandbox`). */
export const SANDBOX_PORT = 4010;

/**
 * The local sandbox's address, the default `baseUrl` for SANDBOX: 127.0.0.1, the address the
 * sandbox binds and prints, rather than `localhost`, which may resolve to IPv6's ::1 first
 * (where nothing listens). Until 0.10 the component's default said localhost; both reach it.
 */
export const SANDBOX_BASE_URL = `http://127.0.0.1:${SANDBOX_PORT}`;

/** Path of the public-key endpoint under an environment's base address (docs/spec.md 4.2). */
export const PUBLIC_KEY_PATH = '/.well-known/signature/pem';

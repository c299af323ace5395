// The standalone script's own backend: as the service's script talks to the service's
// backend, a script that a sandbox's script host served (`<origin>/js/Service-<version>.min.js`,
// the sandbox's SCRIPT_HOST_PATH) talks, in SANDBOX, to that sandbox, wherever it listens. Any
// other address (a copy the merchant hosts, the npm module) keeps core's default (the sandbox
// at 127.0.0.1:4010). The page's `baseUrl` or `transport` still wins.

/** The sandbox that served this script, for SANDBOX sessions given no baseUrl. */
export let scriptBackend: string | undefined;

/** Called by the standalone script with its own address while it runs. */
export function setScriptAddress(src: string | undefined): void {
  scriptBackend = /^(https?:\/\/[^/]+)\/js\/Service-[\d.]+\.min\.js$/.exec(src!)?.[1];
}

/**
 * What to do about a failure of servicepay/hosted, said in development only: the developer
 * sentences' two lengths (docs/decisions.md). Production errors name the cause, with its
 * values (the address, the status, the hash, the CSP directive); development adds the fix
 * after it, word for word as docs/going-live.md ("When the script does not load") lists both.
 * The fixes are written inside the development branch, so that bundlers fold them away.
 */

/** The fixes, by the failure they follow. */
export type Fix =
  | 'noAddress'
  | 'globalName'
  | 'sameIntegrity'
  | 'integrityEverywhere'
  | 'allowInCsp'
  | 'addressAndGlobal'
  | 'addressAndNetwork'
  | 'address'
  | 'versionedAddress'
  | 'hash'
  | 'contentType'
  | 'cors'
  | 'hostUp'
  | 'foreignElement';

/** `cause`, and in development the fix after it. */
export function withFix(cause: string, fix: Fix): string {
  try {
    if (process.env.NODE_ENV !== 'production') {
      const versioned =
        "check the address (the versioned Service-<version>.min.js from the service's onboarding)";
      return (
        cause +
        {
          noAddress:
            ": pass the versioned Service-<version>.min.js address from the service's onboarding",
          globalName:
            ": give the identifier it uses (a white-label build's), or leave globalName out for 'Service'",
          sameIntegrity: ': give every load of this address the same integrity',
          integrityEverywhere:
            ': give integrity to every load of this address (loadService, useServiceScript, <ServicePay>), the first one included',
          allowInCsp: ': allow it there',
          addressAndGlobal: `: ${versioned} and globalName`,
          addressAndNetwork: ': check the address and the network',
          address: ': check the address',
          versionedAddress: `: ${versioned}`,
          hash: ": the file at this address is not the one the hash was made for; check that the hash is this version's",
          contentType: ': check the Content-Type the host sends (text/javascript)',
          cors: ' (no Access-Control-Allow-Origin): check the address, that the host is up, and its CORS headers',
          hostUp:
            " (the browser hides which from the page for another origin's script loaded without integrity): check the address and that the host is up",
          foreignElement: ', so that it cannot be drawn inside content it does not own',
        }[fix]
      );
    }
  } catch {
    // No bundler: the cause alone.
  }
  return cause;
}

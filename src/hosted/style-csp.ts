/**
 * In development: the page's Content-Security-Policy blocking the styles of the service's
 * component. The component then shows unstyled and nothing in code says so; the browser's
 * console line names neither the component nor the fix.
 */
import type { ServiceError } from '../core/index';
import { said } from '../core/protocol';

/**
 * Watches, in development, for a `style-src` violation of the service's component: one its
 * script caused (`sourceFile`), or a stylesheet from its script host. The first is reported to
 * errorConsumer at `fetchInstitutions` (else the console), with the fix; then it stops.
 * Returns the stop; undefined in production.
 */
export function watchServiceStyles(
  src: string,
  errorConsumer: () => ((error: ServiceError) => void) | undefined,
): (() => void) | undefined {
  let stop: (() => void) | undefined;
  try {
    if (process.env.NODE_ENV !== 'production') {
      const script = new URL(src, location.href);
      const onViolation = (event: SecurityPolicyViolationEvent) => {
        const { effectiveDirective: directive, blockedURI: blocked } = event;
        const ours = event.sourceFile == script.href || blocked.startsWith(script.origin + '/');
        if (!directive.startsWith('style-src') || !ours) return;
        stop!();
        const fix = /^https?:/.test(blocked)
          ? `allow ${new URL(blocked).origin} in ${directive}`
          : directive == 'style-src-attr'
            ? "its style attributes need 'unsafe-inline' in style-src-attr"
            : `give its <style> elements your page's nonce: allow 'nonce-…' in ${directive} and pass the same nonce as nonce`;
        const error = said(
          `the page's Content-Security-Policy (${directive}) blocked the styles of the service's component (${blocked}), so it shows unstyled: ${fix}`,
        );
        const consumer = errorConsumer();
        if (consumer) consumer({ location: 'fetchInstitutions', error });
        else console.warn(error);
      };
      addEventListener('securitypolicyviolation', onViolation);
      stop = () => removeEventListener('securitypolicyviolation', onViolation);
    }
  } catch {
    // No bundler, or an address that is not one (loadService reports it): no watch.
  }
  return stop;
}

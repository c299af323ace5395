'use client';
import { useEffect, useInsertionEffect, useRef, useState } from 'react';
import {
  isLoopbackUrl,
  languageOf,
  resolveHandoffMessages,
  resolveResultMessages,
  resultText,
} from '../core/index';
import type { Catalogue, Handoff, PaymentResultOutcome } from '../core/index';
import { reportThrown } from '../core/internal';
import handoffCss from '../styles/handoff.css?raw';
import { ResultIcon } from './ResultIcon';
import { injectStylesheet } from './styles';
import { useResultController } from './usePaymentResult';
import { useQuietSwitch } from './useQuietSwitch';

export interface HandoffPanelProps {
  handoff: Handoff;
  /** The merchant's status endpoint (`createPaymentStatusHandler`), which says the outcome. */
  statusUrl: string;
  /** The merchant's raw `messages` option: resolve with resolveHandoffMessages and resolveResultMessages. */
  messages?: unknown;
  /** The component's catalogue (`locale`): its `handoff` and `result` words. */
  locale?: Catalogue;
  /** Class names: as ServicePayView's `cx` (service class unless unstyled, then utility classes). */
  cx: (service: string, utility?: string) => string | undefined;
  /** disableVolumeStyling: inject no stylesheet. */
  plain?: boolean;
  nonce?: string;
  /** Unique prefix for element ids. */
  id: string;
  /** "Continue on this computer": opens the bank here (session.continueHere). */
  onContinueHere(): void;
  /** Called once the panel is shown for this handoff (`onHandoffShown`). */
  onShown?: (handoff: Handoff) => void;
  /** After "not completed": back to the bank step (the lead passes session.openInstitutionSelection). */
  onTryAgain(): void;
  onResult?: (outcome: PaymentResultOutcome) => void;
  /** The shop's contact, shown with `needs-review` (ServicePayProps.reviewContact). */
  reviewContact?: string;
  /** Passed through to createPaymentResult (tests, stories, proxies that buffer streams). */
  fetch?: typeof fetch;
  eventSource?: boolean;
  notHeardAfterMs?: number;
  stopListeningAfterMs?: number;
}

/**
 * CSS pixels a module: large enough to scan from a phone at arm's length. A 150-character
 * address at level M is version 8, 49 modules and the quiet zone's 8: 228 px, about 6 cm on
 * a 96 dpi screen, which a phone's camera reads from 40–60 cm (the usual rule is a tenth of
 * the distance). Whole pixels keep every module's edges on the pixel grid. A longer address's
 * code would be wider than the panel: the stylesheet lets it shrink to fit.
 */
const MODULE_PX = 4;
/** The quiet zone the standard asks for around the code, in modules, part of the white plate. */
const QUIET = 4;

/**
 * The desktop handoff: the bank's address as a QR code for the shopper's phone, the address
 * itself for those who cannot scan, and a way to open the bank here instead. Meanwhile it
 * follows the payment through the shop's status endpoint (as the result page does) and shows
 * the outcome in its place. One heading, which takes focus when the panel appears and when
 * the state changes; the state's sentence is a polite live region. It uses only hooks and DOM
 * props that mean the same in React and Preact's core (the Preact builds render it too).
 */
export function HandoffPanel(props: HandoffPanelProps) {
  const { handoff, cx, plain, nonce, id } = props;
  const { paymentId, merchantPaymentId, url } = handoff;
  const bank = handoff.institution.name;
  const [controller, result] = useResultController({
    statusUrl: props.statusUrl,
    payment: { paymentId, merchantPaymentId },
    onResult: props.onResult,
    onTryAgain: props.onTryAgain,
    fetch: props.fetch,
    eventSource: props.eventSource,
    notHeardAfterMs: props.notHeardAfterMs,
    stopListeningAfterMs: props.stopListeningAfterMs,
  });
  // The panel waits for the phone: a bank still confirming looks the same here, with the code
  // still there to scan and Continue on this computer, until the outcome or the horizon.
  const state = result.state === 'still-confirming' ? 'waiting' : result.state;
  const messages = resolveHandoffMessages(props.messages, props.locale);
  const results = resolveResultMessages(props.messages, props.locale);
  // The panel's words are its own screen of the catalogue: marked with its language.
  const lang = languageOf(props.locale, 'handoff');
  const quiet = useQuietSwitch(lang);
  const words = resultText(state, results);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useRef<string>(undefined);
  const headingId = id + 'handoff';
  /** The panel's next step after a final or unheard status: Check again, or Try again. */
  const primary = (label: string, onClick: () => void) => (
    <button type="button" className={cx('service-retry service-handoff-primary')} onClick={onClick}>
      {label}
    </button>
  );

  // The encoder is a chunk of its own (./qr, with lean-qr), loaded only when a code is shown:
  // undefined until it is here. Made once per address. An address too long for any QR code
  // (over ~2,300 bytes), or an encoder that could not be loaded, shows no code: the address
  // and "Continue on this computer" still work.
  const [qr, setQr] = useState<{ size: number; d: string } | null>();
  useEffect(() => {
    let live = true;
    const set = (value: typeof qr) => live && setQr(value);
    import('./qr').then(
      ({ qrPath }) => {
        try {
          set(qrPath(url));
        } catch {
          set(null);
        }
      },
      () => set(null),
    );
    return () => {
      live = false;
    };
  }, [url]);

  // Once per handoff (the panel is keyed by it), with the callback of that moment. Merchant
  // code: it must never break the panel.
  // Once per handoff, also under StrictMode (whose second run of effects keeps the refs).
  const announced = useRef<string>(undefined);
  useEffect(() => {
    if (announced.current === paymentId) return;
    announced.current = paymentId;
    try {
      props.onShown?.(handoff);
    } catch (error) {
      reportThrown('onHandoffShown', error);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per payment, not per render
  }, [paymentId]);

  useInsertionEffect(() => {
    if (!plain) injectStylesheet('handoff', handoffCss, nonce);
  }, [plain, nonce]);

  // Focus on the heading when the panel appears (the bank the shopper chose has gone with the
  // list) and whenever its state changes (the button they were on may have gone too): read
  // out, and just above what to do next.
  const focusKey = paymentId + state;
  useEffect(() => {
    if (shown.current !== focusKey) headingRef.current?.focus();
    shown.current = focusKey;
  }, [focusKey]);

  // The code stays while the shopper may still scan it: not once the outcome is known.
  const review = state === 'needs-review';
  const scanning = state !== 'received' && state !== 'not-completed' && !review;
  const waiting = state === 'waiting';
  const contact = review && typeof props.reviewContact == 'string' && props.reviewContact;
  const box = qr ? qr.size + 2 * QUIET : 0;

  return (
    <section
      className={cx('service-handoff', 'flex flex-col items-center gap-3')}
      data-state={state}
      lang={lang}
      aria-labelledby={headingId}
    >
      {review && <ResultIcon state={state} className={cx('service-handoff-icon')} />}
      <h2 id={headingId} ref={headingRef} className={cx('service-handoff-heading')} tabIndex={-1}>
        {waiting ? messages.handoffHeading : words.heading}
      </h2>
      {scanning && qr && (
        <svg
          className={cx('service-qr')}
          role="img"
          aria-label={messages.qrAlt(bank)}
          viewBox={`${-QUIET} ${-QUIET} ${box} ${box}`}
          width={box * MODULE_PX}
          height={box * MODULE_PX}
          // Sharp module edges, also without the stylesheet. A style property, which both
          // React and Preact's core set through the CSSOM (allowed by a strict style-src): the
          // attribute is `shapeRendering` in React and would be written as it is by Preact.
          style={{ shapeRendering: 'crispEdges' }}
          focusable="false"
        >
          {/* Dark on white in both colour schemes: the white plate holds the quiet zone. */}
          <rect x={-QUIET} y={-QUIET} width={box} height={box} fill="#fff" />
          <path d={qr.d} fill="#000" />
        </svg>
      )}
      {scanning && <p className={cx('service-handoff-text')}>{messages.handoffText(bank)}</p>}
      <p className={cx('service-handoff-status')} role="status" aria-live={quiet}>
        {waiting ? messages.handoffWaiting : words.text}
      </p>
      {contact && <p className={cx('service-handoff-contact')}>{contact}</p>}
      {/* Nothing to do once the bank paid, even when the shop checks the payment by hand. */}
      {state !== 'received' && !review && (
        <div className={cx('service-handoff-actions', 'flex items-center gap-2')}>
          {state === 'not-heard' && primary(results.checkAgain, controller.checkAgain)}
          {state === 'not-completed' ? (
            primary(results.tryAgain, controller.tryAgain)
          ) : (
            <button
              type="button"
              className={cx('service-retry')}
              onClick={() => props.onContinueHere()}
            >
              {messages.continueHere}
            </button>
          )}
        </div>
      )}
      {/* Below the actions: "Continue on this computer" stays in view on a laptop's screen. */}
      {scanning && (
        <>
          <p className={cx('service-handoff-intro')}>
            {isLoopbackUrl(url) ? messages.loopbackNote : messages.linkIntro}
          </p>
          {/* Text, not a link: followed here it would open the bank on this computer. */}
          <p className={cx('service-handoff-link')} dir="ltr">
            {url}
          </p>
        </>
      )}
    </section>
  );
}

'use client';
import { useEffect, useInsertionEffect, useState } from 'react';
import { HANDOFF_MEDIA, REMEMBERED_BANK_KEY, resolveHandoffMessages } from '../core/index';
import type { Institution } from '../core/index';
import type { SessionWiring } from '../core/internal';

// The opt-in extras of the component, an entry of their own (servicepay/extras): the desktop
// handoff panel and, at the top of the bank step, the remembered bank and the merchant's
// featured banks. Their contract with the component: ./extras-contract.
import handoffCss from '../styles/handoff.css?raw';
import type { ExtrasContext, ExtrasProps, ServicePayExtras } from './extras-contract';
import { HandoffPanel } from './Handoff';
import { injectStylesheet } from './styles';

export type { ExtrasContext } from './extras-contract';

/**
 * The session's options with the extras in: on a desktop with a status endpoint the bank's
 * address goes to the shopper's phone (a QR code) instead of opening here, and the session
 * enters its handoff region (`state.handoff`). It then carries on as for any opened bank:
 * `awaiting_authorisation` fires, since the shopper is being sent to the bank, on another
 * device (docs/handoff.md).
 */
export function options<P extends ExtrasProps>(props: P): P & SessionWiring {
  return {
    ...props,
    divert: (url, payment, institution) =>
      props.statusUrl && props.handoff !== false && desktop()
        ? { url, ...payment, institution }
        : undefined,
  };
}

/** A desktop (HANDOFF_MEDIA): a fine pointer that can hover, wider than a phone. */
function desktop(): boolean {
  try {
    return matchMedia(HANDOFF_MEDIA).matches;
  } catch {
    return false;
  }
}

/**
 * What the view renders where its extras go: `step` at the top of the open bank step (the
 * remembered and featured banks); otherwise under the component, the handoff panel while
 * there is a handoff (always there once the chunk is, to receive one).
 */
export function Extras(context: ExtrasContext & { step?: boolean }) {
  const { session, state, props, cx, id } = context;
  const { paymentState, selectedInstitution, handoff } = state;
  // The bank of each payment sent to the bank (`rememberBank`), however it was started.
  useEffect(() => {
    if (props.rememberBank && paymentState === 'awaiting-authorisation' && selectedInstitution) {
      try {
        localStorage.setItem(REMEMBERED_BANK_KEY, selectedInstitution.id);
      } catch {
        // No storage: nothing is remembered.
      }
    }
  }, [props.rememberBank, paymentState, selectedInstitution]);
  // In the step once its banks are here (the view shows placeholders while they load).
  if (context.step) return state.status === 'loading' ? null : <StepExtras {...context} />;
  // The session's handoff region: entered when the bank's address went to the phone, left
  // when the step opens again (Pay, Try again) or the shopper continues here.
  return handoff ? (
    <HandoffPanel
      key={handoff.paymentId}
      handoff={handoff}
      statusUrl={props.statusUrl!}
      messages={props.messages}
      locale={props.locale}
      cx={cx}
      plain={props.disableVolumeStyling}
      nonce={props.nonce}
      id={id + 'qr'}
      onShown={props.onHandoffShown}
      onContinueHere={() => {
        // The panel, with the button that had focus, goes; the bank may open elsewhere (a new
        // tab, a WebView), so focus goes to Pay, not to nothing.
        context.payButton.current?.focus();
        session.continueHere();
      }}
      onTryAgain={session.openInstitutionSelection}
      onResult={props.onResult}
      reviewContact={props.reviewContact}
    />
  ) : null;
}

/** The remembered bank's id; null when there is none or no storage. */
function readRemembered(): string | null {
  try {
    return localStorage.getItem(REMEMBERED_BANK_KEY);
  } catch {
    return null;
  }
}

function forgetRemembered(): void {
  try {
    localStorage.removeItem(REMEMBERED_BANK_KEY);
  } catch {
    // No storage: nothing was remembered.
  }
}

/**
 * Above the full list of the open step: the bank this shopper last paid with on this device
 * (`rememberBank`), with a button that forgets it, then the merchant's featured banks
 * (`featuredInstitutions`). Each is a list of its own, one Tab stop each, drawn as the full
 * list's banks are (BankList); the search below still covers every bank.
 */
function StepExtras(context: ExtrasContext) {
  const { session, state, messages, lang, quiet, cx, props, BankList, stepHeading } = context;
  const words = resolveHandoffMessages(props.messages, props.locale);
  // The extras' stylesheet (the handoff panel's file) holds the step's few rules too.
  useInsertionEffect(() => {
    if (!props.disableVolumeStyling) injectStylesheet('handoff', handoffCss, props.nonce);
  }, [props.disableVolumeStyling, props.nonce]);
  const [remembered, setRemembered] = useState(() =>
    props.rememberBank ? readRemembered() : null,
  );
  const [forgotten, setForgotten] = useState(false);
  const { institutions } = state;
  const find = (id: unknown) => institutions.find((i) => i.id === id);
  const last = find(remembered);
  // A remembered bank that is no longer listed is quietly forgotten.
  useEffect(() => {
    if (remembered && !last && state.institutionsState === 'ready') {
      forgetRemembered();
      setRemembered(null);
    }
  }, [remembered, last, state.institutionsState]);
  let featured: Institution[] = [];
  try {
    featured = [...new Set(props.featuredInstitutions)]
      .map(find)
      .filter((i): i is Institution => !!i && i !== last);
  } catch {
    // Not a list of ids: no featured banks (a development warning says so, in the session).
  }
  const list = (banks: Institution[], label: string) => (
    <>
      <p className={cx('service-group')} aria-hidden="true">
        {label}
      </p>
      <BankList
        institutions={banks}
        // The list's accessible name is `messages.banks`: here the group's.
        messages={{ ...messages, banks: label }}
        lang={lang}
        quiet={quiet}
        cx={cx}
        choosable={state.payButtonEnabled && state.status !== 'initiating'}
        initiatingId={state.status === 'initiating' ? state.selectedInstitution?.id : undefined}
        onChoose={(bank) => void session.payWithInstitution(bank)}
      />
    </>
  );
  return (
    <>
      {last && list([last], words.lastUsed)}
      {last && (
        <button
          type="button"
          className={cx('service-retry service-forget')}
          onClick={() => {
            forgetRemembered();
            setRemembered(null);
            setForgotten(true);
            // The button goes with the bank: focus moves to the step's heading, not to nothing.
            stepHeading.current?.focus();
          }}
        >
          {words.forgetBank}
        </button>
      )}
      {featured.length > 0 && list(featured, words.featured)}
      <p className={cx('service-status')} role="status" aria-live={quiet}>
        {forgotten && !last ? words.bankForgotten : ''}
      </p>
      {(last || featured.length > 0) && (
        <p className={cx('service-group')} aria-hidden="true">
          {words.allBanks}
        </p>
      )}
    </>
  );
}

/**
 * The component's opt-in extras, for `<ServicePay extras={extras}>` and
 * `useServicePayment({ extras })`: the desktop handoff (with `statusUrl`), the remembered bank
 * (`rememberBank`) and the featured banks (`featuredInstitutions`). `window.Service` loads
 * them itself when its options ask for them.
 */
export const extras: ServicePayExtras = { options, Extras };

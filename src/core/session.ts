import { addAppLinkFragment } from './app-link';
import type { ErrorLocationName, ServiceEventName } from './events';
import { describeValue, errorMessage, formatValidationIssue } from './errors';
import { createHttpTransport } from './http-transport';
import { randomId } from './merchant-payment-id';
import { openHere } from './opener';
import { isPaymentId, MESSAGE_PREFIX as PREFIX } from './protocol';
import { SAVED_PAYMENT_KEY } from './saved-payment';
import { SANDBOX_BASE_URL } from './service-addresses';
import { deriveStatus } from './state';
import type { Problem, SessionState } from './state';
import type { Institution, PaymentInitiation, ServiceTransport } from './transport';
import { checkInitiatedPayment, checkInstitutions } from './transport-answers';
import type { SessionOptions } from './types';
import { validateOptions, validatePaymentArgs } from './validation';

/**
 * After this long without the banks, the shopper is told it is slow and offered a retry: well
 * before the HTTP transport gives up (30 s), and long enough that a normal load never shows it.
 */
export const SLOW_LOAD_MS = 5000;

// Some developer sentences come in two lengths: the whole sentence (what went wrong and how to
// fix it) in development, its gist (what went wrong, with the values) in production, where
// bundlers fold the test and keep only the short form: `let m = gist; try { if
// (process.env.NODE_ENV !== 'production') m = whole } catch {}`, written at each spot (a
// helper, or a flag set once, would keep both in production). The same guard as the warnings
// below: a browser build in development gets the whole sentence (its bundler replaces
// `process.env.NODE_ENV`, though the page has no `process`), and a page without a bundler
// the gist, with nothing thrown. docs/react.md lists both forms.
//
// Development-only warnings sit in `try { if (process.env.NODE_ENV !== 'production' ...) }`:
// production builds drop the check and its message; without a bundler (no `process`) nothing is
// warned. Inline at each spot: a helper's call and message would stay in production (decisions).

export interface PaymentSession {
  /** The current state; a new object after every change (for useSyncExternalStore). */
  getState(): SessionState;
  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Replaces the options (callbacks, flags). Changing environment or applicationId needs a new
   * session. A `payment` whose value changed is applied (createPayment); a changed
   * `disablePayButton` acts as toggleButton. Merchant code may run: not while rendering.
   */
  setOptions(options: SessionOptions): void;
  /**
   * The state as a render with these options should show it: before setOptions has applied
   * their `payment` (the server, a first render, a render after it changed), its value when
   * valid, so the amount never jumps. Display only: paying needs the applied payment. Pure.
   */
  optimisticState(options: SessionOptions, base?: SessionState): SessionState;
  /**
   * Marks the UI as mounted: emits `mounted` and fetches the institutions on the first call.
   * Returns the unmount function; a remount in the same tick (React StrictMode) is not an unmount.
   */
  mount(): () => void;
  /** Validates and prepares the next payment (spec 2.3). Returns whether it was valid. */
  createPayment(args: unknown): boolean;
  /** Enables or disables the Pay button (spec 3). */
  toggleButton(enabled: unknown): void;
  /** Opens the bank list; before the institutions arrive it opens when they do. */
  openInstitutionSelection(): void;
  closeInstitutionSelection(): void;
  /** Starts the payment at an institution, as a click on its icon does. Never rejects. */
  payWithInstitution(institutionId: unknown): Promise<void>;
  /** Fetches the institutions again after a failure, or while a load is slow. */
  retry(): void;
}

/** How a front door creates its session. */
export interface SessionInit {
  /**
   * Calls `generateMerchantPaymentId` for the first payment now rather than at the first
   * `mount()`. React creates sessions while rendering, where merchant code must not run, so
   * `<ServicePay>` leaves this off; the `Service` class of `servicepay/vanilla` is created by
   * page script, which may read `merchantPaymentId` before `injectComponent`.
   * @default false
   */
  generateFirstIdNow?: boolean;
}

/**
 * The payment session: the whole behaviour of the component, with no UI. Creating one has no
 * side effects (safe during render and on the server) unless `init.generateFirstIdNow`; work
 * starts at `mount()`.
 */
export function createPaymentSession(
  initialOptions: SessionOptions,
  init: SessionInit = {},
): PaymentSession {
  // Invalid options are reported (through their errorConsumer when they have one) and never
  // used: no fetch, no payment. Not an object at all: nothing to read.
  const optionsIssue = validateOptions(initialOptions);
  let options = (optionsIssue?.field === 'options' ? {} : initialOptions) as SessionOptions;
  const optionsError = optionsIssue ? formatValidationIssue(optionsIssue) : '';
  /**
   * Why the options in use cannot be used, '' when they can. Options are checked once, when
   * they arrive (here and in setOptions, which keeps valid ones only), never again on use.
   */
  let invalid = optionsError;
  // What the shopper sees is `state` (SessionState), and only it: every rendered fact lives
  // there and changes through update(). The variables below are the session's bookkeeping,
  // which no front door renders (changing them must not re-render through
  // useSyncExternalStore): subscribers, in-flight requests, the mount count behind StrictMode's
  // unmount-and-remount, which ids were used, and which option values were last applied.
  const listeners = new Set<() => void>();
  const usedIds = new Set<string>();
  let controller = new AbortController();
  /** The bank-list request in flight: a retry while it is slow, or teardown, aborts it. */
  let loading: AbortController | undefined;
  let mounts = 0;
  let everMounted = false;
  let firstIdGenerated = false;
  let teardownPending = false;
  let idFromMerchant = false;
  let state = {} as SessionState;
  /** The `payment` option's value (JSON, or the object itself when not JSON) last applied. */
  let appliedPayment: unknown;
  let disabledOption = !!options.disablePayButton;

  update({
    institutionsState: optionsError ? 'failed' : 'idle',
    listState: 'closed',
    paymentState: 'none',
    institutions: [],
    payButtonEnabled: !options.disablePayButton,
    prepared: null,
    merchantPaymentId: randomId(),
    selectedInstitution: null,
    error: optionsError ? { location: 'fetchInstitutions', error: optionsError } : null,
    problem: optionsError ? 'unavailable' : null,
    paymentInvalid: false,
    slow: false,
  });

  function update(patch: Partial<SessionState>): void {
    // A new object every time, for useSyncExternalStore; complete before anyone sees it.
    state = { ...state, ...patch };
    state.status = deriveStatus(state);
    listeners.forEach((listener) => listener());
  }

  // Merchant callbacks must never break the session, nor the session the merchant's page.
  // Returns what the callback returned (undefined when it threw).
  function callMerchant<
    K extends
      'eventConsumer' | 'errorConsumer' | 'onPaymentInitiated' | 'generateMerchantPaymentId',
  >(name: K, arg?: Parameters<NonNullable<SessionOptions[K]>>[0]): unknown {
    try {
      return (options[name] as ((value: typeof arg) => unknown) | undefined)?.(arg);
    } catch (error) {
      console.error(`${PREFIX}${name} threw`, error);
    }
  }

  const emit = (event: ServiceEventName) => callMerchant('eventConsumer', event);

  /**
   * The developer's detail goes to errorConsumer, else (in development) once to the console with
   * one prefix; the shopper is told `problem` in plain words, when there is something to tell.
   */
  function report(
    location: ErrorLocationName,
    error: string,
    problem?: Problem | null,
    keep?: boolean,
  ): void {
    if (!keep) update({ error: { location, error }, ...(problem !== undefined && { problem }) });
    try {
      if (process.env.NODE_ENV !== 'production' && !options.errorConsumer) {
        console.warn(`${PREFIX}[${location}] ${error.replace(/^servicepay: /, '')}`);
      }
    } catch {
      // No bundler: no warning.
    }
    callMerchant('errorConsumer', { location, error });
  }

  /** Reports a wrong call or a failed payment at payWithBankInstitution. */
  const reportPay = (message: string, problem?: Problem) =>
    report('payWithBankInstitution', message, problem);

  function nextMerchantPaymentId(): string {
    // A generator that throws, or gives an id outside the one rule, gets a random UUID instead.
    const id = callMerchant('generateMerchantPaymentId');
    return isPaymentId(id) && !usedIds.has(id) ? id : randomId();
  }
  /**
   * The generator is merchant code: called at the first mount, never while creating (React
   * renders then), unless the front door asked for it at creation (`generateFirstIdNow`).
   */
  function generateFirstId(): void {
    if (firstIdGenerated) return;
    firstIdGenerated = true;
    if (!idFromMerchant && options.generateMerchantPaymentId) {
      update({ merchantPaymentId: nextMerchantPaymentId() });
    }
  }
  if (init.generateFirstIdNow) generateFirstId();

  function transport(): ServiceTransport | string {
    const baseUrl =
      options.baseUrl ?? (options.environment === 'SANDBOX' ? SANDBOX_BASE_URL : undefined);
    if (options.transport) return options.transport;
    // The real service's addresses are not published in its spec: we never guess them.
    if (!baseUrl) {
      let message = `${PREFIX}LIVE needs baseUrl or transport`;
      try {
        if (process.env.NODE_ENV !== 'production') {
          message = `${PREFIX}no backend address for LIVE: pass the baseUrl of your backend or a transport`;
        }
      } catch {
        // No bundler: the gist.
      }
      return message;
    }
    // The HTTP transport holds no state, so one is made per call.
    return createHttpTransport({ baseUrl });
  }

  async function fetchInstitutions(): Promise<void> {
    const t = invalid || transport();
    if (typeof t === 'string') {
      update({ institutionsState: 'failed' });
      return report('fetchInstitutions', t, 'unavailable');
    }
    // A retry abandons the load in flight; teardown aborts it too.
    loading?.abort();
    const { signal } = (loading = new AbortController());
    update({ institutionsState: 'loading', error: null, problem: null, slow: false });
    // A timer here, not in the UI, so that every front door says the same thing at the same time.
    const timer = setTimeout(() => signal.aborted || update({ slow: true }), SLOW_LOAD_MS);
    try {
      // Untrusted: bad entries are dropped or repaired before they reach the page.
      const { institutions, problem } = checkInstitutions(
        await t.fetchInstitutions(
          { environment: options.environment, applicationId: options.applicationId },
          signal,
        ),
      );
      if (signal.aborted) return;
      if (!institutions) {
        update({ institutionsState: 'failed' });
        return report('fetchInstitutions', problem!, 'load-failed');
      }
      const opening = state.listState === 'pending';
      update({
        institutionsState: 'ready',
        institutions,
        listState: opening ? 'open' : state.listState,
        slow: false,
      });
      emit('institutions_fetched');
      if (opening) emit('bank_selection_opened');
      // The list is usable: the merchant hears what was fixed; the shopper sees the banks.
      if (problem) report('fetchInstitutions', problem, undefined, true);
    } catch (error) {
      // Only our own abort (unmount, retry) is silent; a transport's own AbortError is a failure.
      if (signal.aborted) return;
      update({ institutionsState: 'failed', slow: false });
      report('fetchInstitutions', errorMessage(error), 'load-failed');
    } finally {
      clearTimeout(timer);
    }
  }

  function notPrepared(action: string): boolean {
    if (state.prepared) return false;
    let message = `${PREFIX}${action} before createPayment`;
    try {
      if (process.env.NODE_ENV !== 'production') {
        message = `${PREFIX}${action} needs a valid payment: call createPayment({ amount, paymentReference }) first`;
      }
    } catch {
      // No bundler: the gist.
    }
    reportPay(message);
    return true;
  }

  async function startPayment(institution: Institution): Promise<void> {
    const prepared = state.prepared!;
    const merchantPaymentId = state.merchantPaymentId;
    usedIds.add(merchantPaymentId);
    idFromMerchant = false;
    const t = transport();
    // Spec 4.4 rule 4: every payment_initiated renews the id for the next payment.
    update({
      paymentState: 'initiating',
      selectedInstitution: institution,
      merchantPaymentId: nextMerchantPaymentId(),
      error: null,
      problem: state.problem === 'pay-failed' ? null : state.problem,
    });
    emit('payment_initiated');
    emit('institution_selected');
    callMerchant('onPaymentInitiated', { merchantPaymentId, institutionId: institution.id });
    const fail = (message: string) => {
      update({ paymentState: 'none' });
      reportPay(message, 'pay-failed');
    };
    if (typeof t === 'string') return fail(t);

    const request: PaymentInitiation = {
      environment: options.environment,
      applicationId: options.applicationId,
      institutionId: institution.id,
      paymentRequest: { amount: prepared.amount, currency: 'GBP', reference: prepared.reference },
      merchantPaymentId,
      agentType: prepared.agentType ?? options.agentType ?? 'WEB_BROWSER',
    };
    if (prepared.metadata) request.paymentMetadata = prepared.metadata;

    const { signal } = controller;
    let answer: unknown;
    try {
      answer = await t.initiatePayment(request, signal);
    } catch (thrown) {
      return signal.aborted ? undefined : fail(errorMessage(thrown));
    }
    // Never redirect a page whose component has gone.
    if (signal.aborted || !mounts) return update({ paymentState: 'none' });
    // Untrusted: only an http(s) authorisation URL of a well-formed answer is opened.
    const checked = checkInitiatedPayment(answer);
    if ('problem' in checked) return fail(checked.problem);
    let { url } = checked;
    if (options.isWebView) url = addAppLinkFragment(url);
    // For the result page, should the bank send the shopper back with no ids (saved-payment.ts).
    // Written here rather than through a helper: these bytes are in every Pay button's bundle.
    // The paymentId was checked above; the result page checks both ids again when it reads them.
    const ids = { paymentId: checked.paymentId, merchantPaymentId };
    try {
      sessionStorage.setItem(SAVED_PAYMENT_KEY, JSON.stringify(ids));
    } catch {
      // No storage (blocked, full, not a browser), or a getter that throws: the return address
      // must carry the ids.
    }
    try {
      // With the ids: a front door may hand the address to the shopper's phone instead (a QR
      // code, docs/handoff.md); `awaiting_authorisation` fires either way (off to the bank).
      (options.openUrl ?? openHere)(url, ids);
    } catch (error) {
      return fail(`${PREFIX}could not open the authorisation URL: ${errorMessage(error)}`);
    }
    update({ paymentState: 'awaiting-authorisation', listState: 'closed' });
    emit('awaiting_authorisation');
  }

  function teardown(): void {
    if (!teardownPending) return;
    teardownPending = false;
    controller.abort();
    loading?.abort();
    controller = new AbortController();
    // A later remount (React <Activity>, a re-injected component) starts afresh.
    update({
      institutionsState: state.institutionsState === 'loading' ? 'idle' : state.institutionsState,
      paymentState: state.paymentState === 'initiating' ? 'none' : state.paymentState,
      slow: false,
    });
  }

  /** Fetches again after a failure or while slow, while mounted. */
  function refetch(): void {
    if ((state.institutionsState === 'failed' || state.slow) && mounts > 0) {
      void fetchInstitutions();
    }
  }

  /** The `payment` option by value; undefined when none is given. */
  function paymentKey(payment: unknown): unknown {
    try {
      return JSON.stringify(payment);
    } catch {
      return payment;
    }
  }

  const session: PaymentSession = {
    getState: () => state,

    optimisticState(next, base = state) {
      const key = paymentKey(next.payment);
      if (key === undefined || key === appliedPayment) return base;
      const shown = validatePaymentArgs(next.payment);
      return shown.ok ? { ...base, prepared: shown.value } : base;
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    setOptions(next) {
      const issue = validateOptions(next);
      const message = issue ? formatValidationIssue(issue) : '';
      if (!message) {
        options = next;
        invalid = '';
      } else if (state.error?.error !== message) report('fetchInstitutions', message);
      if (!next || typeof next != 'object') return;
      // disablePayButton sets the initial state; a later change acts as toggleButton.
      const disabled = !!next.disablePayButton;
      if (disabled !== disabledOption) {
        disabledOption = disabled;
        session.toggleButton(!disabled);
      }
      // Compared by value: a new object with the same content does nothing.
      const key = paymentKey(next.payment);
      if (key !== undefined && key !== appliedPayment) {
        appliedPayment = key;
        session.createPayment(next.payment);
      }
    },

    mount() {
      const first = !mounts && !teardownPending;
      teardownPending = false;
      mounts++;
      if (first) {
        if (!everMounted) {
          everMounted = true;
          generateFirstId();
          emit('mounted');
          if (optionsError) report('fetchInstitutions', optionsError, null, true);
          try {
            if (
              process.env.NODE_ENV !== 'production' &&
              options.isWebView &&
              /iPhone|iPad|iPod/.test(navigator.userAgent)
            ) {
              console.warn(
                `${PREFIX}isWebView is for Android WebView hosts only and must not be used on iOS (spec 4.4 rule 3).`,
              );
            }
          } catch {
            // No bundler (no `process`) or no navigator: no warning.
          }
        }
        if (state.institutionsState === 'idle') void fetchInstitutions();
      }
      let mounted = true;
      return () => {
        if (!mounted) return;
        mounted = false;
        if (--mounts > 0) return;
        // Deferred: React StrictMode unmounts and remounts in the same tick.
        teardownPending = true;
        queueMicrotask(teardown);
      };
    },

    createPayment(args) {
      const result = validatePaymentArgs(args);
      if (!result.ok) {
        // A stale payment must not be paid after the merchant tried to change it.
        update({ prepared: null, paymentInvalid: true });
        reportPay(formatValidationIssue(result.issue));
        return false;
      }
      const given = result.value.merchantPaymentId;
      let id = state.merchantPaymentId;
      if (given !== undefined && !usedIds.has(given)) {
        id = given;
        idFromMerchant = true;
      } else {
        try {
          if (process.env.NODE_ENV !== 'production' && given !== undefined) {
            console.warn(
              `${PREFIX}merchantPaymentId "${given}" was already used by a payment; a new one is generated (spec 4.4 rule 4).`,
            );
          }
        } catch {
          // No bundler: no warning.
        }
        if (idFromMerchant) id = nextMerchantPaymentId();
        idFromMerchant = false;
      }
      update({
        prepared: result.value,
        paymentInvalid: false,
        merchantPaymentId: id,
        error: state.error?.location === 'payWithBankInstitution' ? null : state.error,
      });
      return true;
    },

    toggleButton(enabled) {
      if (typeof enabled !== 'boolean') {
        return reportPay(
          `${PREFIX}toggleButton expects true or false, got ${describeValue(enabled)}`,
        );
      }
      update({ payButtonEnabled: enabled });
      emit(enabled ? 'pay_button_enabled' : 'pay_button_disabled');
    },

    openInstitutionSelection() {
      if (notPrepared('openInstitutionSelection') || state.listState === 'open') return;
      const ready = state.institutionsState === 'ready';
      update({ listState: ready ? 'open' : 'pending' });
      if (ready) emit('bank_selection_opened');
      else refetch();
    },

    closeInstitutionSelection() {
      if (state.listState !== 'closed') {
        update({
          listState: 'closed',
          problem: state.problem === 'pay-failed' ? null : state.problem,
        });
      }
    },

    async payWithInstitution(institutionId) {
      if (typeof institutionId !== 'string' || !institutionId) {
        return reportPay(
          `${PREFIX}payWithInstitution expects an institution id, got ${describeValue(institutionId)}`,
        );
      }
      // One payment in flight at a time: a double click or a repeated call sends nothing.
      if (state.paymentState === 'initiating' || notPrepared('payWithInstitution')) return;
      if (invalid) return reportPay(invalid);
      if (!mounts) {
        let message = `${PREFIX}payWithInstitution before the component is rendered`;
        try {
          if (process.env.NODE_ENV !== 'production') {
            message = `${PREFIX}payWithInstitution needs the component in the page (rendered, or injectComponent called): its redirect would be lost`;
          }
        } catch {
          // No bundler: the gist.
        }
        return reportPay(message);
      }
      const institution = state.institutions.find((i) => i.id === institutionId);
      // Before the list is here the backend validates the id; a bank the list marks
      // unavailable is refused as an unknown one is, and nothing is opened.
      if (
        institution?.available !== false &&
        (institution || state.institutionsState !== 'ready')
      ) {
        await startPayment(institution ?? { id: institutionId, name: institutionId });
      } else {
        reportPay(
          `${PREFIX}${institution ? 'unavailable' : 'unknown'} institution "${institutionId}"`,
        );
      }
    },

    retry: refetch,
  };
  return session;
}

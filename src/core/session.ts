import { addAppLinkFragment } from './app-link';
import type { ErrorLocationName, ServiceEventName } from './events';
import { describeValue, errorMessage, formatValidationIssue } from './errors';
import { nextPaymentId, randomId, warnPaymentId } from './merchant-payment-id';
import { paymentKey } from './payment-key';
import { reportThrown, warn } from './console';
import { MESSAGE_PREFIX, said } from './protocol';
import { savePayment } from './saved-payment';
import { openBank } from './opener';
import * as on from './session-events';
import { initialState, reduce } from './session-reducer';
import type { SessionEvent } from './session-reducer';
import {
  beforeCreatePayment,
  beforeMount,
  noBackend,
  SLOW_LOAD_MS,
  warnWebViewOnIos,
} from './session-options';
import type { Problem } from './state';
import { subscribe } from './subscribable';
import type { Listeners } from './subscribable';
import { createHttpTransport } from './http-transport';
import { SANDBOX_BASE_URL } from './service-addresses';
import type { Institution, PaymentInitiation, ServiceTransport } from './transport';
import { checkInitiatedPayment, checkInstitutions } from './transport-answers';
import type { PaymentSession, SessionInit } from './session-api';
import type { SessionOptions } from './types';
import type { SessionWiring } from './internal';
import { validateOptions, validatePaymentArgs } from './validation';

export type { PaymentSession, SessionInit } from './session-api';
export { SLOW_LOAD_MS } from './session-options';

/**
 * The payment session: the whole behaviour of the component, with no UI. Creating one has no
 * side effects (safe during render and on the server) unless `init.generateFirstIdNow`; work
 * starts at `mount()`.
 */
export function createPaymentSession(
  initialOptions: SessionOptions & SessionWiring,
  init: SessionInit = {},
): PaymentSession {
  // Invalid options are reported (through their errorConsumer when they have one) and never
  // used: no fetch, no payment. Not an object at all: nothing to read.
  const optionsIssue = validateOptions(initialOptions);
  let options = (optionsIssue?.field === 'options' ? {} : initialOptions) as SessionOptions &
    SessionWiring;
  const optionsError = optionsIssue ? formatValidationIssue(optionsIssue) : '';
  // Why the options in use cannot be used, '' when they can: checked once, when they arrive
  // (here and in setOptions, which keeps valid ones only), never again on use.
  let invalid = optionsError;
  // What the shopper sees is `state`, and only it: it changes by dispatch(on.<event>) (events
  // ./session-events, reduce ./session-reducer) and no other way. Below: bookkeeping no front
  // door renders (subscribers, requests in flight, StrictMode's mount count, ids used).
  const listeners: Listeners = new Set();
  const usedIds = new Set<string>();
  let controller = new AbortController();
  /** The bank-list request in flight: a retry while it is slow, or teardown, aborts it. */
  let loading: AbortController | undefined;
  let mounts = 0;
  let everMounted = false;
  let teardownPending = false;
  let idFromMerchant = false;
  let state = initialState(randomId(), !options.disablePayButton, optionsError);
  /** The `payment` option's value (JSON, or the object itself when not JSON) last applied. */
  let appliedPayment: unknown;
  let disabledOption = !!options.disablePayButton;

  /** Applies an event and tells the subscribers; whether it was taken (a refused one is silent). */
  function dispatch(...event: SessionEvent): boolean {
    const next = reduce(state, event);
    if (next === state) return false;
    state = next;
    listeners.forEach((listener) => listener());
    return true;
  }

  // Merchant callbacks never break the session, nor it the page: what they returned, or undefined.
  function callMerchant<
    K extends
      'eventConsumer' | 'errorConsumer' | 'onPaymentInitiated' | 'generateMerchantPaymentId',
  >(name: K, arg?: Parameters<NonNullable<SessionOptions[K]>>[0]): unknown {
    try {
      return (options[name] as ((value: typeof arg) => unknown) | undefined)?.(arg);
    } catch (error) {
      reportThrown(name, error);
    }
  }

  const emit = (event: ServiceEventName) => callMerchant('eventConsumer', event);

  /**
   * The developer's detail goes to errorConsumer, else (in development) once to the console, its
   * location after the one prefix (a message of ours loses its own); the shopper is told
   * `problem` in plain words, when there is something to tell.
   */
  function report(
    location: ErrorLocationName,
    error: string,
    problem?: Problem | null,
    keep?: boolean,
  ): void {
    if (!keep) dispatch(on.report, { location, error }, problem);
    try {
      if (process.env.NODE_ENV !== 'production' && !options.errorConsumer) {
        const ours = error.startsWith(MESSAGE_PREFIX);
        warn(`[${location}] ${ours ? error.slice(MESSAGE_PREFIX.length) : error}`);
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
    return nextPaymentId(callMerchant('generateMerchantPaymentId'), usedIds);
  }
  /**
   * The generator is merchant code: called at the first mount, never while creating (React
   * renders then), unless the front door asked for it at creation (`generateFirstIdNow`).
   */
  function generateFirstId(): void {
    if (!idFromMerchant && options.generateMerchantPaymentId) {
      dispatch(on.id, nextMerchantPaymentId());
    }
  }
  if (init.generateFirstIdNow) generateFirstId();

  /** The transport the options name, or why there is none (a developer's sentence). */
  function transport(): ServiceTransport | string {
    // A baseUrl given is a valid one (validation refuses '' and every non-http(s) address).
    const baseUrl = options.baseUrl || (options.environment === 'SANDBOX' && SANDBOX_BASE_URL);
    // The service's addresses are not in its spec: never guessed. One HTTP transport per call.
    return options.transport || (baseUrl ? createHttpTransport({ baseUrl }) : noBackend);
  }

  async function fetchInstitutions(): Promise<void> {
    if (!mounts || !dispatch(on.load)) return;
    const t = invalid || transport();
    if (typeof t === 'string') {
      dispatch(on.loadFailed);
      return report('fetchInstitutions', t, 'unavailable');
    }
    // A retry abandons the load in flight; teardown aborts it too.
    loading?.abort();
    const { signal } = (loading = new AbortController());
    // A timer here, not in the UI, so that every front door says the same thing at the same time.
    const timer = setTimeout(() => signal.aborted || dispatch(on.slow), SLOW_LOAD_MS);
    try {
      // Untrusted: bad entries are dropped or repaired before they reach the page.
      const [institutions, problem] = checkInstitutions(
        await t.fetchInstitutions(
          { environment: options.environment, applicationId: options.applicationId },
          signal,
        ),
      );
      if (signal.aborted) return;
      if (!institutions) {
        dispatch(on.loadFailed);
        return report('fetchInstitutions', problem!, 'load-failed');
      }
      const opening = state.listState === 'pending';
      dispatch(on.loaded, institutions);
      emit('institutions_fetched');
      if (opening) emit('bank_selection_opened');
      // The list is usable: the merchant hears what was fixed; the shopper sees the banks.
      if (problem) report('fetchInstitutions', problem, undefined, true);
    } catch (error) {
      // Only our own abort (unmount, retry) is silent; a transport's own AbortError is a failure.
      if (signal.aborted) return;
      dispatch(on.loadFailed);
      report('fetchInstitutions', errorMessage(error), 'load-failed');
    } finally {
      clearTimeout(timer);
    }
  }

  function notPrepared(action: string): boolean {
    if (state.prepared) return false;
    reportPay(beforeCreatePayment(action));
    return true;
  }

  async function startPayment(institution: Institution): Promise<void> {
    const prepared = state.prepared!;
    const merchantPaymentId = state.merchantPaymentId;
    // One payment in flight at a time: a double click or a repeated call sends nothing.
    if (!dispatch(on.initiate, institution)) return;
    usedIds.add(merchantPaymentId);
    idFromMerchant = false;
    // Spec 4.4 rule 4: every payment_initiated renews the id for the next payment.
    dispatch(on.id, nextMerchantPaymentId());
    const t = transport();
    emit('payment_initiated');
    emit('institution_selected');
    callMerchant('onPaymentInitiated', { merchantPaymentId, institutionId: institution.id });
    const fail = (message: string) => {
      dispatch(on.stop);
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
    if (signal.aborted || !mounts) {
      dispatch(on.stop);
      return;
    }
    // Untrusted: only an http(s) authorisation URL of a well-formed answer is opened.
    const [problem, checkedUrl, paymentId] = checkInitiatedPayment(answer);
    if (problem) return fail(problem);
    const url = options.isWebView ? addAppLinkFragment(checkedUrl!) : checkedUrl!;
    // For the result page, should the bank send the shopper back with no ids.
    const ids = { paymentId: paymentId!, merchantPaymentId };
    savePayment(ids);
    // On a desktop with the extras and a status endpoint the address goes to the shopper's
    // phone instead (a QR code: docs/handoff.md): the session's handoff region.
    // `awaiting_authorisation` fires either way: the shopper is being sent to the bank.
    const handoff = options.divert?.(url, ids, institution);
    const failed = !handoff && openBank(options.openUrl, url, ids, errorMessage);
    if (failed) return fail(failed);
    dispatch(on.opened, handoff);
    emit('awaiting_authorisation');
  }

  function teardown(): void {
    if (!teardownPending) return;
    teardownPending = false;
    controller.abort();
    loading?.abort();
    controller = new AbortController();
    // A later remount (React <Activity>, a re-injected component) starts afresh.
    dispatch(on.teardown);
  }

  const session: PaymentSession = {
    getState: () => state,

    optimisticState(next, base = state) {
      const key = paymentKey(next.payment);
      if (key === undefined || key === appliedPayment) return base;
      const shown = validatePaymentArgs(next.payment);
      return shown.ok ? { ...base, prepared: shown.value } : base;
    },

    subscribe: subscribe(listeners),

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
          warnWebViewOnIos(options);
          // Once: at creation (generateFirstIdNow) or here.
          if (!init.generateFirstIdNow) generateFirstId();
          emit('mounted');
          if (optionsError) report('fetchInstitutions', optionsError, null, true);
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
        dispatch(on.refuse);
        reportPay(formatValidationIssue(result.issue));
        return false;
      }
      const given = result.value.merchantPaymentId;
      let id = state.merchantPaymentId;
      if (given !== undefined && !usedIds.has(given)) {
        id = given;
        idFromMerchant = true;
      } else {
        warnPaymentId(given, usedIds);
        if (idFromMerchant) id = nextMerchantPaymentId();
        idFromMerchant = false;
      }
      dispatch(on.prepare, result.value, id);
      return true;
    },

    toggleButton(enabled) {
      if (typeof enabled !== 'boolean') {
        return reportPay(said(`toggleButton expects true or false, got ${describeValue(enabled)}`));
      }
      dispatch(on.toggle, enabled);
      emit(enabled ? 'pay_button_enabled' : 'pay_button_disabled');
    },

    openInstitutionSelection() {
      if (notPrepared('openInstitutionSelection') || !dispatch(on.open)) return;
      if (state.institutionsState === 'ready') emit('bank_selection_opened');
      else void fetchInstitutions();
    },

    closeInstitutionSelection() {
      dispatch(on.close);
    },

    async payWithInstitution(institutionId) {
      if (typeof institutionId !== 'string' || !institutionId) {
        return reportPay(
          said(`payWithInstitution expects an institution id, got ${describeValue(institutionId)}`),
        );
      }
      if (notPrepared('payWithInstitution')) return;
      if (invalid) return reportPay(invalid);
      if (!mounts) return reportPay(beforeMount);
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
          said(`${institution ? 'unavailable' : 'unknown'} institution "${institutionId}"`),
        );
      }
    },

    // Never rejects: every failure is reported.
    retry: fetchInstitutions,

    continueHere() {
      const handoff = state.handoff!;
      // The handoff region is left (with none shown, the event is refused); then the bank's
      // page opens here, as Pay opens it, a failure reported as Pay reports one, never thrown.
      // Its cause as `String(error)`, as the handoff panel's always was.
      if (!dispatch(on.continued)) return;
      const failed = openBank(options.openUrl, handoff.url, handoff, String);
      if (failed) reportPay(failed);
    },
  };
  return session;
}

import { addAppLinkFragment } from './app-link';
import { ErrorLocation, ServiceEvent } from './events';
import type { ErrorLocationName, ServiceEventName } from './events';
import { errorMessage, formatValidationIssue } from './errors';
import { createHttpTransport } from './http-transport';
import { randomId } from './merchant-payment-id';
import { deriveStatus } from './state';
import type { SessionState } from './state';
import type { Institution, PaymentInitiation, ServiceTransport } from './transport';
import type { SessionOptions } from './types';
import { isHttpUrl, validateOptions, validatePaymentArgs } from './validation';

/** The local sandbox (`npm start`, `servicepay/sandbox`) listens here by default. */
export const SANDBOX_BASE_URL = 'http://localhost:4010';

const PREFIX = 'servicepay:';
const isDev = () => typeof process === 'undefined' || process.env.NODE_ENV !== 'production';

export interface PaymentSession {
  /** The current state; a new object after every change (for useSyncExternalStore). */
  getState(): SessionState;
  /** Calls `listener` after every state change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Replaces the options (callbacks, flags). Changing environment or applicationId needs a new session. */
  setOptions(options: SessionOptions): void;
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
  /** Fetches the institutions again after a failure. */
  retry(): void;
}

/**
 * The payment session: the whole behaviour of the component, with no UI. Creating one has no
 * side effects (safe during render and on the server); work starts at `mount()`.
 */
export function createPaymentSession(initialOptions: SessionOptions): PaymentSession {
  let options = initialOptions;
  const optionsIssue = validateOptions(options);
  const listeners = new Set<() => void>();
  const usedIds = new Set<string>();
  let controller = new AbortController();
  let mounts = 0;
  let everMounted = false;
  let teardownPending = false;
  let idFromMerchant = false;
  let httpTransport: { baseUrl: string; transport: ServiceTransport } | undefined;

  let state: SessionState = withStatus({
    institutionsState: optionsIssue ? 'failed' : 'idle',
    listState: 'closed',
    paymentState: 'none',
    institutions: [],
    payButtonEnabled: !options.disablePayButton,
    prepared: null,
    merchantPaymentId: randomId(),
    selectedInstitution: null,
    error: optionsIssue
      ? { location: ErrorLocation.FETCH_INSTITUTIONS, error: formatValidationIssue(optionsIssue) }
      : null,
  });

  function withStatus(s: Omit<SessionState, 'status'>): SessionState {
    return { ...s, status: deriveStatus(s) };
  }

  function update(patch: Partial<Omit<SessionState, 'status'>>): void {
    state = withStatus({ ...state, ...patch });
    listeners.forEach((listener) => listener());
  }

  // Merchant callbacks must never break the session, nor the session the merchant's page.
  function callMerchant<A extends unknown[]>(
    name: string,
    fn: ((...args: A) => void) | undefined,
    ...args: A
  ): void {
    try {
      fn?.(...args);
    } catch (error) {
      console.error(`${PREFIX} ${name} threw`, error);
    }
  }

  const emit = (event: ServiceEventName) =>
    callMerchant('eventConsumer', options.eventConsumer, event);

  function report(location: ErrorLocationName, error: string, show = true): void {
    if (show) update({ error: { location, error } });
    callMerchant('errorConsumer', options.errorConsumer, { location, error });
  }

  function nextMerchantPaymentId(): string {
    let id: unknown;
    try {
      id = options.generateMerchantPaymentId?.();
    } catch (error) {
      console.error(`${PREFIX} generateMerchantPaymentId threw; a random UUID is used`, error);
    }
    return typeof id === 'string' && id && !usedIds.has(id) ? id : randomId();
  }

  function transport(): ServiceTransport | string {
    if (options.transport) return options.transport;
    const baseUrl =
      options.baseUrl ?? (options.environment === 'SANDBOX' ? SANDBOX_BASE_URL : undefined);
    if (!baseUrl) {
      // The real service's addresses are not published in its spec: we never guess them.
      return `${PREFIX} no backend address for LIVE: pass the baseUrl of your backend or a transport`;
    }
    if (httpTransport?.baseUrl !== baseUrl) {
      httpTransport = { baseUrl, transport: createHttpTransport({ baseUrl }) };
    }
    return httpTransport.transport;
  }

  async function fetchInstitutions(): Promise<void> {
    const issue = validateOptions(options);
    if (issue) return report(ErrorLocation.FETCH_INSTITUTIONS, formatValidationIssue(issue));
    const t = transport();
    if (typeof t === 'string') {
      update({ institutionsState: 'failed' });
      return report(ErrorLocation.FETCH_INSTITUTIONS, t);
    }
    const { signal } = controller;
    update({ institutionsState: 'loading', error: null });
    try {
      const institutions = await t.fetchInstitutions(
        { environment: options.environment, applicationId: options.applicationId },
        signal,
      );
      if (signal.aborted) return;
      const opening = state.listState === 'pending';
      update({
        institutionsState: 'ready',
        institutions,
        listState: opening ? 'open' : state.listState,
      });
      emit(ServiceEvent.INSTITUTIONS_FETCHED);
      if (opening) emit(ServiceEvent.BANK_SELECTION_OPENED);
    } catch (error) {
      // Only our own abort (unmount) is silent; a transport's own AbortError is a failure.
      if (signal.aborted) return;
      update({ institutionsState: 'failed' });
      report(ErrorLocation.FETCH_INSTITUTIONS, errorMessage(error));
    }
  }

  function notPrepared(action: string): boolean {
    if (state.prepared) return false;
    report(
      ErrorLocation.PAY_WITH_BANK_INSTITUTION,
      `${PREFIX} ${action} needs a valid payment: call createPayment({ amount, paymentReference }) first`,
    );
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
    });
    emit(ServiceEvent.PAYMENT_INITIATED);
    emit(ServiceEvent.INSTITUTION_SELECTED);
    callMerchant('onPaymentInitiated', options.onPaymentInitiated, {
      merchantPaymentId,
      institutionId: institution.id,
    });
    const fail = (message: string) => {
      update({ paymentState: 'none' });
      report(ErrorLocation.PAY_WITH_BANK_INSTITUTION, message);
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
    let url: string;
    try {
      ({ authorisationUrl: url } = await t.initiatePayment(request, signal));
    } catch (error) {
      if (signal.aborted) return;
      return fail(errorMessage(error));
    }
    // Never redirect a page whose component has gone.
    if (signal.aborted || mounts === 0) return void update({ paymentState: 'none' });
    if (typeof url !== 'string' || !isHttpUrl(url)) {
      return fail(`${PREFIX} refused to open a non-http(s) authorisation URL: ${String(url)}`);
    }
    if (options.isWebView) url = addAppLinkFragment(url);
    const openUrl = options.openUrl ?? ((u: string) => window.location.assign(u));
    try {
      openUrl(url);
    } catch (error) {
      return fail(`${PREFIX} could not open the authorisation URL: ${errorMessage(error)}`);
    }
    update({ paymentState: 'awaiting-authorisation', listState: 'closed' });
    emit(ServiceEvent.AWAITING_AUTHORISATION);
  }

  function teardown(): void {
    if (!teardownPending) return;
    teardownPending = false;
    controller.abort();
    controller = new AbortController();
    // A later remount (React <Activity>, a re-injected component) starts afresh.
    update({
      institutionsState: state.institutionsState === 'loading' ? 'idle' : state.institutionsState,
      paymentState: state.paymentState === 'initiating' ? 'none' : state.paymentState,
    });
  }

  return {
    getState: () => state,

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    setOptions(next) {
      const issue = validateOptions(next);
      if (issue) {
        const message = formatValidationIssue(issue);
        if (state.error?.error !== message) report(ErrorLocation.FETCH_INSTITUTIONS, message);
        return;
      }
      options = next;
    },

    mount() {
      const first = mounts === 0 && !teardownPending;
      teardownPending = false;
      mounts++;
      if (first) {
        if (!everMounted) {
          everMounted = true;
          // The generator is merchant code: called from here, never while creating (render).
          if (!idFromMerchant && options.generateMerchantPaymentId) {
            update({ merchantPaymentId: nextMerchantPaymentId() });
          }
          emit(ServiceEvent.MOUNTED);
          if (optionsIssue) report(ErrorLocation.FETCH_INSTITUTIONS, state.error!.error, false);
          if (
            isDev() &&
            options.isWebView &&
            typeof navigator !== 'undefined' &&
            /iPhone|iPad|iPod/.test(navigator.userAgent)
          ) {
            console.warn(
              `${PREFIX} isWebView is for Android WebView hosts only and must not be used on iOS (spec 4.4 rule 3).`,
            );
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
        update({ prepared: null });
        report(ErrorLocation.PAY_WITH_BANK_INSTITUTION, formatValidationIssue(result.issue));
        return false;
      }
      const given = result.value.merchantPaymentId;
      let id = state.merchantPaymentId;
      if (given !== undefined && !usedIds.has(given)) {
        id = given;
        idFromMerchant = true;
      } else {
        if (given !== undefined && isDev()) {
          console.warn(
            `${PREFIX} merchantPaymentId "${given}" was already used by a payment; a new one is generated (spec 4.4 rule 4).`,
          );
        }
        if (idFromMerchant) id = nextMerchantPaymentId();
        idFromMerchant = false;
      }
      update({
        prepared: result.value,
        merchantPaymentId: id,
        error:
          state.error?.location === ErrorLocation.PAY_WITH_BANK_INSTITUTION ? null : state.error,
      });
      return true;
    },

    toggleButton(enabled) {
      if (typeof enabled !== 'boolean') {
        return report(
          ErrorLocation.PAY_WITH_BANK_INSTITUTION,
          `${PREFIX} toggleButton expects true or false, got ${String(enabled)}`,
        );
      }
      update({ payButtonEnabled: enabled });
      emit(enabled ? ServiceEvent.PAY_BUTTON_ENABLED : ServiceEvent.PAY_BUTTON_DISABLED);
    },

    openInstitutionSelection() {
      if (notPrepared('openInstitutionSelection') || state.listState === 'open') return;
      if (state.institutionsState === 'ready') {
        update({ listState: 'open' });
        emit(ServiceEvent.BANK_SELECTION_OPENED);
        return;
      }
      update({ listState: 'pending' });
      if (state.institutionsState === 'failed' && mounts > 0) void fetchInstitutions();
    },

    closeInstitutionSelection() {
      if (state.listState !== 'closed') update({ listState: 'closed' });
    },

    async payWithInstitution(institutionId) {
      if (typeof institutionId !== 'string' || !institutionId) {
        return report(
          ErrorLocation.PAY_WITH_BANK_INSTITUTION,
          `${PREFIX} payWithInstitution expects an institution id, got ${String(institutionId)}`,
        );
      }
      // One payment in flight at a time: a double click or a repeated call sends nothing.
      if (state.paymentState === 'initiating' || notPrepared('payWithInstitution')) return;
      if (mounts === 0) {
        return report(
          ErrorLocation.PAY_WITH_BANK_INSTITUTION,
          `${PREFIX} payWithInstitution needs the component mounted (its redirect would be lost)`,
        );
      }
      let institution = state.institutions.find((i) => i.id === institutionId);
      if (!institution) {
        if (state.institutionsState === 'ready') {
          return report(
            ErrorLocation.PAY_WITH_BANK_INSTITUTION,
            `${PREFIX} unknown institution "${institutionId}"`,
          );
        }
        // The list is not here yet: the backend validates the id.
        institution = { id: institutionId, name: institutionId };
      }
      await startPayment(institution);
    },

    retry() {
      if (state.institutionsState === 'failed' && mounts > 0) void fetchInstitutions();
    },
  };
}

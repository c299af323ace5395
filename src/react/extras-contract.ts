import type {
  Catalogue,
  Handoff,
  PaymentResultOutcome,
  PaymentSession,
  ServiceMessages,
  SessionOptions,
  SessionState,
} from '../core/index';
import type { SessionWiring } from '../core/internal';
import type { BankListProps } from './BankList';

// The contract between the component and its opt-in extras (`servicepay/extras`): what the
// component hands them, and what they give back. A file of its own, imported by the view, the
// hook and the extras, which import nothing of each other's for it. It names nothing of
// React's or Preact's, so that the types of servicepay/vanilla do not either.

/**
 * What a component of React or of Preact returns: the contract names neither library (the
 * one `any` here, so that both builds render the same extras).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an element of React or Preact
export type ExtrasNode = any;

/** The props of `<ServicePay>` that only its extras read (`ServicePayProps` extends these). */
export interface ServicePayExtrasProps {
  /**
   * Called when the handoff panel is shown for a payment (its QR code holds the bank's
   * address). `awaiting_authorisation` fires at the same moment (docs/handoff.md).
   */
  onHandoffShown?: (handoff: Handoff) => void;
  /**
   * Called once when the status endpoint gives the final status of a handed-off payment (the
   * panel shows it): `{ paymentId, merchantPaymentId, status }`, status `'COMPLETED'`,
   * `'FAILED'` or `'NEEDS_REVIEW'`.
   */
  onResult?: (outcome: PaymentResultOutcome) => void;
  /**
   * The shop's own contact or next step, shown as text in the handoff panel when a handed-off
   * payment needs checking (`NEEDS_REVIEW`), as `<PaymentResult reviewContact>` shows it.
   */
  reviewContact?: string;
  /**
   * Remembers the bank the shopper last paid with, on this device (its institution id only,
   * in `localStorage`), and offers it first next time, with a way to forget it.
   * @default false
   */
  rememberBank?: boolean;
  /**
   * Institution ids shown above the full list (the banks most of your customers use); the
   * search still covers every bank. Unknown ids are skipped.
   */
  featuredInstitutions?: readonly string[];
}

/** The component's props the extras read: theirs, and a few of the component's. */
export interface ExtrasProps extends ServicePayExtrasProps {
  statusUrl?: string;
  openUrl?: SessionOptions['openUrl'];
  handoff?: boolean;
  messages?: unknown;
  locale?: Catalogue;
  disableVolumeStyling?: boolean;
  nonce?: string;
}

/** What the view hands its extras, as it passes it: its own context, whole. */
export interface ExtrasContext {
  session: PaymentSession;
  /** The state to render, whose `handoff` region is the handoff panel's. */
  state: SessionState;
  /** The component's props (options), as given. */
  props: ExtrasProps;
  /** The component's words (resolved). */
  messages: ServiceMessages;
  /** Their language (`languageOf`), the component's `lang`. */
  lang: string;
  /** `aria-live` for live regions while the words change language (useQuietSwitch). */
  quiet: 'off' | undefined;
  cx: (service: string, utility?: string) => string | undefined;
  /** The component's id, unique in the page: the prefix of the extras' element ids. */
  id: string;
  /** The component's bank list, to draw banks as it does (handed over, not imported). */
  BankList(props: BankListProps): ExtrasNode;
  /**
   * Where focus goes when what had it goes, held by the view (as Radix's dialog context holds
   * its trigger): the Pay button, and the open step's heading. Refs, not functions: fewer
   * bytes in the view, which every Pay button carries.
   */
  payButton: { readonly current: HTMLElement | null };
  stepHeading: { readonly current: HTMLElement | null };
}

/**
 * What `import { extras } from 'servicepay/extras'` is, as the component sees it.
 * src/react/extras.tsx implements it.
 */
export interface ServicePayExtras {
  /**
   * The session's options with the extras' wiring in: on a desktop with `statusUrl` (and
   * `handoff` not false) the bank's address goes to the shopper's phone, and the session
   * enters its handoff region (`state.handoff`), which the component and the hook render.
   */
  options<P extends ExtrasProps>(props: P): P & SessionWiring;
  /** What the component draws at the top of its bank step (`step`) and under itself. */
  Extras(context: ExtrasContext & { step?: boolean }): ExtrasNode;
}

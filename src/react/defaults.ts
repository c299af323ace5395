import { DEFAULT_MESSAGES } from '../core/index';

/** The spec's defaults (2.2) for the title, label and Pay label, from the messages table. */
export const DEFAULT_TITLE = DEFAULT_MESSAGES.title;
export const DEFAULT_LABEL = DEFAULT_MESSAGES.label;
export const DEFAULT_PAY_LABEL = DEFAULT_MESSAGES.payLabel;

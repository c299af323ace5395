import { vi } from 'vitest';

/** The error object errorConsumer receives (spec 2.4). */
export interface LoggedError {
  location: string;
  error: string;
}

/**
 * One ordered log of what a merchant's callbacks see: events, errors and opened URLs, as
 *
 *   ['event:mounted', 'event:institutions_fetched',
 *    'error:payWithBankInstitution:<message>', 'openUrl:https://…']
 *
 * Pass `eventConsumer`, `errorConsumer` and `openUrl` to the session or component.
 */
export function createEventLog() {
  const entries: string[] = [];
  const errorObjects: LoggedError[] = [];
  const log = {
    /** Everything, in order. */
    entries,
    eventConsumer: vi.fn((event: string): void => {
      entries.push(`event:${event}`);
    }),
    errorConsumer: vi.fn((error: LoggedError): void => {
      errorObjects.push(error);
      entries.push(`error:${error.location}:${error.error}`);
    }),
    openUrl: vi.fn((url: string): void => {
      entries.push(`openUrl:${url}`);
    }),
    /** The event names only, in order. */
    events(): string[] {
      return entries.filter((e) => e.startsWith('event:')).map((e) => e.slice('event:'.length));
    },
    /** The error objects errorConsumer received, in order. */
    errors(): LoggedError[] {
      return [...errorObjects];
    },
    /** The URLs passed to openUrl, in order. */
    openedUrls(): string[] {
      return entries.filter((e) => e.startsWith('openUrl:')).map((e) => e.slice('openUrl:'.length));
    },
    /** Forgets what was logged so far (e.g. the start-up events). */
    clear(): void {
      entries.length = 0;
      errorObjects.length = 0;
    },
  };
  return log;
}

export type EventLog = ReturnType<typeof createEventLog>;

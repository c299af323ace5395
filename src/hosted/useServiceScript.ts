'use client';
import { useCallback, useEffect, useState } from 'react';
import { loadService, ownOptions } from './load-service';
import type { LoadServiceOptions } from './load-service';
import type { ServiceConstructor } from './types';

/** What {@link useServiceScript} returns. */
export interface ServiceScriptState {
  /** `loading` until the script defines its constructor (also on the server), then `ready` or `error`. */
  status: 'loading' | 'ready' | 'error';
  /** The service's constructor, once `ready`. */
  Service?: ServiceConstructor;
  /** Why it did not load (`servicepay: could not load the service's script from …`), on `error`. */
  error?: Error;
  /** Loads the script again (a fresh request) after an error; nothing otherwise. */
  retry(): void;
}

/**
 * The service's script for your own UI: loads it once per page (shared with every
 * `<ServicePay>` of `servicepay/hosted`) and tells its status. One request per attempt: a new
 * attempt comes only from `retry`.
 */
export function useServiceScript(
  src: string,
  options: Omit<LoadServiceOptions, 'timeoutMs'> = {},
): ServiceScriptState {
  const { integrity, nonce, globalName } = ownOptions(options);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Omit<ServiceScriptState, 'retry'>>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState((old) => (old.status == 'loading' ? old : { status: 'loading' }));
    loadService(src, { integrity, nonce, globalName }).then(
      (Service) => current && setState({ status: 'ready', Service }),
      (error: Error) => current && setState({ status: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [src, integrity, nonce, globalName, attempt]);
  const failed = state.status == 'error';
  const retry = useCallback(() => failed && setAttempt((n) => n + 1), [failed]);
  return { ...state, retry };
}

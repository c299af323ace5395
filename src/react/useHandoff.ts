'use client';
import { useEffect, useState } from 'react';
import type { Handoff, ListState, PaymentSession } from '../core/index';
import type { ServicePayExtras } from './extras-contract';

/**
 * The handoff of the component or hook `id`: the payment whose bank's address the extras sent
 * to the shopper's phone instead of opening it (`register`, while given), null before and after.
 * Opening the bank step again (Pay, or Try again) leaves it behind. One copy for the extras'
 * panel and `useServicePayment`'s `handoff`.
 */
export function useHandoff(
  register: ServicePayExtras['register'] | undefined,
  id: string,
  session: PaymentSession,
  listState: ListState,
): [Handoff | null, (handoff: null) => void] {
  const [handoff, setHandoff] = useState<Handoff | null>(null);
  useEffect(
    () =>
      register?.(id, (url, payment) =>
        setHandoff({ url, ...payment, institution: session.getState().selectedInstitution! }),
      ),
    [register, id, session],
  );
  useEffect(() => {
    if (listState !== 'closed') setHandoff(null);
  }, [listState]);
  return [handoff, setHandoff];
}

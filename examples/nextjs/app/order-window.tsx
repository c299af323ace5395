'use client';
// The order's window to pay, on the checkout: the time it is held until, and once it has
// closed, no Pay button but a fresh order (a reload of this page makes one). The time is
// formatted in the shop's own time zone, so the server's HTML and the browser's render agree.
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';

const CLOCK = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

export function OrderWindow({ closesAt, children }: { closesAt: string; children: ReactNode }) {
  // Open on the server and at hydration: the browser's clock decides only after it.
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    const left = Date.parse(closesAt) - Date.now();
    const timer = setTimeout(() => setClosed(true), Math.min(Math.max(left, 0), 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [closesAt]);
  const until = CLOCK.format(new Date(closesAt));
  if (!closed) {
    return (
      <>
        <p>We hold this order for you until {until}.</p>
        {children}
      </>
    );
  }
  return (
    <section aria-labelledby="closed-title">
      <h2 id="closed-title">This order has closed</h2>
      <p>
        We held it for you until {until}, so it can no longer be paid. If you approved a payment for
        it at your bank, we will check it and be in touch.
      </p>
      {/* A full load, not a client navigation: the server makes the new order. */}
      <a href="/">Start a new order</a>
    </section>
  );
}

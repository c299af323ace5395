'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';

/** Re-renders the page every second while waiting, and stops after a minute with advice. */
export function Refresh() {
  const router = useRouter();
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries > 60) {
        clearInterval(timer);
        setGaveUp(true);
      } else router.refresh();
    }, 1000);
    return () => clearInterval(timer);
  }, [router]);
  return gaveUp ? (
    <p role="alert">
      Your bank has not confirmed yet. Check your banking app; if the payment was taken, contact us
      with your reference.
    </p>
  ) : null;
}

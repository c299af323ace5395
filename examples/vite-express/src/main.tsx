// Two routes, no router needed: the checkout, and the result page the bank sends the shopper
// back to (the sandbox's --web-callback-url, your application's callback address when live).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Checkout } from './Checkout';
import { Result } from './Result';

const page = window.location.pathname === '/checkout/result' ? <Result /> : <Checkout />;

createRoot(document.getElementById('root')!).render(<StrictMode>{page}</StrictMode>);

// @ts-check
/*
 * The deliveries page's script, served as a file (/assets/deliveries.js: the page's CSP allows
 * 'self' only): keeps the page up to date while it is open, from the sandbox's event stream
 * (/deliveries/events). A notification already on the page is updated in place (its state line
 * and its attempts), so nothing moves under a reader's eyes or focus, and its forms keep what
 * was typed; a new one is added at the top. The live region says how many attempts came in, at
 * most every two seconds, rather than one announcement per attempt. Without script the page
 * still works: it is only not live.
 */
'use strict';
(function () {
  // Selected by its data-events attribute, so it has one: the address of its event stream.
  const main = /** @type {(Element & { getAttribute(name: 'data-events'): string }) | null} */ (
    document.querySelector('main[data-events]')
  );
  const live = document.getElementById('deliveries-live');
  const list = document.getElementById('notifications');
  if (!main || !live || !list || typeof EventSource !== 'function') return;
  let fresh = 0;
  let latest = '';
  let timer = 0;
  const say = function () {
    if (timer) return;
    timer = window.setTimeout(function () {
      timer = 0;
      live.textContent =
        fresh +
        (fresh === 1 ? ' new attempt' : ' new attempts') +
        ' since this page opened. Latest: ' +
        latest +
        '.';
    }, 2000);
  };
  /**
   * The element the sandbox rendered (escaped there, by its html tag), parsed inert.
   * @param {string} html
   * @returns {Element}
   */
  function parse(html) {
    const template = document.createElement('template');
    template.innerHTML = html;
    return /** @type {Element} */ (template.content.firstElementChild);
  }
  const FOCUSABLE = '[tabindex], a, button, input, summary';
  /**
   * @param {Element} element
   * @returns {HTMLElement | null}
   */
  function focusable(element) {
    return element.matches(FOCUSABLE)
      ? /** @type {HTMLElement} */ (element)
      : element.querySelector(FOCUSABLE);
  }
  /**
   * Replaces an element by its new version, keeping open answers open and focus inside.
   * @param {Element} old
   * @param {Element} next
   */
  function swap(old, next) {
    const active = document.activeElement;
    const hadFocus = active !== null && old.contains(active);
    old.querySelectorAll('details[open][data-key]').forEach(function (details) {
      const twin = next.querySelector(
        'details[data-key="' + details.getAttribute('data-key') + '"]',
      );
      if (twin instanceof HTMLDetailsElement) twin.open = true;
    });
    old.replaceWith(next);
    if (hadFocus) {
      const same = active.id ? document.getElementById(active.id) : null;
      const target = same || focusable(next);
      if (target) target.focus();
    }
  }
  const source = new EventSource(main.getAttribute('data-events'));
  source.addEventListener('attempt', function (event) {
    const data = JSON.parse(event.data);
    const incoming = parse(data.html);
    const current = document.getElementById(incoming.id);
    if (current) {
      incoming.querySelectorAll('[data-part]').forEach(function (part) {
        const name = part.getAttribute('data-part');
        const old = current.querySelector('[data-part="' + name + '"]');
        if (old) swap(old, part);
      });
    } else {
      const empty = document.getElementById('no-deliveries');
      if (empty) empty.remove();
      list.prepend(incoming);
    }
    fresh += 1;
    latest = data.summary;
    say();
  });
  // A part replaced as a whole, by its id (the armed faults).
  source.addEventListener('section', function (event) {
    const incoming = parse(JSON.parse(event.data).html);
    const old = document.getElementById(incoming.id);
    if (old) swap(old, incoming);
  });
  source.addEventListener('check', function (event) {
    const data = JSON.parse(event.data);
    const old = document.getElementById('receiver-check-result');
    if (old) swap(old, parse(data.html));
    if (data.summary) live.textContent = data.summary;
  });
})();

/**
 * The files the sandbox's pages load: the one stylesheet, and the deliveries page's script.
 * Served as files so the pages' CSP can forbid inline styles and scripts altogether. Colours
 * meet WCAG AA (text ≥ 4.5:1) in light and dark.
 */
export const SANDBOX_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f4f5f7;
  --surface: #ffffff;
  --text: #1b1f24;
  --muted: #4a5260;
  --border: #c4c9d1;
  --primary: #0b5d2a;
  --primary-text: #ffffff;
  --danger: #a4161a;
  --focus: #1d4ed8;
  --badge-bg: #fff3bf;
  --badge-text: #5c3c00;
  --warning: #7a4a00;
  --failed-bg: #fdecec;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418;
    --surface: #1b2027;
    --text: #eef1f5;
    --muted: #b4bcc8;
    --border: #4a5361;
    --primary: #3ddc84;
    --primary-text: #04210f;
    --danger: #ff8a8a;
    --focus: #8ab4ff;
    --badge-bg: #4a3b00;
    --badge-text: #ffe58a;
    --warning: #ffd27a;
    --failed-bg: #3a1c1f;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); }
a { color: var(--focus); }
.bank-bar {
  display: flex; align-items: center; gap: 0.75rem;
  padding: 0.75rem 1rem; background: var(--surface); border-bottom: 1px solid var(--border);
}
.bank-bar img { border-radius: 8px; }
.bank-name { font-weight: 700; font-size: 1.125rem; }
.badge {
  margin-left: auto; padding: 0.125rem 0.5rem; border-radius: 999px;
  background: var(--badge-bg); color: var(--badge-text); font-size: 0.875rem; font-weight: 600;
}
main { max-width: 36rem; margin: 1.5rem auto; padding: 0 1rem; }
main.wide { max-width: 72rem; }
.card {
  background: var(--surface); border: 1px solid var(--border); border-radius: 12px;
  padding: 1.25rem 1.5rem;
}
h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
h2 { font-size: 1.125rem; margin: 1.5rem 0 0.5rem; }
.lead { font-size: 1.125rem; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
.summary { margin: 1rem 0; display: grid; gap: 0.5rem; }
.summary div { display: flex; justify-content: space-between; gap: 1rem; border-bottom: 1px solid var(--border); padding-bottom: 0.5rem; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
.amount { font-size: 1.25rem; }
fieldset { border: 0; padding: 0; margin: 1.25rem 0 0; }
legend { font-weight: 600; margin-bottom: 0.5rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button, .button {
  font: inherit; font-weight: 600; min-height: 44px; padding: 0.5rem 1.25rem;
  border-radius: 8px; border: 2px solid var(--border); background: var(--surface); color: var(--text);
  cursor: pointer; text-decoration: none; display: inline-flex; align-items: center;
}
button.primary, .button.primary { background: var(--primary); border-color: var(--primary); color: var(--primary-text); }
button.danger { color: var(--danger); border-color: var(--danger); }
button:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.note { color: var(--muted); font-size: 0.9375rem; }
.status-COMPLETED { color: var(--primary); }
.status-FAILED { color: var(--danger); }
table { border-collapse: collapse; width: 100%; font-size: 0.9375rem; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.5rem; }
th, td { text-align: left; padding: 0.375rem 0.5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
td code, dd code { overflow-wrap: anywhere; }
.table-scroll { overflow-x: auto; }
.table-scroll:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.notification { border-top: 2px solid var(--border); margin-top: 1.5rem; padding-top: 0.5rem; }
h3 { font-size: 1rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
.state { margin: 0.25rem 0 0.75rem; overflow-wrap: anywhere; }
.verdict { font-weight: 700; }
.verdict-delivered { color: var(--primary); }
.verdict-gave-up, .verdict-cancelled { color: var(--danger); }
.verdict-retrying { color: var(--warning); }
.hint { margin: 0.25rem 0; min-width: 16rem; max-width: 40rem; }
.label { margin: 0.25rem 0 0; }
pre.raw {
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.25rem 0; padding: 0.5rem;
  background: var(--bg); border: 1px solid var(--border); border-radius: 6px;
  font-size: 0.8125rem; max-width: 60rem;
}
td.answer { min-width: 12rem; }
details { margin: 0.5rem 0; }
summary { cursor: pointer; min-height: 24px; }
summary:focus-visible, input:focus-visible, .table-scroll:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
form .field { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.5rem 0; }
form .field.check { flex-wrap: nowrap; }
input[type='number'], input[type='text'] {
  font: inherit; min-height: 44px; padding: 0.25rem 0.5rem; border-radius: 6px;
  border: 2px solid var(--border); background: var(--surface); color: var(--text);
}
input[type='number'] { width: 8rem; }
input[type='text'] { width: min(24rem, 100%); }
input[type='checkbox'], input[type='radio'] { width: 24px; height: 24px; flex: none; margin: 0; accent-color: var(--focus); }
fieldset + fieldset { margin-top: 0.75rem; }
.live { font-weight: 600; }
tr.failed th, tr.failed td { background: var(--failed-bg); }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;

/**
 * The deliveries page's script: keeps the page up to date while it is open, from the
 * sandbox's event stream (/deliveries/events). A notification already on the page is updated
 * in place (its state line and its attempts), so nothing moves under a reader's eyes or focus,
 * and its forms keep what was typed; a new one is added at the top. The live region says how
 * many attempts came in, at most every two seconds, rather than one announcement per attempt.
 * Without script the page still works: it is only not live.
 */
export const DELIVERIES_SCRIPT = `'use strict';
(function () {
  var main = document.querySelector('main[data-events]');
  if (!main || typeof EventSource !== 'function') return;
  var live = document.getElementById('deliveries-live');
  var list = document.getElementById('notifications');
  var fresh = 0;
  var latest = '';
  var timer = 0;
  function say() {
    if (timer) return;
    timer = setTimeout(function () {
      timer = 0;
      live.textContent = fresh + (fresh === 1 ? ' new attempt' : ' new attempts') +
        ' since this page opened. Latest: ' + latest + '.';
    }, 2000);
  }
  function parse(html) {
    var template = document.createElement('template');
    template.innerHTML = html;
    return template.content.firstElementChild;
  }
  function focusable(element) {
    return element.matches('[tabindex], a, button, input, summary') ? element
      : element.querySelector('[tabindex], a, button, input, summary');
  }
  // Replaces an element by its new version, keeping open answers open and focus inside.
  function swap(old, next) {
    var active = document.activeElement;
    var hadFocus = old.contains(active);
    old.querySelectorAll('details[open][data-key]').forEach(function (details) {
      var twin = next.querySelector('details[data-key="' + details.getAttribute('data-key') + '"]');
      if (twin) twin.open = true;
    });
    old.replaceWith(next);
    if (hadFocus) {
      var same = active.id ? document.getElementById(active.id) : null;
      var target = same || focusable(next);
      if (target) target.focus();
    }
  }
  var source = new EventSource(main.getAttribute('data-events'));
  source.addEventListener('attempt', function (event) {
    var data = JSON.parse(event.data);
    var incoming = parse(data.html);
    var current = document.getElementById(incoming.id);
    if (current) {
      incoming.querySelectorAll('[data-part]').forEach(function (part) {
        var name = part.getAttribute('data-part');
        var old = current.querySelector('[data-part="' + name + '"]');
        if (old) swap(old, part);
      });
    } else {
      var empty = document.getElementById('no-deliveries');
      if (empty) empty.remove();
      list.prepend(incoming);
    }
    fresh += 1;
    latest = data.summary;
    say();
  });
  // A part replaced as a whole, by its id (the armed faults).
  source.addEventListener('section', function (event) {
    var incoming = parse(JSON.parse(event.data).html);
    var old = document.getElementById(incoming.id);
    if (old) swap(old, incoming);
  });
  source.addEventListener('check', function (event) {
    var data = JSON.parse(event.data);
    var old = document.getElementById('receiver-check-result');
    if (old) swap(old, parse(data.html));
    if (data.summary) live.textContent = data.summary;
  });
})();
`;

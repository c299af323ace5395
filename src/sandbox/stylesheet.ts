/**
 * The one stylesheet of the sandbox's pages, served as a file so the pages' CSP can forbid
 * inline styles and scripts altogether. Colours meet WCAG AA (text ≥ 4.5:1) in light and dark.
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
@media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;

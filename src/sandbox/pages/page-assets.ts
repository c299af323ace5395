/**
 * The files the sandbox's pages load: the one stylesheet, and the deliveries page's script.
 * Served as files so the pages' CSP can forbid inline styles and scripts altogether; written as
 * real files (sandbox.css, deliveries-live.js) that the formatter, the linter and the type
 * checker see, and imported as text (`?raw`) as the component's stylesheets are.
 */
import type { ServerResponse } from 'node:http';
import deliveriesScript from './deliveries-live.js?raw';
import { send } from '../http';
import stylesheet from './sandbox.css?raw';
import { STACK_LABELS_MARK, stackLabelRules } from './stack-tables';

// The stacked tables' cell labels, made from their headers once (stack-tables.ts).
const served = stylesheet.replace(STACK_LABELS_MARK, stackLabelRules());

/** Path of the stylesheet every page links (a file, so the CSP needs no inline style). */
export const STYLESHEET_PATH = '/assets/sandbox.css';
/** Where the deliveries page's script is served (a file: the page's CSP allows 'self' only). */
export const DELIVERIES_SCRIPT_PATH = '/assets/deliveries.js';

export function sendStylesheet(res: ServerResponse): void {
  send(res, 200, served, { 'Content-Type': 'text/css; charset=utf-8' });
}

export function sendDeliveriesScript(res: ServerResponse): void {
  send(res, 200, deliveriesScript, { 'Content-Type': 'text/javascript; charset=utf-8' });
}

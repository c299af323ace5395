/**
 * Answers of the routes outside the pages' own files that are a page: the keys page, a
 * refusal, or a 303 onwards. None has a form that leaves the sandbox, so the pages' CSP lists
 * no callback.
 */
import type { ServerResponse } from 'node:http';
import { send } from './http';
import { messagePage, pageCsp } from './pages';

/** An HTML page under the pages' CSP, with extra headers such as Location. */
export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  send(res, status, html, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pageCsp([]),
    ...headers,
  });
}

/** A message page: a title and a sentence. */
export function sendMessagePage(
  res: ServerResponse,
  status: number,
  title: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendHtml(res, status, messagePage(title, message), headers);
}

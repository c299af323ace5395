/**
 * Answers of the routes outside the pages' own files that are a page: the keys page, a
 * refusal, or a 303 onwards. None has a form that leaves the sandbox, so the pages' CSP lists
 * no callback.
 */
import type { ServerResponse } from 'node:http';
import { messagePage, sendHtml } from './pages';

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

/**
 * The 303 after a form's POST (post/redirect/get, so a reload never acts twice), with a page
 * that says where to go for a client that does not follow it.
 */
export function sendRedirect(res: ServerResponse, location: string): void {
  sendMessagePage(res, 303, 'Redirecting', `Continue to ${location}`, { Location: location });
}

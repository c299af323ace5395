/**
 * How the CLI's commands that act on a running sandbox (resend, break, check-receiver,
 * rotate-key) reach it.
 */
import { SANDBOX_BASE_URL } from '../../core/index';
import { UsageError } from './flags';
import { describeFailure } from '../notification';

/** Where the commands find the sandbox unless --sandbox says otherwise. */
export const DEFAULT_SANDBOX_ADDRESS = SANDBOX_BASE_URL;

/**
 * POSTs an action to a running sandbox as JSON, which its deliveries routes accept from
 * tools on this machine (a page elsewhere cannot send it).
 */
export async function askSandbox(
  sandbox: string | undefined,
  path: string,
  body: unknown,
): Promise<{ address: string; answer: Record<string, unknown> }> {
  const address = (sandbox ?? DEFAULT_SANDBOX_ADDRESS).replace(/\/+$/, '');
  if (!URL.canParse(address) || !/^https?:$/.test(new URL(address).protocol)) {
    throw new UsageError(`--sandbox must be the sandbox's http(s) address, got "${address}"`);
  }
  let response: Response;
  try {
    response = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (cause) {
    throw new Error(
      `servicepay: no sandbox answered at ${address} (${describeFailure((cause as Error).cause ?? cause)}). Start it, or give its address with --sandbox.`,
      { cause },
    );
  }
  const text = await response.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not the sandbox's JSON: reported below with the status.
  }
  if (!response.ok) {
    const message = typeof answer.error === 'string' ? answer.error : text.slice(0, 200);
    throw new Error(`${message} (HTTP ${response.status} from ${address})`);
  }
  return { address, answer };
}

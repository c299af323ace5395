/** `servicepay-sandbox send-webhook`: one signed test notification to a receiver (spec 5.3). */
import { PUBLIC_KEY_PATH } from '../../core/index';
import { sendTestWebhook } from '../deliveries/notification';
import type { TestWebhookPayloadOverrides } from '../deliveries/notification';
import { EXIT_FAILURE, EXIT_OK, UsageError, parse } from './args';
import type { CliIo } from './args';
import { SEND_OPTIONS } from './usage';

export async function sendWebhookCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, SEND_OPTIONS);
  if (values.to === undefined) throw new UsageError('send-webhook needs --to <url>');
  const status = values.status?.toUpperCase();
  if (status !== 'COMPLETED' && status !== 'FAILED') {
    throw new UsageError('send-webhook needs --status COMPLETED or --status FAILED');
  }
  if (values['error-description'] !== undefined && status !== 'FAILED') {
    throw new UsageError(
      '--error-description is only for --status FAILED (a COMPLETED notification carries errorDescription null)',
    );
  }
  const result = await sendTestWebhook({
    to: values.to,
    status,
    keyFile: values['key-file'],
    payload: payloadFlags(values),
  });
  io.out(`PUT ${values.to}`);
  io.out(`Authorization: ${result.authorization}`);
  io.out(result.body);
  if (values['key-file'] === undefined) {
    io.out(
      `Signed with a new key (no --key-file); its public key, as ${PUBLIC_KEY_PATH} serves it:`,
    );
    io.out(result.publicKeyText);
  }
  const answer = result.responseText ? `: ${result.responseText.slice(0, 200)}` : '';
  if (result.status === 200) {
    io.out(`Receiver answered HTTP 200${answer}`);
    return EXIT_OK;
  }
  io.err(
    `Receiver answered HTTP ${result.status}${answer} (the service would retry: only 200 counts as delivered)`,
  );
  return EXIT_FAILURE;
}

/** The payload fields given as flags; the others keep their example values. */
function payloadFlags(values: {
  'payment-id'?: string;
  'merchant-payment-id'?: string;
  amount?: string;
  reference?: string;
  metadata?: string;
  'error-description'?: string;
}): TestWebhookPayloadOverrides {
  const payload: TestWebhookPayloadOverrides = {};
  if (values['payment-id'] !== undefined) payload.paymentId = values['payment-id'];
  const merchantPaymentId = values['merchant-payment-id'];
  if (merchantPaymentId !== undefined) {
    payload.merchantPaymentId = merchantPaymentId === 'null' ? null : merchantPaymentId;
  }
  if (values.amount !== undefined) {
    const amount = Number(values.amount);
    if (values.amount.trim() === '' || !Number.isFinite(amount)) {
      throw new UsageError(`--amount must be a number such as 12.5, got "${values.amount}"`);
    }
    payload.amount = amount;
  }
  if (values.reference !== undefined) payload.reference = values.reference;
  if (values.metadata !== undefined) {
    let metadata: unknown;
    try {
      metadata = JSON.parse(values.metadata);
    } catch {
      throw new UsageError(`--metadata must be JSON, such as '{"orderId":1042}' or null`);
    }
    if (typeof metadata !== 'object' || Array.isArray(metadata)) {
      throw new UsageError('--metadata must be a JSON object or null');
    }
    payload.metadata = metadata as Record<string, unknown> | null;
  }
  if (values['error-description'] !== undefined) {
    payload.errorDescription = values['error-description'];
  }
  return payload;
}

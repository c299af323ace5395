/** `servicepay-sandbox rotate-key [--prepare]`: rehearses a key rotation on a running sandbox. */
import { askSandbox } from './client';
import type { CliIo } from './exit';
import { EXIT_OK } from './exit';
import { parse } from './parse';
import { ROTATE_OPTIONS } from './usage';

export async function rotateKeyCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, ROTATE_OPTIONS);
  const path = values.prepare ? '/keys/next' : '/keys/rotate';
  const keys = (await askSandbox(values.sandbox, path, {})).answer as Record<string, string>;
  io.out(values.prepare ? 'The next key:' : 'Rotated. The sandbox now signs with:');
  io.out(values.prepare ? String(keys.next) : String(keys.current));
  io.out(
    values.prepare
      ? 'Give your receiver both keys (publicKey: [current, next]), then: servicepay-sandbox rotate-key'
      : 'Once notifications verify, remove the previous key from your receiver.',
  );
  return EXIT_OK;
}

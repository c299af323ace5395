/**
 * The sandbox's signing key pair: RSA 2048, new at each start, or kept in a PEM file so that
 * receivers configured with the public key keep verifying across restarts.
 */
import { createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { SandboxConfigError } from '../api/errors';

const generateRsa = promisify(generateKeyPair);

export interface SandboxKeys {
  privateKey: KeyObject;
  /** The public key as a full SPKI PEM ("PUBLIC KEY"). */
  publicKeyPem: string;
  /** What `/.well-known/signature/pem` serves: the PEM without its BEGIN/END lines (spec 4.2). */
  publicKeyText: string;
}

/** A new key pair, or the one in `keyFile` (created there when the file does not exist). */
export async function loadKeys(keyFile?: string): Promise<SandboxKeys> {
  if (keyFile === undefined) return newKeys();
  let pem: string | undefined;
  try {
    pem = await readFile(keyFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SandboxConfigError(
        `the sandbox key file ${keyFile} could not be read (${(error as Error).message}).`,
        'keyFile',
      );
    }
  }
  if (pem === undefined) {
    const privateKey = await newPrivateKey();
    const written = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await mkdir(dirname(keyFile), { recursive: true });
    try {
      // 'wx': of two sandboxes started at once with the same file, one writes it and the
      // other reads the winner's key, so both sign with the same key.
      await writeFile(keyFile, written, { flag: 'wx', mode: 0o600 });
      return keysFrom(privateKey);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      pem = await readFile(keyFile, 'utf8');
    }
  }
  return keysFrom(parsePrivateKey(pem, keyFile));
}

/** A new key pair (a rotation's next key). */
export async function newKeys(): Promise<SandboxKeys> {
  return keysFrom(await newPrivateKey());
}

async function newPrivateKey(): Promise<KeyObject> {
  // Asynchronous: generating a 2048-bit key takes long enough to stall other servers in the
  // same process (a test runner, the example app).
  const { privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
  return privateKey;
}

function parsePrivateKey(pem: string, keyFile: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (cause) {
    throw new SandboxConfigError(
      `the sandbox key file ${keyFile} is not a PEM private key; delete it to have a new one generated.`,
      'keyFile',
      { cause },
    );
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new SandboxConfigError(
      `the sandbox key file ${keyFile} holds a ${key.asymmetricKeyType ?? 'non-RSA'} key; webhooks are signed SHA256withRSA, so it must be an RSA key.`,
      'keyFile',
    );
  }
  return key;
}

function keysFrom(privateKey: KeyObject): SandboxKeys {
  const publicKeyPem = createPublicKey(privateKey)
    .export({ type: 'spki', format: 'pem' })
    .toString();
  return { privateKey, publicKeyPem, publicKeyText: trimPemArmour(publicKeyPem) };
}

/** The base64 lines of a PEM, without the BEGIN/END lines and the final line break. */
export function trimPemArmour(pem: string): string {
  return pem
    .split(/\r?\n/)
    .filter((line) => line !== '' && !line.startsWith('-----'))
    .join('\n');
}

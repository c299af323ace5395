import { mkdir } from 'node:fs/promises';
import type { EngineName } from './page';

/** Screenshots for review, in a git-ignored folder, named by engine. */
const SHOTS = new URL('../../../artifacts/screenshots/engines/', import.meta.url);

export async function screenshotPath(engine: EngineName, name: string): Promise<string> {
  await mkdir(SHOTS, { recursive: true });
  return new URL(`${engine}-${name}.png`, SHOTS).pathname;
}

import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/**
 * The text of the QR code in a PNG (a browser's screenshot), as a phone's scanner would read
 * it: jsQR on the decoded pixels, dark-on-light only (the code must not need inverting), or
 * null when no code can be read.
 */
export function decodeQrFromPng(png: Buffer): string | null {
  const { data, width, height } = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
  return jsQR(pixels, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

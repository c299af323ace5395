import { correction, generate } from 'lean-qr/nano';

/**
 * A QR code as one SVG path: `size` modules a side, `d` the dark modules in module units,
 * from (0, 0) to (size, size). The quiet zone is the caller's (the view box around it).
 *
 * Error correction level M (about 15% of the code can be lost): a code on a screen is not
 * torn or smudged as a printed one is, so Q or H would only make the modules smaller (a
 * bigger version for the same address) and the code harder to scan from a screen's glare,
 * moiré and a phone held at an angle; L (7%) leaves too little for exactly those. lean-qr
 * still uses a higher level when the chosen version has room for it.
 *
 * Each run of dark modules in a row is one rectangle (`M{x} {y}h{n}v1h-{n}z`) rather than one
 * square per module: a third of the string for a typical address, and no seams between the
 * squares of a run where a renderer anti-aliases.
 * @throws Error (lean-qr's, with a `code`) when `text` is too long for any QR code: more than
 * about 2,300 bytes at level M.
 */
export function qrPath(text: string): { size: number; d: string } {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const { size } = code;
  let d = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!code.get(x, y)) continue;
      const start = x;
      // `get` is false past the edge, so the run ends there at the latest.
      while (code.get(x + 1, y)) x++;
      const n = x + 1 - start;
      d += `M${start} ${y}h${n}v1h-${n}z`;
    }
  }
  return { size, d };
}

/**
 * Deflating data that is already compressed (media, archives, encrypted or random bytes)
 * costs CPU and gains nothing. A byte-entropy estimate over a small sample tells such data
 * apart from text and most binaries cheaply: compressed data sits near 8 bits per byte.
 */
const SAMPLE_BYTES = 4096;
const STORE_ABOVE_BITS_PER_BYTE = 7.5;

export function looksIncompressible(data: Buffer): boolean {
  const n = Math.min(data.length, SAMPLE_BYTES);
  if (n < 512) return false; // too little to judge; deflating it is cheap anyway
  const counts = new Uint32Array(256);
  for (let i = 0; i < n; i++) counts[data[i]]++;
  let bits = 0;
  for (let b = 0; b < 256; b++) {
    const c = counts[b];
    if (c) {
      const p = c / n;
      bits -= p * Math.log2(p);
    }
  }
  return bits > STORE_ABOVE_BITS_PER_BYTE;
}

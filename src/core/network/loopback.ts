/** This machine: `localhost`, `::1` and 127.0.0.0/8, also written as IPv4-mapped IPv6. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  // 127.0.0.0/8 written as IPv4-mapped IPv6 (URL parsing turns ::ffff:127.0.0.1 into ::ffff:7f00:1).
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h)) return true;
  const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(h);
  if (mapped) return isLoopbackHost(mapped[1]);
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((p) => Number(p) <= 255);
}

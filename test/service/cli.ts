// `npm run service [-- --port N --data-dir D --scan-duration-ms N --processing-ms N --shapes seed|real --lists security,quality,dependency --gone --tls-dir D]`: runs the reference
// service until SIGINT/SIGTERM and prints where it listens and a demo token.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { makeTestCa } from '../network/testCa';
import { startReferenceService } from './index';
import { LIST_IDS, type ListId } from './types';

function intOption(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) {
    console.error(`--${name} must be a non-negative integer, got "${v}"`);
    process.exit(2);
  }
  return Number(v);
}

function shapesOption(v: string | undefined): 'seed' | 'real' | undefined {
  if (v === undefined || v === 'seed' || v === 'real') return v;
  console.error(`--shapes must be "seed" (the spec's examples) or "real" (shapes real answers show), got "${v}"`);
  process.exit(2);
}

function listsOption(v: string | undefined): ListId[] | undefined {
  if (v === undefined) return undefined;
  const lists = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = lists.filter((l) => !(LIST_IDS as readonly string[]).includes(l));
  if (!bad.length) return lists as ListId[];
  console.error(`--lists takes ${LIST_IDS.join(', ')} (comma-separated), got "${bad.join(', ')}"`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'scan-duration-ms': { type: 'string' },
      'processing-ms': { type: 'string' },
      shapes: { type: 'string' },
      lists: { type: 'string' },
      gone: { type: 'boolean' },
      'tls-dir': { type: 'string' },
    },
  });
  // --tls-dir D: make a test certificate authority in D and serve HTTPS with a certificate it signed.
  const ca = values['tls-dir'] ? makeTestCa(join(values['tls-dir'])) : undefined;
  const svc = await startReferenceService({
    port: intOption(values.port, 'port'),
    host: values.host,
    dataDir: values['data-dir'],
    scanDurationMs: intOption(values['scan-duration-ms'], 'scan-duration-ms'),
    processingMs: intOption(values['processing-ms'], 'processing-ms'),
    shapes: shapesOption(values.shapes),
    lists: listsOption(values.lists),
    gone: values.gone,
    tls: ca ? { cert: ca.cert, key: ca.key } : undefined,
  });
  // One write, so a reader never sees half of the banner.
  process.stdout.write([
    `base_url: ${svc.baseUrl}`,
    `admin: ${svc.adminUrl}`,
    `token: ${svc.demoToken}`,
    `data_dir: ${svc.dataDir}`,
    ...(ca && svc.tlsPort ? [`tls_port: ${svc.tlsPort}`, `ca_file: ${ca.caFile}`] : []),
  ].join('\n') + '\n');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    svc.close().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
  console.error(`reference service failed to start: ${(e as Error).message}`);
  process.exit(1);
});

// Small real archives for upload tests, built with archiver (the same library the
// extension uses), fully in memory.
import { ZipArchive, TarArchive } from 'archiver';

export const FIXTURE_FILES: Record<string, string> = {
  'src/app.js': [
    "const input = process.argv[2];",
    "// evaluating user input",
    "const result = eval(input);",
    "console.log('debug result', result);",
    '',
  ].join('\n'),
  'src/settings.py': ['import os', '', 'password = "hunter2-hardcoded"', 'print("debug", os.getcwd())', ''].join('\n'),
  'README.md': '# demo\n',
};

export async function buildArchive(kind: 'zip' | 'tar', files: Record<string, string> = FIXTURE_FILES): Promise<Buffer> {
  const archive = kind === 'zip' ? new ZipArchive({ zlib: { level: 6 } }) : new TarArchive();
  const chunks: Buffer[] = [];
  archive.on('data', (d: Buffer) => chunks.push(d));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  for (const [name, text] of Object.entries(files)) archive.append(Buffer.from(text), { name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

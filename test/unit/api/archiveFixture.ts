// Small real archives for upload tests, built in memory with archiver (the same library
// the extension uses) by the service tests' helper.
import { buildArchive as buildArchiveOf } from '../service/wire';

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

/** A zip or tar of the fixture files (by default), built in memory. */
export function buildArchive(kind: 'zip' | 'tar', files: Record<string, string> = FIXTURE_FILES): Promise<Buffer> {
  return buildArchiveOf(kind, files);
}

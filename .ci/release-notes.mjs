#!/usr/bin/env node
// The release notes of a version: its section of CHANGELOG.md (from its `## <version>`
// heading to the next one), printed for the release. Refuses a version with no section, or
// one still marked unreleased, so a tag never ships notes of the wrong version or none.
// Usage: node .ci/release-notes.mjs <version> [CHANGELOG.md]
import { readFileSync } from 'node:fs';

export function releaseNotes(changelog, version) {
  const lines = changelog.split(/\r?\n/);
  const start = lines.findIndex((l) => new RegExp(`^## \\[?v?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`).test(l));
  if (start < 0) throw new Error(`CHANGELOG.md has no section "## ${version}": add the release's notes there first.`);
  if (/unreleased/i.test(lines[start])) throw new Error(`CHANGELOG.md's section for ${version} still says "unreleased": give it the release date first.`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end).join('\n').trim();
  if (!body) throw new Error(`CHANGELOG.md's section for ${version} is empty.`);
  return body;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [version, file = 'CHANGELOG.md'] = process.argv.slice(2);
  if (!version) {
    console.error('usage: node .ci/release-notes.mjs <version> [CHANGELOG.md]');
    process.exit(2);
  }
  try {
    process.stdout.write(`${releaseNotes(readFileSync(file, 'utf8'), version)}\n`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}

// The dependency (SCA) engine: reads the manifests of an archive (npm package.json, Python
// requirements files and pyproject.toml, Maven pom.xml, Go go.mod) and reports each package
// a small table of advisories knows to be vulnerable at the version asked for, or malicious.
// Real advisories, so what the demo shows is true of those versions.

export interface Advisory {
  ecosystem: 'npm' | 'PyPI' | 'Maven' | 'Go';
  /** As the manifest names it (Maven: `group:artifact`, Go: the module path). */
  name: string;
  /** Vulnerable below this version (exclusive); malicious advisories name exact versions instead. */
  fixedIn?: string;
  versions?: string[];
  cve?: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  malicious?: boolean;
  description: string;
  details: string;
}

export const ADVISORIES: readonly Advisory[] = [
  {
    ecosystem: 'npm', name: 'lodash', fixedIn: '4.17.21', cve: 'CVE-2021-23337', severity: 'high',
    description: 'Command Injection in lodash',
    details: 'lodash versions before 4.17.21 are vulnerable to command injection through the template function.',
  },
  {
    ecosystem: 'npm', name: 'minimist', fixedIn: '1.2.6', cve: 'CVE-2021-44906', severity: 'critical',
    description: 'Prototype Pollution in minimist',
    details: 'minimist before 1.2.6 lets crafted arguments add properties to Object.prototype (setKey).',
  },
  {
    ecosystem: 'npm', name: 'event-stream', versions: ['3.3.6'], severity: 'critical', malicious: true,
    description: 'Malicious code in event-stream',
    details: 'event-stream 3.3.6 depends on flatmap-stream, which carried code that stole cryptocurrency wallets.',
  },
  {
    ecosystem: 'PyPI', name: 'requests', fixedIn: '2.31.0', cve: 'CVE-2023-32681', severity: 'medium',
    description: 'Unintended leak of Proxy-Authorization header in requests',
    details: 'requests before 2.31.0 sends Proxy-Authorization headers to the destination server when redirected to HTTPS.',
  },
  {
    ecosystem: 'PyPI', name: 'pyyaml', fixedIn: '5.4', cve: 'CVE-2020-14343', severity: 'critical',
    description: 'Arbitrary code execution in PyYAML',
    details: 'PyYAML before 5.4 runs arbitrary code when it loads untrusted YAML with full_load or FullLoader.',
  },
  {
    ecosystem: 'Maven', name: 'org.apache.logging.log4j:log4j-core', fixedIn: '2.17.1', cve: 'CVE-2021-44832', severity: 'medium',
    description: 'Remote code execution in Apache Log4j',
    details: 'Log4j 2 before 2.17.1 can run code through a JDBC Appender whose data source an attacker controls.',
  },
  {
    ecosystem: 'Go', name: 'golang.org/x/text', fixedIn: '0.3.8', cve: 'CVE-2022-32149', severity: 'high',
    description: 'Denial of service in golang.org/x/text/language',
    details: 'golang.org/x/text before 0.3.8 spends unbounded time parsing a crafted Accept-Language header.',
  },
];

/** A package a manifest asks for: its name, the version asked for and the ecosystem. */
export interface Requirement { ecosystem: Advisory['ecosystem']; name: string; version: string }

export interface DependencyMatch { requirement: Requirement; advisory: Advisory; path: string }

const MANIFEST = /(^|\/)(package\.json|requirements[^/]*\.(txt|in)|pyproject\.toml|pom\.xml|go\.mod)$/i;

/** Whether the engine reads this file (below node_modules and vendor folders nothing is a manifest of the project). */
export function isManifest(path: string): boolean {
  return MANIFEST.test(path) && !/(^|\/)(node_modules|vendor)\//.test(path);
}

function parts(v: string): number[] {
  return v.replace(/^v/, '').split(/[.+-]/).map((p) => Number.parseInt(p, 10)).map((n) => (Number.isFinite(n) ? n : 0));
}

/** Dotted versions compared number by number. */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** The version a spec asks for at least (`^1.2.0`, `~1.2`, `==1.2`, `>=1.2`, `v1.2.0`), when it is plain. */
function versionOf(spec: string): string | undefined {
  const m = /^\s*(\^|~|==|>=|~=|=|===)?\s*(v?\d+(\.\d+)*)\s*$/.exec(spec);
  return m?.[2];
}

function requirements(path: string, text: string): Requirement[] {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const out: Requirement[] = [];
  if (base === 'package.json') {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return [];
    }
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      const deps = json[field];
      if (!deps || typeof deps !== 'object') continue;
      for (const [name, spec] of Object.entries(deps as Record<string, unknown>)) {
        const version = typeof spec === 'string' ? versionOf(spec) : undefined;
        if (version) out.push({ ecosystem: 'npm', name, version });
      }
    }
  } else if (base.startsWith('requirements') || base === 'pyproject.toml') {
    for (const m of text.matchAll(/([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(==|>=|~=)\s*([0-9][0-9.]*)/g)) {
      out.push({ ecosystem: 'PyPI', name: m[1]!.toLowerCase().replace(/[-_.]+/g, '-'), version: m[4]! });
    }
  } else if (base === 'pom.xml') {
    for (const m of text.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
      const g = /<groupId>\s*([^<\s]+)\s*<\/groupId>/.exec(m[1]!)?.[1];
      const a = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(m[1]!)?.[1];
      const v = /<version>\s*([^<\s$]+)\s*<\/version>/.exec(m[1]!)?.[1];
      if (g && a && v) out.push({ ecosystem: 'Maven', name: `${g}:${a}`, version: v });
    }
  } else if (base === 'go.mod') {
    for (const m of text.matchAll(/^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]{2,}\/[^\s]+)\s+(v\d+[^\s]*)/gm)) {
      out.push({ ecosystem: 'Go', name: m[1]!, version: m[2]!.replace(/^v/, '') });
    }
  }
  return out;
}

/** Every advisory a manifest's requirements fall under. */
export function scanManifest(path: string, text: string): DependencyMatch[] {
  if (!isManifest(path)) return [];
  const found: DependencyMatch[] = [];
  for (const requirement of requirements(path, text)) {
    for (const advisory of ADVISORIES) {
      if (advisory.ecosystem !== requirement.ecosystem || advisory.name !== requirement.name) continue;
      const hit = advisory.versions ? advisory.versions.includes(requirement.version) : compareVersions(requirement.version, advisory.fixedIn!) < 0;
      if (hit) found.push({ requirement, advisory, path });
    }
  }
  return found;
}

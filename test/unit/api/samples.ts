// Valid resource samples (as the spec's tables describe them) for schema tests.
export function sampleIssue() {
  return {
    id: '3f1b7a52-6a3e-4c8e-9a77-2a4c1d1e0b11',
    classification: { id: 'CWE-95', name: 'Eval injection', description: 'Use of eval on dynamic input.' },
    urgency: 'critical',
    created_at: '2026-11-21T10:00:00.123456+00:00',
    status: 'open',
    sla_status: 'on_track',
    location: {
      file: { name: 'app.js', language: 'javascript', path: 'src/app.js' },
      project: { name: 'demo', branch: 'main', git_sha: 'abc123' },
      line_number: 12,
    },
    auto_triage: { false_positive_detection: { status: 'valid', reasoning: 'Reachable from user input.' } },
    auto_fix_suggestion: {
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      status: 'fix_available',
      patch: { diff: '--- a/src/app.js\n+++ b/src/app.js\n@@ -1 +1 @@\n-eval(x)\n+JSON.parse(x)\n', explanation: 'Parse instead of eval.' },
    },
    assigned_to: { id: '7', email: 'dev@example.com', name: 'Dev' },
    scanner_metadata: { rule: 'js-eval' },
    reachability: { is_reachable: true, endpoint_count: 2 },
  };
}

export function samplePolicy() {
  return {
    id: 5,
    name: 'No eval',
    description: 'Never call eval.',
    guidance_text: 'Use JSON.parse.',
    cwes: ['CWE-95'],
    excludes: ['test/**'],
    projects: ['demo'],
    company: 1,
    active: true,
    approved: true,
    approved_by: 3,
    created_at: '2026-11-01T00:00:00Z',
    glob_pattern: '**/*.js',
    source_type: 'Web',
    repo_policy_file: 9,
    version: 2,
    archived: false,
    parent_policy: 4,
    read_only: false,
    created_by_corgea: false,
  };
}

export function sampleTeam() {
  return {
    id: 1,
    name: 'Platform',
    active: true,
    members: [{ id: 10, email: 'a@example.com', first_name: 'Ada', last_name: 'Lovelace' }],
    project_ids: [1, 2],
    project_tags: ['web'],
    repo_url_patterns: ['github.com/acme/*'],
    project_count: 2,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
  };
}

export function sampleIntegration() {
  return {
    id: 3,
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    type: 'github',
    name: 'GitHub',
    account_id: '42',
    account_name: 'acme',
    org_allowlist: ['acme'],
    base_url: 'https://api.github.com',
    gateway_prefix: '',
    expired: false,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-02T00:00:00Z',
  };
}

// The reference service's rule engine: each rule fires where it should and not elsewhere,
// and every fix is a one-file unified diff that applies with `diff` and removes the finding.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyPatch, parsePatch } from 'diff';
import { scanSource } from '../../service/rules';

interface FixCase {
  name: string;
  path: string;
  source: string;
  rule: string;
  line: number;
  /** Text the fixed file must contain. */
  fixedHas?: string;
}

const FIX_CASES: FixCase[] = [
  {
    name: 'JS eval of a variable becomes JSON.parse',
    path: 'src/handler.js',
    source: "function h(req) {\n  const body = req.body;\n  const data = eval(body);\n  return data;\n}\n",
    rule: 'js-eval', line: 3, fixedHas: 'const data = JSON.parse(body);',
  },
  {
    name: 'TS hard-coded apiKey property reads the environment',
    path: 'src/config.ts',
    source: "export const config = {\n  region: 'eu',\n  apiKey: 'AKIA1234567890SECRET',\n};\n",
    rule: 'hardcoded-credentials', line: 3, fixedHas: 'apiKey: process.env.API_KEY,',
  },
  {
    name: 'Python hard-coded password reads os.environ and imports os',
    path: 'app/db.py',
    source: '"""Database access."""\nimport json\n\nDB_PASSWORD = "s3cr3t-pass"\n\n\ndef connect():\n    return json.dumps({})\n',
    rule: 'hardcoded-credentials', line: 4, fixedHas: 'import os\nimport json\n\nDB_PASSWORD = os.environ["DB_PASSWORD"]',
  },
  {
    name: 'TS annotated variable',
    path: 'src/db.ts',
    source: "import { connect } from './db';\n\nconst dbPassword: string = 'Pa55word!';\nconnect(dbPassword);\n",
    rule: 'hardcoded-credentials', line: 3, fixedHas: 'const dbPassword: string = process.env.DB_PASSWORD;',
  },
  {
    name: 'Python annotated variable, os already imported',
    path: 'svc/settings.py',
    source: 'import os\n\nSECRET_KEY: str = "django-insecure-123456"\nDEBUG = os.environ.get("DEBUG")\n',
    rule: 'hardcoded-credentials', line: 3, fixedHas: 'import os\n\nSECRET_KEY: str = os.environ["SECRET_KEY"]\n',
  },
  {
    name: 'console.log line is removed',
    path: 'web/index.js',
    source: "export function f(a) {\n  const b = a + 1;\n  console.log('b is', b);\n  return b;\n}\n",
    rule: 'js-console-debug', line: 3,
  },
  {
    name: 'debugger statement is removed',
    path: 'web/page.tsx',
    source: "export function Page() {\n  debugger;\n  return null;\n}\n",
    rule: 'js-debugger', line: 2,
  },
  {
    name: 'loose equality becomes strict',
    path: 'lib/cmp.js',
    source: "module.exports = function same(a, b) {\n  if (a == b && a != 0) return true;\n  return false;\n};\n",
    rule: 'js-loose-equality', line: 2, fixedHas: 'if (a === b && a !== 0) return true;',
  },
  {
    name: 'Python print line is removed',
    path: 'tool/run.py',
    source: 'def run(x):\n    y = x * 2\n    print("y", y)\n    return y\n',
    rule: 'py-print-debug', line: 3,
  },
  {
    name: 'Python print alone in a block becomes pass',
    path: 'tool/only.py',
    source: 'def run(x):\n    if x:\n        print("x")\n    return x\n',
    rule: 'py-print-debug', line: 3, fixedHas: '    if x:\n        pass\n',
  },
  {
    name: 'bare except catches Exception',
    path: 'tool/safe.py',
    source: 'def safe(f):\n    try:\n        return f()\n    except:\n        return None\n',
    rule: 'py-bare-except', line: 4, fixedHas: '    except Exception:\n',
  },
  {
    name: 'Python eval becomes ast.literal_eval after the docstring',
    path: 'tool/parse.py',
    source: '"""Parse things."""\n\n\ndef parse(text):\n    return eval(text)\n',
    rule: 'py-eval', line: 5, fixedHas: '"""Parse things."""\nimport ast\n',
  },
  {
    name: 'CRLF file keeps CRLF line endings',
    path: 'src/win.js',
    source: "const a = 1;\r\nconsole.log(a);\r\nmodule.exports = a;\r\n",
    rule: 'js-console-debug', line: 2,
  },
  {
    name: 'file without a final newline',
    path: 'src/nofinal.js',
    source: 'const x = 1;\ndebugger;\nexport default x;',
    rule: 'js-debugger', line: 2,
  },
];

describe('reference rule engine: fixes', () => {
  for (const c of FIX_CASES) {
    it(c.name, () => {
      const findings = scanSource(c.path, c.source);
      const f = findings.find((x) => x.ruleId === c.rule && x.line === c.line);
      assert.ok(f, `expected ${c.rule} at line ${c.line}, got ${JSON.stringify(findings.map((x) => [x.ruleId, x.line]))}`);
      assert.ok(f.fix, 'the finding has a fix');
      const patches = parsePatch(f.fix.diff);
      assert.equal(patches.length, 1, 'one file per diff');
      assert.equal(patches[0].oldFileName, `a/${c.path}`);
      assert.equal(patches[0].newFileName, `b/${c.path}`);
      assert.ok(f.fix.diff.startsWith(`--- a/${c.path}\n+++ b/${c.path}\n@@ `), f.fix.diff);
      for (const h of patches[0].hunks) {
        const leading = h.lines.findIndex((l) => !l.startsWith(' '));
        // Three lines of context before the change unless the file starts sooner.
        assert.equal(leading, Math.min(3, h.oldStart - 1 + leading), `context lines in\n${f.fix.diff}`);
        if (h.oldStart > 1) assert.equal(leading, 3);
      }
      const fixed = applyPatch(c.source, f.fix.diff);
      assert.equal(typeof fixed, 'string', `patch applies:\n${f.fix.diff}`);
      const after = fixed as string;
      if (c.fixedHas) assert.ok(after.includes(c.fixedHas), `fixed file contains ${JSON.stringify(c.fixedHas)}:\n${after}`);
      if (c.source.includes('\r\n')) assert.ok(!/[^\r]\n/.test(after), 'no bare LF introduced');
      const before = findings.filter((x) => x.ruleId === c.rule).length;
      const remaining = scanSource(c.path, after).filter((x) => x.ruleId === c.rule).length;
      assert.equal(remaining, before - 1, 'the fix removes exactly this finding');
      assert.ok(f.fix.explanation.length > 10);
    });
  }
});

describe('reference rule engine: detection', () => {
  const cases: { name: string; path: string; source: string; rule: string; expect: number }[] = [
    { name: 'eval inside a comment', path: 'a.js', source: '// eval(x) is bad\n/* eval(y) */\n', rule: 'js-eval', expect: 0 },
    { name: 'eval inside a string', path: 'a.js', source: "const s = 'eval(x)';\n", rule: 'js-eval', expect: 0 },
    { name: 'method named eval', path: 'a.js', source: 'engine.eval(code);\n', rule: 'js-eval', expect: 0 },
    { name: 'eval of code text has no fix but is found', path: 'a.js', source: "eval('1 + ' + n);\n", rule: 'js-eval', expect: 1 },
    { name: '== null is the null-or-undefined idiom', path: 'a.ts', source: 'if (x == null || y != undefined) {}\n', rule: 'js-loose-equality', expect: 0 },
    { name: 'strict equality', path: 'a.ts', source: 'if (x === 1 && y !== 2) {}\nconst f = (a) => a;\n', rule: 'js-loose-equality', expect: 0 },
    { name: 'password compared, not assigned', path: 'a.js', source: "if (password == 'hunter22') {}\n", rule: 'hardcoded-credentials', expect: 0 },
    { name: 'password read from the environment', path: 'a.js', source: 'const password = process.env.PASSWORD;\n', rule: 'hardcoded-credentials', expect: 0 },
    { name: 'placeholder value', path: 'a.py', source: 'password = "<your password>"\napi_key = "changeme"\n', rule: 'hardcoded-credentials', expect: 0 },
    { name: 'secret-looking text inside a comment', path: 'a.py', source: '# password = "hunter22"\n', rule: 'hardcoded-credentials', expect: 0 },
    { name: 'quoted JSON-style key', path: 'a.js', source: 'const c = { "client_secret": "abcd-efgh-1234" };\n', rule: 'hardcoded-credentials', expect: 1 },
    { name: 'print inside a docstring', path: 'a.py', source: 'def f():\n    """\n    print("x")\n    """\n', rule: 'py-print-debug', expect: 0 },
    { name: 'except with a type', path: 'a.py', source: 'try:\n    pass\nexcept ValueError:\n    pass\n', rule: 'py-bare-except', expect: 0 },
    { name: 'shell=True with an f-string', path: 'a.py', source: 'import subprocess\nsubprocess.run(f"ls {d}", shell=True)\n', rule: 'py-shell-injection', expect: 1 },
    { name: 'exec with a template literal', path: 'a.js', source: "const { exec } = require('child_process');\nexec(`rm -rf ${dir}`);\n", rule: 'js-command-injection', expect: 1 },
    { name: 'Math.random for a token', path: 'a.js', source: 'const token = Math.random().toString(36);\n', rule: 'js-weak-random', expect: 1 },
    { name: 'Math.random for a layout', path: 'a.js', source: 'const x = Math.random() * width;\n', rule: 'js-weak-random', expect: 0 },
    { name: 'RegExp exec is not a command', path: 'a.js', source: 'const m = /x/.exec(`a${b}`);\n', rule: 'js-command-injection', expect: 0 },
    { name: 'not a source file', path: 'README.md', source: 'eval(x)\npassword = "hunter22"\n', rule: 'js-eval', expect: 0 },
    { name: 'binary content', path: 'bin.js', source: 'eval(x)\u0000\u0001', rule: 'js-eval', expect: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = scanSource(c.path, c.source).filter((f) => f.ruleId === c.rule);
      assert.equal(got.length, c.expect, JSON.stringify(got.map((f) => f.snippet)));
    });
  }

  it('findings in test files are triaged as false positives, others as valid', () => {
    const src = 'const token = "tok_live_abcdef123456";\nconsole.log(token);\n';
    for (const [path, status] of [['src/a.js', 'valid'], ['test/a.js', 'false_positive'], ['src/a.test.js', 'false_positive']] as const) {
      const fs = scanSource(path, src);
      assert.ok(fs.length >= 2);
      for (const f of fs) assert.equal(f.triage.status, status, `${path} ${f.ruleId}`);
    }
  });

  it('a non-fixable finding has no diff; columns and lines are 1-based', () => {
    const [f] = scanSource('x.py', 'import os\nos.system("rm " + path)\n');
    assert.equal(f.ruleId, 'py-shell-injection');
    assert.equal(f.fix, undefined);
    assert.equal(f.line, 2);
    assert.equal(f.column, 1);
  });
});

describe('reference rule engine: the sample project\'s fixes a model may write', () => {
  const source = "function newSession(userId) {\n  const sessionToken = Math.random().toString(36).slice(2);\n  debugger; // new session\n  return { userId, sessionToken };\n}\n";
  const fixOf = (rule: string) => {
    const f = scanSource('src/session.js', source).find((x) => x.ruleId === rule);
    assert.ok(f?.fix, `${rule} has a fix`);
    const fixed = applyPatch(source, f.fix.diff);
    assert.equal(typeof fixed, 'string');
    return scanSource('src/session.js', fixed as string);
  };

  it('the weak random token\'s fix applies and leaves its finding', () => {
    const after = fixOf('js-weak-random');
    assert.equal(after.filter((x) => x.ruleId === 'js-weak-random').length, 1);
  });

  it('the breakpoint\'s fix removes it and adds a loose equality finding on its line', () => {
    const after = fixOf('js-debugger');
    assert.equal(after.filter((x) => x.ruleId === 'js-debugger').length, 0);
    assert.deepEqual(after.filter((x) => x.ruleId === 'js-loose-equality').map((x) => x.line), [3]);
    assert.notEqual(after.find((x) => x.ruleId === 'js-loose-equality')!.classification.id, scanSource('src/session.js', source).find((x) => x.ruleId === 'js-debugger')!.classification.id, 'another classification: a new finding, not the old one');
  });

  it('a breakpoint without a comment is still removed, adding nothing', () => {
    const plain = source.replace(' // new session', '');
    const f = scanSource('a.js', plain).find((x) => x.ruleId === 'js-debugger')!;
    const after = scanSource('a.js', applyPatch(plain, f.fix!.diff) as string);
    assert.equal(after.filter((x) => x.ruleId === 'js-debugger' || x.ruleId === 'js-loose-equality').length, 0);
  });
});

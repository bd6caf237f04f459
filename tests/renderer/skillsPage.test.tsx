import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, SkillCatalogView, SkillDetail, SkillView } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { App } from '../../src-renderer/src/App';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const skill = (name: string, source: SkillView['source'], extra: Partial<SkillView> = {}): SkillView => ({
  name,
  description: `Use ${name} when it fits.`,
  source,
  dir: `/skills/${source}/${name}`,
  enabled: true,
  license: 'MIT',
  languages: ['python'],
  requires: { python: [], r: [], env: null },
  sidecar: null,
  sha256: 'a'.repeat(64),
  ...extra,
});

/** A small in-memory backend for the skills routes, as main's catalogue answers them. */
function skillsBackend() {
  const skills = [
    skill('insulin-quicklook', 'bundled', { requires: { python: ['biopython', 'matplotlib'], r: [], env: null } }),
    skill('my-notes', 'user'),
    skill('lab-protocols', 'folder', { enabled: false }),
  ];
  const catalog = (): SkillCatalogView => ({
    skills: skills.map((s) => ({ ...s })),
    broken: [{ dir: '/data/skills/half-done', source: 'user', reason: 'SKILL.md has no "description" in its frontmatter.' }],
    shadowed: [
      { name: 'insulin-quicklook', kept: { source: 'bundled', dir: '/app/skills/insulin-quicklook' }, dropped: { source: 'user', dir: '/data/skills/insulin-quicklook' } },
    ],
    userDir: '/data/skills',
  });
  const detail = (name: string): SkillDetail => {
    const found = skills.find((s) => s.name === name)!;
    return { ...found, body: `# ${name} body\n\nStep one.`, files: ['scripts/run.py'] };
  };
  return (route: string, input: unknown): Envelope<unknown> => {
    const args = input as { name: string; enabled?: boolean; description?: string };
    switch (route) {
      case 'session.list':
        return { ok: true, data: [] };
      case 'skills.list':
        return { ok: true, data: catalog() };
      case 'skills.get':
        return { ok: true, data: detail(args.name) };
      case 'skills.setEnabled':
        skills.find((s) => s.name === args.name)!.enabled = args.enabled!;
        return { ok: true, data: catalog() };
      case 'skills.create':
        if (skills.some((s) => s.name === args.name))
          return { ok: false, error: { code: 'conflict', message: `A skill named "${args.name}" already exists; choose another name.` } };
        skills.push(skill(args.name, 'user', { description: args.description! }));
        return { ok: true, data: detail(args.name) };
      case 'skills.reveal':
        return { ok: true, data: { revealed: false, path: `/skills/x/${args.name}` } };
      default:
        return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
    }
  };
}

function renderSkills() {
  const api = fakeBridgeApi(skillsBackend());
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Skills' }));
  return { api, store };
}

const row = (name: string) => document.querySelector<HTMLElement>(`[data-testid="skill-row"][data-skill="${name}"]`)!;

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('Skills page', () => {
  it('lists every skill with its source badge and switch, and what could not be read or was hidden', async () => {
    renderSkills();
    await screen.findByTestId('skill-list');
    expect(screen.getAllByTestId('skill-row').map((r) => [r.dataset.skill, within(r).getByTestId('skill-source').textContent, r.dataset.enabled])).toEqual([
      ['insulin-quicklook', 'bundled', 'true'],
      ['my-notes', 'yours', 'true'],
      ['lab-protocols', 'folder', 'false'],
    ]);
    expect((screen.getByRole('switch', { name: 'Use lab-protocols' }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('switch', { name: 'Use my-notes' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('skills-broken').textContent).toContain('SKILL.md has no "description"');
    expect(screen.getByTestId('skills-broken').textContent).toContain('/data/skills/half-done');
    const shadowed = screen.getByTestId('skills-shadowed').textContent;
    expect(shadowed).toContain('insulin-quicklook in /app/skills/insulin-quicklook is used; this copy is hidden:');
    expect(shadowed).toContain('/data/skills/insulin-quicklook');
  });

  it('shows the selected skill’s SKILL.md rendered, its declared requirements and files; Open folder says where it is', async () => {
    const { api } = renderSkills();
    await screen.findByTestId('skill-list');
    fireEvent.click(within(row('insulin-quicklook')).getByText('insulin-quicklook'));
    const detail = await screen.findByTestId('skill-detail');
    // The markdown renderer is lazy: the heading appears once it has loaded.
    expect((await within(detail).findByRole('heading', { name: 'insulin-quicklook body' }, { timeout: 5000 })).tagName).toBe('H1');
    expect(within(detail).getByTestId('skill-requires').textContent).toContain('biopython, matplotlib');
    expect(detail.textContent).toContain('scripts/run.py');
    fireEvent.click(within(detail).getByRole('button', { name: 'Open folder' }));
    await screen.findByText('/skills/x/insulin-quicklook');
    expect(api.calls.filter((c) => c.route === 'skills.reveal')).toEqual([{ route: 'skills.reveal', input: { name: 'insulin-quicklook' } }]);
  });

  it('switches a skill off and on through skills.setEnabled', async () => {
    const { api, store } = renderSkills();
    await screen.findByTestId('skill-list');
    fireEvent.click(screen.getByRole('switch', { name: 'Use my-notes' }));
    await waitFor(() => expect(row('my-notes').dataset.enabled).toBe('false'));
    fireEvent.click(screen.getByRole('switch', { name: 'Use lab-protocols' }));
    await waitFor(() => expect(row('lab-protocols').dataset.enabled).toBe('true'));
    expect(api.calls.filter((c) => c.route === 'skills.setEnabled').map((c) => c.input)).toEqual([
      { name: 'my-notes', enabled: false },
      { name: 'lab-protocols', enabled: true },
    ]);
    expect(store.getState().skills.data!.skills.filter((s) => s.enabled).map((s) => s.name)).toEqual(['insulin-quicklook', 'lab-protocols']);
  });

  it('creates a skill from a name and one sentence, shows a conflict, and selects the new one', async () => {
    const { api } = renderSkills();
    await screen.findByTestId('skill-list');
    fireEvent.click(screen.getByTestId('new-skill'));
    const form = screen.getByTestId('new-skill-form');
    expect(form.textContent).toContain('/data/skills');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'my-notes' } });
    fireEvent.change(within(form).getByLabelText('When to use it, in one sentence'), { target: { value: 'Use for lab notes.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('already exists');

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'gel-images' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByTestId('new-skill-form')).toBeNull());
    await waitFor(() => expect(row('gel-images')).not.toBeNull());
    expect(row('gel-images').className).toContain('active');
    expect(screen.getByTestId('skill-detail').dataset.skill).toBe('gel-images');
    expect(api.calls.filter((c) => c.route === 'skills.create').map((c) => c.input)).toEqual([
      { name: 'my-notes', description: 'Use for lab notes.' },
      { name: 'gel-images', description: 'Use for lab notes.' },
    ]);
  });
});

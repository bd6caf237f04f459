import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, SkillCatalogView, SkillView } from '../../src-preload/contract';
import { mentionedSkills } from '../../src-main/core/skills/mentions';
import { bridge } from '../../src-renderer/src/api/bridge';
import { App } from '../../src-renderer/src/App';
import {
  attachedSkills,
  insertMention,
  matchSkills,
  mentionAt,
  removeMention,
} from '../../src-renderer/src/components/composer/skillMention';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const skill = (name: string, enabled = true): SkillView => ({
  name,
  description: `About ${name}.`,
  source: 'bundled',
  dir: `/skills/${name}`,
  enabled,
  license: null,
  languages: [],
  requires: { python: [], r: [], env: null },
  sidecar: null,
  sha256: '0'.repeat(64),
});

const CATALOG: SkillCatalogView = {
  skills: [skill('insulin-quicklook'), skill('protein-properties'), skill('sequence-alignment'), skill('single-cell-basics', false)],
  broken: [],
  shadowed: [],
  userDir: '/data/skills',
};

function renderComposer() {
  const api = fakeBridgeApi((route): Envelope<unknown> => {
    if (route === 'session.list') return { ok: true, data: [] };
    if (route === 'skills.list') return { ok: true, data: CATALOG };
    return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
  });
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
  const box = screen.getByTestId('composer-input') as HTMLTextAreaElement;
  // Typing: the value changes and the caret is at its end (jsdom puts it there).
  const type = (value: string) => fireEvent.change(box, { target: { value } });
  const key = (k: string) => fireEvent.keyDown(box, { key: k });
  const options = () => within(screen.getByTestId('skill-picker')).queryAllByRole('option');
  const activeName = () => options().find((o) => o.getAttribute('aria-selected') === 'true')?.dataset.skill;
  return { api, store, box, type, key, options, activeName };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('@ skill picker in the composer', () => {
  it('opens on @ with the enabled skills, filters as you type, moves with up/down and inserts with Enter', async () => {
    const { api, store, box, type, key, options, activeName } = renderComposer();
    type('Compare these @');
    await waitFor(() => expect(options().map((o) => o.dataset.skill)).toEqual(['insulin-quicklook', 'protein-properties', 'sequence-alignment']));
    expect(api.calls.filter((c) => c.route === 'skills.list')).toHaveLength(1);
    expect(activeName()).toBe('insulin-quicklook');
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[0]!.id);

    key('ArrowDown');
    expect(activeName()).toBe('protein-properties');
    key('ArrowDown');
    key('ArrowDown');
    expect(activeName()).toBe('insulin-quicklook');
    key('ArrowUp');
    expect(activeName()).toBe('sequence-alignment');

    type('Compare these @pro');
    expect(options().map((o) => o.dataset.skill)).toEqual(['protein-properties']);
    key('Enter');
    expect(store.getState().draft).toBe('Compare these @protein-properties ');
    expect(screen.queryByTestId('skill-picker')).toBeNull();
    // Enter chose the skill; it did not send the message.
    expect(api.calls.some((c) => c.route === 'session.create' || c.route === 'run.submit')).toBe(false);
    expect(screen.getAllByTestId('skill-chip').map((c) => c.dataset.skill)).toEqual(['protein-properties']);
  });

  it('closes on Escape for that @ only, says when nothing matches, and a click inserts too', async () => {
    const { store, type, key, options } = renderComposer();
    type('@');
    await waitFor(() => expect(options()).toHaveLength(3));
    key('Escape');
    expect(screen.queryByTestId('skill-picker')).toBeNull();
    type('@s');
    expect(screen.queryByTestId('skill-picker')).toBeNull();

    type('@s and @zzz');
    expect(screen.getByTestId('skill-picker').textContent).toBe('No enabled skill matches “zzz”.');
    type('@s and @sin');
    // Disabled skills are not offered.
    expect(screen.getByTestId('skill-picker').textContent).toBe('No enabled skill matches “sin”.');
    type('@s and @seq');
    fireEvent.click(options()[0]!);
    expect(store.getState().draft).toBe('@s and @sequence-alignment ');
    expect(screen.queryByTestId('skill-picker')).toBeNull();
  });

  it('shows an attached skill as a chip whose button removes it from the message', async () => {
    const { store, type } = renderComposer();
    type('Use @insulin-quicklook, then @sequence-alignment and @single-cell-basics.');
    await waitFor(() => expect(screen.getAllByTestId('skill-chip').map((c) => c.dataset.skill)).toEqual(['insulin-quicklook', 'sequence-alignment']));
    fireEvent.click(screen.getByRole('button', { name: 'Remove insulin-quicklook' }));
    expect(store.getState().draft).toBe('Use , then @sequence-alignment and @single-cell-basics.');
    expect(screen.getAllByTestId('skill-chip').map((c) => c.dataset.skill)).toEqual(['sequence-alignment']);
  });
});

describe('@ mentions (pure)', () => {
  it('finds the @word before the caret, not an e-mail address', () => {
    expect(mentionAt('see @ins', 8)).toEqual({ start: 4, query: 'ins' });
    expect(mentionAt('(@', 2)).toEqual({ start: 1, query: '' });
    expect(mentionAt('me@ins', 6)).toBeNull();
    expect(mentionAt('@ins done', 9)).toBeNull();
  });

  it('inserts @name and one space, replacing the rest of the word being typed', () => {
    expect(insertMention('see @in now', 4, 7, 'insulin-quicklook')).toEqual({ text: 'see @insulin-quicklook now', caret: 23 });
    expect(insertMention('see @in', 4, 7, 'insulin-quicklook')).toEqual({ text: 'see @insulin-quicklook ', caret: 23 });
    expect(insertMention('@inxx', 0, 3, 'insulin-quicklook')).toEqual({ text: '@insulin-quicklook ', caret: 19 });
  });

  it('removes a mention and matches names by prefix first', () => {
    expect(removeMention('a @x-y b @x-y.', 'x-y')).toBe('a b .');
    expect(matchSkills([{ name: 'b-protein' }, { name: 'protein-x' }], 'prot').map((s) => s.name)).toEqual(['protein-x', 'b-protein']);
  });

  it('agrees with main on which skills a message attaches', () => {
    const known = ['insulin-quicklook', 'a-b', 'c', 'd', 'e', 'f', 'g'];
    for (const text of [
      'Use @insulin-quicklook and @insulin-quicklook, mail me@insulin-quicklook or @alice.',
      '(@a-b) then @c.',
      '@c @d @e @f @g @a-b',
      '@insulin-quicklookx @a-b-',
    ])
      expect(attachedSkills(text, known), text).toEqual(mentionedSkills(text, known));
  });
});

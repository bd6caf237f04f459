import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolUIPart } from '../../src-preload/contract';
import { ToolCard } from '../../src-renderer/src/components/parts/ToolCard';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { bridge } from '../../src-renderer/src/api/bridge';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 21: the Science Navigator's answer streams into its tool card (preliminary output).
afterEach(() => cleanup());

function renderCard(part: ToolUIPart) {
  window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(
    <StoreProvider store={store}>
      <ToolCard part={part} />
    </StoreProvider>,
  );
}

describe('a tool card with a streaming answer', () => {
  it('shows the preliminary text as it grows, open and still running', () => {
    renderCard({ type: 'tool-science_navigator', toolCallId: 'c1', state: 'output-available', preliminary: true, input: { question: 'q' }, output: { status: 'streaming', text: '## CRISPR in 2024\n\nBase editing...', references: 1 } });
    const card = screen.getByTestId('tool-card');
    expect(card.getAttribute('data-state')).toBe('input-available');
    expect(card.hasAttribute('open')).toBe(true);
    expect(screen.getByTestId('tool-output-text').textContent).toContain('Base editing...');
    expect(screen.queryByTestId('tool-output')).toBeNull();
  });

  it('once final, shows the text and the structured output', () => {
    renderCard({ type: 'tool-science_navigator', toolCallId: 'c1', state: 'output-available', input: { question: 'q' }, output: { sessionId: 's', answers: [], text: 'Final answer.' } });
    expect(screen.getByTestId('tool-card').getAttribute('data-state')).toBe('output-available');
    expect(screen.getByTestId('tool-output-text').textContent).toContain('Final answer.');
    expect(screen.getByTestId('tool-output').textContent).toContain('sessionId');
  });
});

import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope } from '../../src-preload/contract';
import type { ComputeTargetView } from '../../src-preload/contract/compute';
import { bridge } from '../../src-renderer/src/api/bridge';
import { ComputeTargetsSection } from '../../src-renderer/src/components/settings/ComputeTargetsSection';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 23: Settings → Compute lists the targets, adds one from its JSON, shows main's refusal of a password.

afterEach(() => cleanup());

describe('Compute targets section', () => {
  it('adds a target from JSON, shows the refusal of one with a password, and removes one', async () => {
    const targets: ComputeTargetView[] = [{ name: 'box', kind: 'ssh', host: 'gpu1', where: 'gpu1' }];
    window.openai4s = fakeBridgeApi((route, input): Envelope<unknown> => {
      const i = input as { target?: Record<string, unknown>; name?: string };
      switch (route) {
        case 'compute.targets':
          return { ok: true, data: [...targets] };
        case 'compute.targets.save':
          if ('password' in i.target!) return { ok: false, error: { code: 'invalid_input', message: 'A compute target must not hold a key, password or token.' } };
          targets.push({ ...(i.target as unknown as ComputeTargetView), where: 'this machine' });
          return { ok: true, data: [...targets] };
        case 'compute.targets.remove':
          targets.splice(targets.findIndex((t) => t.name === i.name), 1);
          return { ok: true, data: [...targets] };
        default:
          return { ok: false, error: { code: 'unknown_route', message: route } };
      }
    });
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
    render(
      <StoreProvider store={store}>
        <ComputeTargetsSection />
      </StoreProvider>,
    );
    expect((await screen.findByTestId('compute-target-list')).textContent).toContain('box ssh · gpu1');
    const input = screen.getByTestId('compute-target-input');
    fireEvent.change(input, { target: { value: 'not json' } });
    fireEvent.click(screen.getByTestId('compute-target-save'));
    expect((await screen.findByTestId('compute-target-error')).textContent).toMatch(/Paste one target as a JSON object/);
    fireEvent.change(input, { target: { value: '{"name": "x", "kind": "ssh", "host": "h", "password": "p"}' } });
    fireEvent.click(screen.getByTestId('compute-target-save'));
    await waitFor(() => expect(screen.getByTestId('compute-target-error').textContent).toMatch(/must not hold a key, password or token/));
    fireEvent.change(input, { target: { value: '{"name": "here", "kind": "slurm"}' } });
    fireEvent.click(screen.getByTestId('compute-target-save'));
    await waitFor(() => expect(screen.getByTestId('compute-target-list').textContent).toContain('here slurm · this machine'));
    expect(screen.queryByTestId('compute-target-error')).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]!);
    await waitFor(() => expect(screen.getByTestId('compute-target-list').textContent).not.toContain('box'));
  });
});

import type { EndpointChoice } from '../config/providers';
import type { SettingsRepo } from '../ledger/settingsRepo';

/** The settings-table keys of one provider's chosen base URL and model. */
const keyOf = (providerId: string, field: 'baseUrl' | 'model') => `provider.${providerId}.${field}`;

/**
 * The base URL and model chosen for each provider in Settings or the setup form, in the
 * ledger's settings table (they are not secrets). Variables still win over them
 * (config/providers.ts), as they do over a stored key.
 */
export class ProviderEndpoints {
  constructor(private readonly repo: () => SettingsRepo) {}

  /** The choice for one provider; null when none, or while the ledger cannot be read (the catalogue's defaults apply). */
  get(providerId: string): EndpointChoice | null {
    try {
      const repo = this.repo();
      const baseUrl = repo.get<unknown>(keyOf(providerId, 'baseUrl'));
      const model = repo.get<unknown>(keyOf(providerId, 'model'));
      // A hand-edited row of another shape is ignored, not crashed on.
      const choice: EndpointChoice = {
        ...(typeof baseUrl === 'string' && baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
        ...(typeof model === 'string' && model.trim() ? { model: model.trim() } : {}),
      };
      return choice.baseUrl || choice.model ? choice : null;
    } catch {
      return null;
    }
  }

  /** Sets what the patch names: a value stores it, null clears it back to the catalogue's, absent leaves it. */
  set(providerId: string, patch: { baseUrl?: string | null; model?: string | null }): void {
    const repo = this.repo();
    for (const field of ['baseUrl', 'model'] as const) {
      const value = patch[field];
      if (value === undefined) continue;
      if (value === null || !value.trim()) repo.remove(keyOf(providerId, field));
      else repo.set(keyOf(providerId, field), field === 'baseUrl' ? value.trim().replace(/\/+$/, '') : value.trim());
    }
  }
}

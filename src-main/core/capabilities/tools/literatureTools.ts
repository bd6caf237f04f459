import type { EvidenceStore } from '../../records/evidenceStore';
import { registerSecrets } from '../../security/secrets';
import { BRAVE_KEY_VAR } from './webSearch';
import { NAVIGATOR_BASE_VAR, NAVIGATOR_KEY_VAR } from '../../science/navigator/client';
import type { Tool } from '../define';
import { navigatorTool } from './navigatorTools';
import { PDFTOTEXT_VAR, readPdfTool } from './pdfTools';
import { openAccessTool } from './openAccessTool';

/** The id the Bohrium access key is stored under in the app's secret store (Settings). */
export const NAVIGATOR_SECRET_ID = 'bohrium';

export interface LiteratureToolDeps {
  /** Configuration: the real environment over the data root's .env. */
  env: (name: string) => string | undefined;
  /** A key stored in Settings, if the host keeps secrets. */
  storedKey?: (id: string) => string | null;
  evidence: () => EvidenceStore;
}

/**
 * The literature capabilities (issue 21), all found on demand: the Science Navigator,
 * read_pdf and fetch_open_access.
 * Their stores open on first use.
 */
export function literatureTools(deps: LiteratureToolDeps): Tool[] {
  // The configured key is a secret from the start (a .env value is not named like one in the
  // process environment): scrubbed from every log and stored error even before its first use.
  registerSecrets([deps.env(NAVIGATOR_KEY_VAR), deps.env(BRAVE_KEY_VAR)]);
  const storedKey = () => {
    try {
      return deps.storedKey?.(NAVIGATOR_SECRET_ID) ?? null;
    } catch {
      // A locked or unavailable secret store holds no key we could use.
      return null;
    }
  };
  return [
    navigatorTool({
      key: () => deps.env(NAVIGATOR_KEY_VAR)?.trim() || storedKey(),
      baseUrl: () => deps.env(NAVIGATOR_BASE_VAR),
      evidence: deps.evidence,
    }),
    readPdfTool({ evidence: deps.evidence, pdftotext: () => deps.env(PDFTOTEXT_VAR)?.trim() ?? '' }),
    openAccessTool({ env: deps.env, evidence: deps.evidence }),
  ];
}

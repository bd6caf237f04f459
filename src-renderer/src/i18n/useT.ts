import { useCallback } from 'react';
import { useAppStore } from '../store/context';
import { translate, type Params } from './language';
import type { MessageKey } from './messages';

/** `t(key, params)` in the current language; re-renders when the language changes. */
export function useT() {
  const language = useAppStore((s) => s.language);
  return useCallback(
    (key: MessageKey, params?: Params) => translate(language, key, params),
    [language],
  );
}

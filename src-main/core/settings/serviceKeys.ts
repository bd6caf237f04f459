/**
 * Keys of services other than model providers that Settings may store in the secret
 * store, under their id. The environment variable wins over the stored key when both are set.
 */
export interface ServiceKeySpec {
  id: string;
  label: string;
  envVar: string;
}

export const SERVICE_KEYS: readonly ServiceKeySpec[] = [{ id: 'bohrium', label: 'Bohrium Science Navigator', envVar: 'OPENAI4S_BOHRIUM_ACCESS_KEY' }];

export const isServiceKeyId = (id: string): boolean => SERVICE_KEYS.some((s) => s.id === id);

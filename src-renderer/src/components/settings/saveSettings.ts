import type { SettingsPatch } from '../../store/types';

/** How a section saves a change; the page shows the error of a failed save. */
export type SaveSettings = (patch: SettingsPatch) => Promise<void>;

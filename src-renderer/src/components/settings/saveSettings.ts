import type { SettingsSlice } from '../../store/settingsSlice';

/** A settings change as the sections send it; the page shows the error of a failed save. */
export type SettingsPatch = Parameters<SettingsSlice['updateSettings']>[0];
export type SaveSettings = (patch: SettingsPatch) => Promise<void>;

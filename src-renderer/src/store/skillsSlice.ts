import { toErrorBody } from '../api/bridge';
import { errorNotice } from './noticesReducer';
import { createLoader, idle } from './loadable';
import type { Slice, SkillsSlice, StoreDeps } from './types';

/**
 * The Skills page: the catalogue (skills, broken and shadowed ones), the selected skill's
 * SKILL.md, the enabled switches, "new skill" and "open folder".
 */
export const createSkillsSlice =
  (deps: StoreDeps): Slice<SkillsSlice> =>
  (set, get) => {
    const catalogue = createLoader<SkillsSlice['skills']>((change) =>
      set((s) => ({ skills: change(s.skills) })),
    );
    const detail = createLoader<SkillsSlice['skill']>((change) =>
      set((s) => ({ skill: change(s.skill) })),
    );
    const notify = (error: unknown) =>
      get().receiveNotice(errorNotice(error));

    return {
      skills: idle(null),
      skill: { ...idle(null), name: null },
      loadSkills: () => catalogue(() => deps.bridge.invoke('skills.list', {})),
      ensureSkills() {
        if (get().skills.status === 'idle') void get().loadSkills();
      },

      async selectSkill(name) {
        if (!name) {
          set({ skill: { ...idle(null), name: null } });
          return;
        }
        // Another skill's text never stays on screen under this one's name.
        await detail(
          () => deps.bridge.invoke('skills.get', { name }),
          (field) => (field.name === name ? field : { ...field, name, data: null }),
        );
      },

      async setSkillEnabled(name, enabled) {
        try {
          const view = await deps.bridge.invoke('skills.setEnabled', { name, enabled });
          set((s) => ({
            skills: { status: 'ready', data: view, error: null },
            skill:
              s.skill.data?.name === name
                ? { ...s.skill, data: { ...s.skill.data, enabled } }
                : s.skill,
          }));
        } catch (error) {
          notify(error);
        }
      },

      async createSkill(name, description) {
        try {
          const created = await deps.bridge.invoke('skills.create', { name, description });
          set({ skill: { status: 'ready', data: created, error: null, name: created.name } });
          await get().loadSkills();
          return null;
        } catch (error) {
          return toErrorBody(error);
        }
      },

      async revealSkill(name) {
        try {
          const { revealed, path } = await deps.bridge.invoke('skills.reveal', { name });
          // Without a file manager (a browser, a headless run) the path is the next best thing.
          if (!revealed) get().receiveNotice({ level: 'info', message: path });
        } catch (error) {
          notify(error);
        }
      },
    };
  };

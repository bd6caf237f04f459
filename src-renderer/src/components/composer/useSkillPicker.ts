import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SkillView } from '../../../../src-preload/contract';
import { useAppStore } from '../../store/context';
import { insertMention, matchSkills, mentionAt } from './skillMention';

const NONE: SkillView[] = [];

export interface SkillPickerState {
  /** An `@word` is being typed (and was not dismissed with Escape). */
  open: boolean;
  query: string;
  options: SkillView[];
  active: number;
  listId: string;
  optionId(index: number): string;
  choose(name: string): void;
  /** Call from the textarea's change and select events: the picker follows the caret. */
  track(box: HTMLTextAreaElement): void;
  /** Call first from the textarea's keydown; true when the picker used the key. */
  onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
}

/**
 * The `@` picker's state: typing `@` in the message box lists the enabled skills,
 * filtered by what follows; up/down move, Enter or Tab inserts `@name `, Escape closes.
 */
export function useSkillPicker(
  box: RefObject<HTMLTextAreaElement | null>,
  text: string,
  setText: (text: string) => void,
): SkillPickerState {
  const enabled = useAppStore(
    useShallow((s) => s.skills.data?.skills.filter((k) => k.enabled) ?? NONE),
  );
  const ensureSkills = useAppStore((s) => s.ensureSkills);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const pendingCaret = useRef<number | null>(null);
  const listId = useId();

  const mention = caret === null ? null : mentionAt(text, caret);
  const open = mention !== null && mention.start !== dismissed;
  const options = open ? matchSkills(enabled, mention.query) : NONE;

  useEffect(() => {
    if (open) ensureSkills();
  }, [open, ensureSkills]);
  useEffect(() => setActive(0), [mention?.start, mention?.query]);
  // Escape closes the picker for this `@` only: the next one opens it again.
  useEffect(() => {
    if (!mention) setDismissed(null);
  }, [mention]);
  // After an insertion the caret goes after `@name `, once React has written the text.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !box.current) return;
    pendingCaret.current = null;
    box.current.setSelectionRange(at, at);
  }, [text, box]);

  const choose = (name: string) => {
    if (!mention || caret === null) return;
    const next = insertMention(text, mention.start, caret, name);
    pendingCaret.current = next.caret;
    setCaret(next.caret);
    setText(next.text);
  };

  return {
    open,
    query: mention?.query ?? '',
    options,
    active,
    listId,
    optionId: (index) => `${listId}-${index}`,
    choose,
    track(el) {
      setCaret(el.selectionStart === el.selectionEnd ? el.selectionStart : null);
    },
    onKeyDown(e) {
      if (!open || !mention || e.nativeEvent.isComposing) return false;
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(mention.start);
        return true;
      }
      if (options.length === 0) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + options.length) % options.length);
        return true;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) {
        e.preventDefault();
        choose(options[Math.min(active, options.length - 1)]!.name);
        return true;
      }
      return false;
    },
  };
}

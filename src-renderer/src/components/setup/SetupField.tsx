import { useId, type ReactElement } from 'react';
import { cloneElement } from 'react';

/** A labelled input of the setup form with a hint under it (the hint describes the input). */
export function SetupField({ label, hint, testId, children }: { label: string; hint: string | null; testId: string; children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'data-testid'?: string }> }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="setup-field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, 'data-testid': testId, ...(hint ? { 'aria-describedby': hintId } : {}) })}
      {hint ? (
        <p id={hintId} className="muted small">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

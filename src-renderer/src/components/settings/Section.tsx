import type { ReactNode } from 'react';

/** One card of the Settings page: a title, an optional note, its controls. */
export function Section({
  title,
  note,
  children,
  testId,
}: {
  title: string;
  note?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="card settings-section" data-testid={testId}>
      <header className="card-head">
        <h2>{title}</h2>
      </header>
      {note ? <p className="muted small settings-note">{note}</p> : null}
      {children}
    </section>
  );
}

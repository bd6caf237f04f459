import type { ReactNode } from 'react';

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

export function Pill({
  tone,
  children,
  testId,
}: {
  tone: Tone;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <span className={`pill pill-${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

/** One labelled value of a card. `mono` for paths and versions, which must be copyable as is. */
export function Field({
  label,
  children,
  mono,
  testId,
}: {
  label: string;
  children: ReactNode;
  mono?: boolean;
  testId?: string;
}) {
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd className={mono ? 'mono' : undefined} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function Card({
  title,
  status,
  children,
  testId,
}: {
  title: string;
  status?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="card" data-testid={testId}>
      <header className="card-head">
        <h2>{title}</h2>
        {status}
      </header>
      <dl className="fields">{children}</dl>
    </section>
  );
}

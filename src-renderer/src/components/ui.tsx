import type { ButtonHTMLAttributes, ReactNode } from 'react';

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

/** A page's heading: the title (its `id` labels the page's section), a line under it, and actions on the right. */
export function PageHead({ id, title, subtitle, actions }: { id: string; title: string; subtitle: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-head">
      <div>
        <h1 id={id}>{title}</h1>
        <p className="muted">{subtitle}</p>
      </div>
      {actions}
    </header>
  );
}

/** A button showing only an icon: its label is both its accessible name and its tooltip. */
export function IconButton({ label, className, ...rest }: { label: string } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'aria-label' | 'title'>) {
  return <button type="button" className={className ? `icon-btn ${className}` : 'icon-btn'} aria-label={label} title={label} {...rest} />;
}

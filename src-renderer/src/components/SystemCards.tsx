import type { DoctorReport, PythonReport } from '../../../src-preload/contract';
import { useT } from '../i18n/useT';
import { sandboxGapText } from './parts/kernelText';
import { Card, Field, Pill, type Tone } from './ui';

const PACKAGES = ['numpy', 'pandas', 'matplotlib'] as const;

/** A version, or "not found" with its reason, in one place. */
function Version({
  value,
  reason,
  warning,
  testId,
}: {
  value: string | null;
  reason?: string | undefined;
  /** Shown beside a value that is there but not usable (a Python too old for the kernels). */
  warning?: string | undefined;
  testId?: string;
}) {
  const t = useT();
  if (value) {
    return (
      <span data-testid={testId}>
        {value}
        {warning ? <span className="reason error-text">{warning}</span> : null}
      </span>
    );
  }
  return (
    <span className="missing" data-testid={testId}>
      {t('system.notFound')}
      {reason ? <span className="reason">{reason}</span> : null}
    </span>
  );
}

export function AppCard({ report }: { report: DoctorReport }) {
  const t = useT();
  return (
    <Card title={t('system.app.title')} testId="card-app">
      <Field label={t('system.app.version')} mono testId="app-version">
        {report.version}
      </Field>
      <Field label={t('system.dataDir')} testId="data-dir">
        <span className="mono">{report.dataDir}</span>
        <span className="sub">
          {t(report.dataDirSource === 'env' ? 'system.dataDir.env' : 'system.dataDir.default')}
        </span>
      </Field>
      <Field label={t('system.app.platform')} mono>
        {report.platform} / {report.arch}
      </Field>
      <Field label={t('system.app.node')} mono testId="node-version">
        {report.node}
      </Field>
      <Field label={t('system.app.electron')} testId="electron-version">
        {report.electron ? (
          <span className="mono">{report.electron}</span>
        ) : (
          <span className="muted">{t('system.app.electronNone')}</span>
        )}
      </Field>
    </Card>
  );
}

function pythonTone(p: PythonReport): Tone {
  // No interpreter, or one the kernels cannot run on (its reason says why).
  if (!p.path || !p.version || p.reason) return 'bad';
  return PACKAGES.every((name) => p.packages[name]) ? 'ok' : 'warn';
}

export function PythonCard({ python }: { python: PythonReport }) {
  const t = useT();
  const tone = pythonTone(python);
  return (
    <Card
      title={t('system.python.title')}
      testId="card-python"
      status={
        <Pill tone={tone}>
          {python.version ? `Python ${python.version}` : t('system.notFound')}
        </Pill>
      }
    >
      <Field label={t('system.path')} testId="python-path">
        {python.path ? (
          <span className="mono">{python.path}</span>
        ) : (
          <span className="missing">{t('system.notFound')}</span>
        )}
        <span className="sub">
          {t('system.python.source')}: {t(`system.python.source.${python.source}`)}
        </span>
      </Field>
      <Field label={t('system.version')} mono testId="python-version">
        <Version value={python.version} reason={python.reason} warning={python.version ? python.reason : undefined} />
      </Field>
      <Field label={t('system.packages')}>
        <ul className="packages">
          {PACKAGES.map((name) => (
            <li key={name}>
              <span
                className={`dot ${python.packages[name] ? 'dot-ok' : 'dot-bad'}`}
                aria-hidden="true"
              />
              <span className="pkg-name">{name}</span>
              <span className="mono">
                <Version
                  value={python.packages[name]}
                  reason={python.packageReasons?.[name]}
                  testId={`python-${name}`}
                />
              </span>
            </li>
          ))}
        </ul>
      </Field>
    </Card>
  );
}

export function RCard({ report }: { report: DoctorReport }) {
  const t = useT();
  const r = report.r;
  const tone: Tone = !r || !r.version ? 'bad' : r.jsonlite ? 'ok' : 'warn';
  return (
    <Card
      title={t('system.r.title')}
      testId="card-r"
      status={<Pill tone={tone}>{r?.version ? `R ${r.version}` : t('system.notFound')}</Pill>}
    >
      {r ? (
        <>
          <Field label={t('system.path')} mono testId="r-path">
            {r.path}
          </Field>
          <Field label={t('system.version')} mono>
            <Version value={r.version} reason={r.reason} />
          </Field>
          <Field label="jsonlite" mono testId="r-jsonlite">
            <Version value={r.jsonlite} reason={r.version ? r.reason : undefined} />
          </Field>
        </>
      ) : (
        <Field label={t('system.reason')} testId="r-reason">
          {report.rReason ?? t('system.r.absent')}
        </Field>
      )}
    </Card>
  );
}

export function SandboxCard({ report }: { report: DoctorReport }) {
  const t = useT();
  const s = report.sandbox;
  const tone: Tone = s.available
    ? 'ok'
    : s.mode === 'off'
      ? 'neutral'
      : s.mode === 'enforce'
        ? 'bad'
        : 'warn';
  return (
    <Card
      title={t('system.sandbox.title')}
      testId="card-sandbox"
      status={
        <Pill tone={tone}>
          {s.available ? t('system.sandbox.available') : t('system.notFound')}
        </Pill>
      }
    >
      <Field label={t('system.sandbox.backend')} testId="sandbox-backend">
        <span className="mono">{s.backend}</span>
        {s.version ? <span className="mono sub-inline">{s.version}</span> : null}
        {s.path ? <span className="sub mono">{s.path}</span> : null}
      </Field>
      <Field label={t('system.sandbox.available')} testId="sandbox-available">
        {s.available ? t('system.yes') : t('system.no')}
      </Field>
      <Field label={t('system.sandbox.mode')} testId="sandbox-mode">
        {t(`system.sandbox.mode.${s.mode}`)}
      </Field>
      {s.reason || s.gap ? (
        <Field label={t('system.reason')} testId="sandbox-reason">
          {sandboxGapText(t, s)}
        </Field>
      ) : null}
    </Card>
  );
}

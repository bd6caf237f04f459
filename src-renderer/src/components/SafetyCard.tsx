import type { DoctorReport } from '../../../src-preload/contract';
import { useT } from '../i18n/useT';
import { Card, Field, Pill } from './ui';

type Layer = NonNullable<DoctorReport['safety']>['biosecurity'];

/** How the layer is set, in the window's language; main's English summary when it did not say how. */
function layerSetting(layer: Layer, t: ReturnType<typeof useT>): string {
  if (!layer.setting) return layer.summary;
  const where = t(layer.source === 'env' ? 'system.safety.where.env' : 'system.safety.where.dotenv');
  return t(`system.safety.setting.${layer.setting}`, { variable: layer.variable, value: layer.value ?? '', where });
}

function LayerField({ label, layer, testId }: { label: string; layer: Layer; testId: string }) {
  const t = useT();
  return (
    <Field label={label} testId={testId}>
      <Pill tone={layer.on ? 'ok' : 'bad'}>{layer.on ? t('system.safety.on') : t('system.safety.off')}</Pill>
      <span className="sub">{layerSetting(layer, t)}</span>
    </Field>
  );
}

/**
 * The posture of the safety layers of issue 27: biosecurity screening and the review of
 * cells before they run. Both are on unless a variable turns them off, and an off layer is
 * shown as a problem, with the variable that did it.
 */
export function SafetyCard({ report }: { report: DoctorReport }) {
  const t = useT();
  const safety = report.safety;
  if (!safety) return null;
  const allOn = safety.biosecurity.on && safety.cellReview.on;
  return (
    <Card title={t('system.safety.title')} testId="card-safety" status={<Pill tone={allOn ? 'ok' : 'warn'}>{allOn ? t('system.safety.allOn') : t('system.safety.someOff')}</Pill>}>
      <LayerField label={t('system.safety.biosecurity')} layer={safety.biosecurity} testId="safety-biosecurity" />
      <LayerField label={t('system.safety.cellReview')} layer={safety.cellReview} testId="safety-cell-review" />
      {safety.cellReview.reviewer ? (
        <Field label={t('system.safety.reviewer')} testId="safety-reviewer">
          {safety.cellReview.reviewerPath ? t('system.safety.reviewerAst', { path: safety.cellReview.reviewerPath }) : safety.cellReview.reviewer}
        </Field>
      ) : null}
    </Card>
  );
}

import type { EvidenceRecord } from '../../../../src-preload/contract/evidence';
import { evidenceLabel } from '../../../../src-preload/contract/evidenceLabel';
import type { Params } from '../../i18n/language';
import type { MessageKey } from '../../i18n/messages';

type Translate = (key: MessageKey, params?: Params) => string;

const CELL_STATUSES = new Set(['ok', 'error', 'interrupted', 'died']);

/**
 * A cell run's name in the window's language ("Python cell 1 (ok)", "Python 单元 1（成功）"),
 * from its envelope; null for other records, and for a cell record without those fields
 * (its stored title, written in English by the core, is shown then).
 */
function cellName(record: Pick<EvidenceRecord, 'kind' | 'envelope'>, t: Translate): string | null {
  const env = record.envelope ?? {};
  if (record.kind !== 'cell' || typeof env.cell_number !== 'number' || typeof env.status !== 'string' || !CELL_STATUSES.has(env.status)) return null;
  return t('evidence.cellName', { language: env.language === 'r' ? 'R' : 'Python', n: env.cell_number, status: t(`cell.status.${env.status}` as MessageKey) });
}

/** A cell run's status in the window's language (成功, error…); a status this window has no word for as stored. */
export function cellStatusText(status: string, t: Translate): string {
  return CELL_STATUSES.has(status) ? t(`cell.status.${status}` as MessageKey) : status;
}

/** A citation chip's label: a cell run named in the window's language, any other record as `evidenceLabel` names it. */
export function evidenceChipLabel(record: Pick<EvidenceRecord, 'kind' | 'title' | 'envelope'>, t: Translate): string {
  return cellName(record, t) ?? evidenceLabel(record);
}

/** An evidence card's title: a cell run named in the window's language, any other record's stored title. */
export function evidenceTitle(record: Pick<EvidenceRecord, 'kind' | 'title' | 'envelope'>, t: Translate): string {
  return cellName(record, t) ?? record.title;
}

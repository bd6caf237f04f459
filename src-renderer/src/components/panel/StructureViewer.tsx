import { useEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../../i18n/useT';
import '../../styles/structure.css';
import { applyView, parseResidue, pdbResidues, type MolViewer, type ResidueFocus, type StructureColour, type StructureStyle } from './structureScene';

/** True when this window can create a WebGL context (SwiftShader counts; a blocked GPU may not). */
export function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

const STYLES: readonly StructureStyle[] = ['cartoon', 'stick', 'surface'];
const COLOURS: readonly StructureColour[] = ['spectrum', 'chain', 'residue', 'hydrophobicity'];

/** The chain ids of a PDB file's ATOM records (column 22), in file order; none for mmCIF. */
export function pdbChains(text: string, format: 'pdb' | 'cif'): string[] {
  if (format !== 'pdb') return [];
  const chains = new Set<string>();
  for (const line of text.split('\n')) if (line.startsWith('ATOM') && line.length > 21 && line[21]!.trim()) chains.add(line[21]!);
  return [...chains];
}

/**
 * An interactive 3D view of a PDB or mmCIF structure with 3Dmol.js (loaded on demand:
 * it is large): cartoon, sticks or surface, coloured along the chain, by chain, by residue
 * type or by hydrophobicity, zoomed on one chain or one residue, fullscreen; ligands as sticks. Without WebGL the file is
 * shown as text with a note saying why.
 */
export function StructureViewer({ text, format }: { text: string; format: 'pdb' | 'cif' }) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const mol = useRef<{ viewer: MolViewer; surface: unknown } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'nowebgl' | 'error'>(() =>
    hasWebGL() ? 'loading' : 'nowebgl',
  );
  const [error, setError] = useState<string | null>(null);
  const [style, setStyle] = useState<StructureStyle>('cartoon');
  const [colour, setColour] = useState<StructureColour>('spectrum');
  const [chain, setChain] = useState<string | null>(null);
  const chains = useMemo(() => pdbChains(text, format), [text, format]);
  const residues = useMemo(() => (format === 'pdb' ? pdbResidues(text) : new Set<string>()), [text, format]);
  const [residueInput, setResidueInput] = useState('');
  const parsed = residueInput.trim() ? parseResidue(residueInput, residues) : null;
  const residue: ResidueFocus | null = parsed && !('error' in parsed) ? parsed : null;
  const residueKey = residue ? `${residue.chain ?? ''}:${residue.resi}` : '';

  useEffect(() => {
    if (state !== 'ready' || !mol.current) return;
    applyView(mol.current.viewer, mol.current.surface, { style, colour, chain, residue });
    // `residueKey` stands for `residue` (a new object on every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, style, colour, chain, residueKey]);

  useEffect(() => {
    if (state === 'nowebgl' || !host.current) return;
    let disposed = false;
    let viewer: { clear(): void } | null = null;
    void import('3dmol')
      .then((lib) => {
        if (disposed || !host.current) return;
        const v = lib.createViewer(host.current, { backgroundColor: 'white', antialias: true });
        v.addModel(text, format);
        mol.current = { viewer: v as unknown as MolViewer, surface: lib.SurfaceType.VDW };
        applyView(mol.current.viewer, mol.current.surface, { style: 'cartoon', colour: 'spectrum', chain: null, residue: null });
        viewer = v;
        setState('ready');
      })
      .catch((e: unknown) => {
        if (disposed) return;
        setError(e instanceof Error ? e.message : String(e));
        setState('error');
      });
    return () => {
      disposed = true;
      mol.current = null;
      viewer?.clear();
    };
    // `state` is read only to skip when WebGL is missing; re-running on its change would rebuild the viewer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, format]);

  if (state === 'nowebgl' || state === 'error') {
    return (
      <div className="structure-fallback" data-testid="structure-fallback">
        <p className="note">{state === 'error' ? t('structure.viewerFailed', { message: error ?? '' }) : t('panel.artifacts.webglMissing')}</p>
        <pre className="code-block">{text.slice(0, 20_000)}</pre>
      </div>
    );
  }
  return (
    <div ref={frame} className="structure-frame" data-testid="structure-frame">
      <div className="structure-controls small" data-testid="structure-controls">
        <select aria-label={t('structure.style')} data-testid="structure-style" value={style} onChange={(e) => setStyle(e.target.value as StructureStyle)}>
          {STYLES.map((s) => (
            <option key={s} value={s}>
              {t(`structure.style.${s}`)}
            </option>
          ))}
        </select>
        <select aria-label={t('structure.colour')} data-testid="structure-colour" value={colour} onChange={(e) => setColour(e.target.value as StructureColour)}>
          {COLOURS.map((c) => (
            <option key={c} value={c}>
              {t(`structure.colour.${c}`)}
            </option>
          ))}
        </select>
        {chains.length > 1 ? (
          <select aria-label={t('structure.focus')} data-testid="structure-chain" value={chain ?? ''} onChange={(e) => setChain(e.target.value || null)}>
            <option value="">{t('structure.allChains')}</option>
            {chains.map((c) => (
              <option key={c} value={c}>
                {t('structure.chain', { chain: c })}
              </option>
            ))}
          </select>
        ) : null}
        {residues.size ? (
          <input
            className="structure-residue mono"
            data-testid="structure-residue"
            aria-label={t('structure.residue')}
            placeholder={t('structure.residuePlaceholder')}
            aria-invalid={parsed !== null && 'error' in parsed}
            value={residueInput}
            onChange={(e) => setResidueInput(e.target.value)}
          />
        ) : null}
        <button type="button" className="btn btn-ghost" data-testid="structure-fullscreen" onClick={() => void frame.current?.requestFullscreen?.()}>
          {t('structure.fullscreen')}
        </button>
      </div>
      {parsed && 'error' in parsed ? (
        <p className="small error-text" role="alert" data-testid="structure-residue-error">
          {parsed.error === 'ambiguous'
            ? t('structure.residueAmbiguous', { choices: (parsed.choices ?? []).join(', ') })
            : t(parsed.error === 'missing' ? 'structure.residueMissing' : 'structure.residueFormat', { input: residueInput.trim() })}
        </p>
      ) : null}
      <div
        ref={host}
        className="structure-viewer"
        data-testid="structure-viewer"
        data-state={state}
        data-style={style}
        data-colour={colour}
        data-chain={chain ?? ''}
        data-residue={residueKey}
        role="img"
        aria-label={`3D ${format.toUpperCase()}`}
      />
    </div>
  );
}

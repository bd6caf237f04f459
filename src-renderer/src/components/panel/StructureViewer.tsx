import { useEffect, useRef, useState } from 'react';
import { useT } from '../../i18n/useT';

/** True when this window can create a WebGL context (SwiftShader counts; a blocked GPU may not). */
export function hasWebGL(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return Boolean(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

/**
 * An interactive 3D view of a PDB or mmCIF structure with 3Dmol.js (loaded on demand:
 * it is large). Cartoon coloured along the chain, ligands as sticks. Without WebGL the
 * file is shown as text with a note saying why.
 */
export function StructureViewer({ text, format }: { text: string; format: 'pdb' | 'cif' }) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'nowebgl' | 'error'>(() =>
    hasWebGL() ? 'loading' : 'nowebgl',
  );
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (state === 'nowebgl' || !host.current) return;
    let disposed = false;
    let viewer: { clear(): void } | null = null;
    void import('3dmol')
      .then((mol) => {
        if (disposed || !host.current) return;
        const v = mol.createViewer(host.current, { backgroundColor: 'white', antialias: true });
        v.addModel(text, format);
        v.setStyle({}, { cartoon: { color: 'spectrum' } });
        v.setStyle({ hetflag: true }, { stick: { radius: 0.2 } });
        // Crystal waters scatter red dots around the molecule and pull the zoom out: hide them.
        for (const resn of ['HOH', 'WAT', 'DOD']) v.setStyle({ resn }, {});
        v.zoomTo({ hetflag: false });
        v.render();
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
      viewer?.clear();
    };
    // `state` is read only to skip when WebGL is missing; re-running on its change would rebuild the viewer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, format]);

  if (state === 'nowebgl' || state === 'error') {
    return (
      <div className="structure-fallback" data-testid="structure-fallback">
        <p className="note">{state === 'error' ? error : t('panel.artifacts.webglMissing')}</p>
        <pre className="code-block">{text.slice(0, 20_000)}</pre>
      </div>
    );
  }
  return (
    <div
      ref={host}
      className="structure-viewer"
      data-testid="structure-viewer"
      data-state={state}
      role="img"
      aria-label={`3D ${format.toUpperCase()}`}
    />
  );
}

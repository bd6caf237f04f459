/**
 * What the 3D viewer draws (panel/StructureViewer.tsx), kept pure where it can be: the
 * colour schemes (along the chain, by chain, by residue type, by hydrophobicity), the
 * residues a PDB file has, and the residue a user types to focus on.
 */

export type StructureStyle = 'cartoon' | 'stick' | 'surface';
export type StructureColour = 'spectrum' | 'chain' | 'residue' | 'hydrophobicity';

/** Kyte & Doolittle (1982) hydropathy of the twenty amino acids. */
export const KYTE_DOOLITTLE: Readonly<Record<string, number>> = {
  ILE: 4.5, VAL: 4.2, LEU: 3.8, PHE: 2.8, CYS: 2.5, MET: 1.9, ALA: 1.8, GLY: -0.4, THR: -0.7, SER: -0.8,
  TRP: -0.9, TYR: -1.3, PRO: -1.6, HIS: -3.2, GLU: -3.5, GLN: -3.5, ASP: -3.5, ASN: -3.5, LYS: -3.9, ARG: -4.5,
};

const mix = (a: number, b: number, f: number) => Math.round(a + (b - a) * f);
const rgb = (r: number, g: number, b: number) => (r << 16) | (g << 8) | b;

/** Hydrophilic teal (-4.5) through white (0) to hydrophobic orange (+4.5), as 0xRRGGBB. */
export function hydropathyColour(kd: number): number {
  const f = Math.max(-1, Math.min(1, kd / 4.5));
  return f < 0 ? rgb(mix(255, 0x2f, -f), mix(255, 0x6f, -f), mix(255, 0x73, -f)) : rgb(mix(255, 0xd5, f), mix(255, 0x5e, f), mix(255, 0x00, f));
}

/** The style's colour part for 3Dmol: a scheme, a named gradient, or a map of residue names. */
export function colourSpec(colour: StructureColour): object {
  if (colour === 'spectrum') return { color: 'spectrum' };
  if (colour === 'chain') return { colorscheme: 'chain' };
  if (colour === 'residue') return { colorscheme: 'amino' };
  const map = Object.fromEntries(Object.entries(KYTE_DOOLITTLE).map(([resn, kd]) => [resn, hydropathyColour(kd)]));
  return { colorscheme: { prop: 'resn', map } };
}

/** A residue to focus: its number, and its chain when the file has chains. */
export interface ResidueFocus {
  chain: string | null;
  resi: number;
}

/** The residues of a PDB file's ATOM records as `chain:number` (e.g. `B:21`). */
export function pdbResidues(text: string): Set<string> {
  const found = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('ATOM') || line.length < 26) continue;
    const resi = Number.parseInt(line.slice(22, 26), 10);
    if (Number.isFinite(resi)) found.add(`${line[21]!.trim()}:${resi}`);
  }
  return found;
}

/**
 * What the user typed ("21", "B21", "B:21", "B 21") as a residue of the file, or why not.
 * A bare number needs a chain when several chains have it: the first one in the file is
 * not guessed silently, the answer names the choices.
 */
export function parseResidue(input: string, residues: Set<string>): ResidueFocus | { error: 'format' | 'missing' | 'ambiguous'; choices?: string[] } {
  // A chain before a ":" or a space may be a digit; written against the number it is a letter ("B21").
  const m = /^\s*(?:([A-Za-z0-9])\s*[:\s]\s*|([A-Za-z]))?(-?\d+)\s*$/.exec(input);
  if (!m) return { error: 'format' };
  const resi = Number(m[3]);
  const named = m[1] ?? m[2];
  if (named) return residues.has(`${named}:${resi}`) ? { chain: named, resi } : { error: 'missing' };
  const chains = [...residues].filter((r) => r.endsWith(`:${resi}`)).map((r) => r.split(':')[0]!);
  if (chains.length === 0) return { error: 'missing' };
  if (chains.length > 1) return { error: 'ambiguous', choices: chains.map((c) => `${c}:${resi}`) };
  return { chain: chains[0] || null, resi };
}

/** 3Dmol's viewer, as far as the controls use it. */
export interface MolViewer {
  clear(): void;
  setStyle(sel: object, style: object): void;
  addStyle(sel: object, style: object): void;
  addSurface(type: unknown, style: object, sel?: object): unknown;
  removeAllSurfaces(): void;
  zoomTo(sel?: object): void;
  render(): void;
}

/** Draws the model in the chosen style and colour, zoomed on the focused residue, chain, or all of it. */
export function applyView(v: MolViewer, surfaceType: unknown, view: { style: StructureStyle; colour: StructureColour; chain: string | null; residue: ResidueFocus | null }): void {
  const color = colourSpec(view.colour);
  v.removeAllSurfaces();
  v.setStyle({}, view.style === 'stick' ? { stick: { radius: 0.2, ...color } } : { cartoon: color });
  v.setStyle({ hetflag: true }, { stick: { radius: 0.2 } });
  // Crystal waters scatter red dots around the molecule and pull the zoom out: hide them.
  for (const resn of ['HOH', 'WAT', 'DOD']) v.setStyle({ resn }, {});
  if (view.style === 'surface') v.addSurface(surfaceType, { opacity: 0.85, ...(view.colour === 'spectrum' ? { color: 'white' } : color) }, { hetflag: false });
  if (view.residue) {
    // The focused residue stands out as thick sticks on top of the chosen style.
    const sel = { resi: view.residue.resi, ...(view.residue.chain ? { chain: view.residue.chain } : {}) };
    v.addStyle(sel, { stick: { radius: 0.35, colorscheme: 'magentaCarbon' } });
    v.zoomTo(sel);
  } else v.zoomTo(view.chain ? { chain: view.chain } : { hetflag: false });
  v.render();
}

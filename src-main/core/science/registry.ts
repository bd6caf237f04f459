import type { Connector } from './connector';
import { arxiv } from './connectors/arxiv';
import { chembl } from './connectors/chembl';
import { europepmc } from './connectors/europepmc';
import { openalex } from './connectors/openalex';
import { pdb } from './connectors/pdb';
import { pubchem } from './connectors/pubchem';
import { pubmed } from './connectors/pubmed';
import { uniprot } from './connectors/uniprot';
import { ensembl } from './connectors/ensembl';
import { crossref } from './connectors/crossref';
import { alphafold } from './connectors/alphafold';

/** Every connector, in the order `science_list_dbs` shows them. */
export const CONNECTORS: Connector[] = [uniprot, pdb, pubchem, chembl, arxiv, openalex, pubmed, europepmc, ensembl, crossref, alphafold];

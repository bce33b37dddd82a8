/**
 * The fixture libraries' catalogues, in each real API's shapes and ids (see libraries.md), for the
 * tests and the offline demo. `file` names how the model's download is made (models.ts).
 */
export type FileKind =
  | 'chair-gltf'
  | 'chair-glb'
  | 'zip-slip'
  | 'zip-bomb'
  | 'broken'
  | 'huge-streamed'
  | 'slow-streamed'
  | 'bench-20mb'
  | 'missing';

export interface PolyHavenEntry {
  id: string;
  name: string;
  category: string;
  tags: string[];
  downloads: number;
  authors: Record<string, string>;
  file: FileKind;
}

export const POLY_HAVEN: PolyHavenEntry[] = [
  {
    id: 'wooden_chair_01',
    name: 'Wooden Chair 01',
    category: 'Furniture/Seating',
    tags: ['chair', 'wood', 'seat', 'kitchen'],
    downloads: 9800,
    authors: { 'Rico Cilliers': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'modern_arm_chair_01',
    name: 'Modern Arm Chair 01',
    category: 'Furniture/Seating',
    tags: ['chair', 'armchair', 'fabric'],
    downloads: 7200,
    authors: { 'James Ray Cock': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'side_table_01',
    name: 'Side Table 01',
    category: 'Furniture/Tables',
    tags: ['table', 'wood'],
    downloads: 5100,
    authors: { 'Kless Gyzen': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'horse_statue_01',
    name: 'Horse Statue 01',
    category: 'Decor & Art/Sculptures & Figurines',
    tags: ['horse', 'statue', 'figurine', 'porcelain'],
    downloads: 12345,
    authors: { 'Rico Cilliers': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'wooden_crate_01',
    name: 'Wooden Crate 01',
    category: 'Containers & Storage/Crates',
    tags: ['crate', 'box', 'wood'],
    downloads: 4300,
    authors: { 'Jorge Camacho': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'rock_moss_set_01',
    name: 'Rock Moss Set 01',
    category: 'Nature/Rocks',
    tags: ['rock', 'moss', 'stone'],
    downloads: 8800,
    authors: { 'Dimitrios Savva': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'vintage_radio_01',
    name: 'Vintage Radio 01',
    category: 'Electronics & Appliances/Audio',
    tags: ['radio', 'vintage', 'wood'],
    downloads: 3900,
    authors: { 'Kless Gyzen': 'All' },
    file: 'chair-gltf',
  },
  {
    id: 'broken_vase_01',
    name: 'Broken Vase 01',
    category: 'Decor & Art/Vases',
    tags: ['vase', 'broken'],
    downloads: 10,
    authors: { 'Test Author': 'All' },
    file: 'broken',
  },
];

export const SKETCHFAB_LICENSES = {
  cc0: { uid: '7c23a1ba438d4306920229c12afcb5f9', label: 'CC0 Public Domain', slug: 'cc0' },
  by: { uid: '322a749bcfa841b29dff1e8a1bb74b0b', label: 'CC Attribution', slug: 'by' },
  'by-sa': { uid: 'b9ddc40b93e34cdca1fc152f39b9f375', label: 'CC Attribution-ShareAlike', slug: 'by-sa' },
  'by-nc': { uid: 'bbfe3f7dbcdd4122b966b85b9786a989', label: 'CC Attribution-NonCommercial', slug: 'by-nc' },
  st: { uid: '783b685da9bf457d81e829fa283f3567', label: 'Standard', slug: 'st' },
  ed: { uid: '5b54cf13b1a4422ca439696eb152070d', label: 'Editorial', slug: 'ed' },
} as const;

export interface SketchfabEntry {
  uid: string;
  name: string;
  license: keyof typeof SKETCHFAB_LICENSES;
  category: string;
  tags: string[];
  faceCount: number;
  user: string;
  downloadable: boolean;
  file: FileKind;
  /** The archive size the API reports (bytes); a lie for `huge-streamed`'s sibling. */
  archiveSize: number;
}

export const SKETCHFAB: SketchfabEntry[] = [
  {
    uid: 'c0a1b2c3d4e5f60718293a4b5c6d7e8f',
    name: 'Scandinavian Dining Chair',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['chair', 'dining', 'wood'],
    faceCount: 5400,
    user: 'nordicmodels',
    downloadable: true,
    file: 'chair-gltf',
    archiveSize: 120_000,
  },
  {
    uid: 'b1a2b3c4d5e6f708192a3b4c5d6e7f80',
    name: 'Vintage Armchair',
    license: 'by',
    category: 'furniture-home',
    tags: ['chair', 'armchair', 'vintage'],
    faceCount: 12800,
    user: 'atelier3d',
    downloadable: true,
    file: 'chair-gltf',
    archiveSize: 140_000,
  },
  {
    uid: 'b2a3b4c5d6e7f8091a2b3c4d5e6f7081',
    name: 'Oak Bookshelf',
    license: 'by-sa',
    category: 'furniture-home',
    tags: ['shelf', 'oak', 'books'],
    faceCount: 8200,
    user: 'atelier3d',
    downloadable: true,
    file: 'chair-gltf',
    archiveSize: 130_000,
  },
  {
    uid: 'e1a2b3c4d5e6f708192a3b4c5d6e7f81',
    name: 'Sports Car GT',
    license: 'by-nc',
    category: 'cars-vehicles',
    tags: ['car', 'sports'],
    faceCount: 250000,
    user: 'speedshop',
    downloadable: true,
    file: 'chair-gltf',
    archiveSize: 9_000_000,
  },
  {
    uid: 'f1a2b3c4d5e6f708192a3b4c5d6e7f82',
    name: 'Executive Office Desk',
    license: 'st',
    category: 'furniture-home',
    tags: ['desk', 'office'],
    faceCount: 30000,
    user: 'storefront',
    downloadable: true,
    file: 'chair-gltf',
    archiveSize: 2_000_000,
  },
  {
    uid: 'a9a2b3c4d5e6f708192a3b4c5d6e7f83',
    name: 'Famous Landmark Statue',
    license: 'ed',
    category: 'cultural-heritage-history',
    tags: ['statue', 'landmark'],
    faceCount: 90000,
    user: 'pressroom',
    downloadable: true,
    file: 'chair-gltf',
    archiveSize: 4_000_000,
  },
  {
    uid: '4737a3b84e00415b9d8bb42ae44285b2',
    name: 'Flying Cthulhu',
    license: 'by',
    category: 'characters-creatures',
    tags: ['cthulhu', 'monster'],
    faceCount: 4714341,
    user: 'michaliskambi',
    downloadable: true,
    file: 'huge-streamed',
    archiveSize: 86_622_863,
  },
  {
    uid: 'd1a2b3c4d5e6f708192a3b4c5d6e7f84',
    name: 'Crate That Lies About Its Size',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['crate', 'liar'],
    faceCount: 1200,
    user: 'tester',
    downloadable: true,
    file: 'huge-streamed',
    archiveSize: 2_000_000,
  },
  {
    uid: 'd2a2b3c4d5e6f708192a3b4c5d6e7f85',
    name: 'Zip Slip Lamp',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['lamp', 'hostile'],
    faceCount: 500,
    user: 'tester',
    downloadable: true,
    file: 'zip-slip',
    archiveSize: 60_000,
  },
  {
    uid: 'd3a2b3c4d5e6f708192a3b4c5d6e7f86',
    name: 'Zip Bomb Stool',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['stool', 'hostile'],
    faceCount: 500,
    user: 'tester',
    downloadable: true,
    file: 'zip-bomb',
    archiveSize: 60_000,
  },
  {
    uid: 'd4a2b3c4d5e6f708192a3b4c5d6e7f87',
    name: 'Broken Table',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['table', 'broken'],
    faceCount: 500,
    user: 'tester',
    downloadable: true,
    file: 'broken',
    archiveSize: 1_000,
  },
  {
    uid: 'd5a2b3c4d5e6f708192a3b4c5d6e7f88',
    name: 'Museum Display Case',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['display', 'case'],
    faceCount: 900,
    user: 'tester',
    downloadable: false,
    file: 'chair-gltf',
    archiveSize: 60_000,
  },
  {
    uid: 'd7a2b3c4d5e6f708192a3b4c5d6e7f8a',
    name: 'Private Collection Figurine',
    license: 'by-nc',
    category: 'cultural-heritage-history',
    tags: ['figurine', 'private'],
    faceCount: 700,
    user: 'collector',
    downloadable: false,
    file: 'chair-gltf',
    archiveSize: 60_000,
  },
  {
    uid: 'd6a2b3c4d5e6f708192a3b4c5d6e7f89',
    name: 'Slowly Downloading Bench',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['bench', 'slow'],
    faceCount: 900,
    user: 'tester',
    downloadable: true,
    file: 'slow-streamed',
    archiveSize: 20_000_000,
  },
  {
    uid: 'be0c2b3c4d5e6f708192a3b4c5d6e7f9',
    name: 'Bench Model 20 MB',
    license: 'cc0',
    category: 'furniture-home',
    tags: ['benchmark'],
    faceCount: 400000,
    user: 'tester',
    downloadable: true,
    file: 'bench-20mb',
    archiveSize: 21_000_000,
  },
];

export interface SmithsonianEntry {
  id: string;
  title: string;
  unit: string;
  access: 'CC0' | 'Usage Conditions Apply';
  topics: string[];
  maker?: string;
  /** The record's top-level category route (art_design, history_culture, science_technology). */
  route: 'art_design' | 'history_culture' | 'science_technology';
  /** null: a record without 3D media. */
  file: FileKind | null;
  draco?: boolean;
}

export const SMITHSONIAN: SmithsonianEntry[] = [
  {
    id: 'edanmdm:nasm_A19610048000',
    title: '1903 Wright Flyer',
    unit: 'NASM',
    access: 'CC0',
    topics: ['Aviation', 'History'],
    maker: 'Wilbur Wright',
    route: 'science_technology',
    file: 'chair-glb',
  },
  {
    id: 'edanmdm:nmah_1170142',
    title: 'Windsor Chair',
    unit: 'NMAH',
    access: 'CC0',
    topics: ['Furniture', 'History'],
    route: 'history_culture',
    file: 'chair-glb',
  },
  {
    id: 'edanmdm:saam_1929.6.127',
    title: 'Ceremonial Vessel',
    unit: 'SAAM',
    access: 'CC0',
    topics: ['Art', 'Ceramics'],
    route: 'art_design',
    file: 'chair-glb',
  },
  {
    id: 'edanmdm:nmnhanthropology_8361340',
    title: 'Carved Mask',
    unit: 'NMNH',
    access: 'Usage Conditions Apply',
    topics: ['Art', 'Anthropology'],
    route: 'art_design',
    file: 'chair-glb',
  },
  {
    id: 'edanmdm:nmah_1000001',
    title: 'Telegraph Key (photographs only)',
    unit: 'NMAH',
    access: 'CC0',
    topics: ['Electronics', 'History'],
    route: 'science_technology',
    file: null,
  },
];

import type { Material, Mesh } from 'three';
import type { GLTF } from 'three/addons/loaders/GLTFLoader.js';

/** One primitive's `KHR_materials_variants` mappings as GLTFLoader copies them into `userData`. */
interface VariantMappings {
  mappings?: Array<{ material: number; variants: number[] }>;
}

/**
 * A model's `KHR_materials_variants`, preloaded: each variant's final material per mesh, so a switch
 * is a synchronous assignment. three's GLTFLoader leaves the extension to plugins.
 */
export interface ModelVariants {
  /** Variant names by index, as the file writes them. */
  readonly names: readonly string[];
  /** Every mesh with mappings, and its material at load (what an unmapped or unknown variant shows). */
  readonly meshes: ReadonlyMap<Mesh, Material>;
  /** The mesh's material for that variant: exact name match; unknown name or no mapping: the material at load. */
  materialFor(mesh: Mesh, name: string): Material;
}

export async function preloadVariants(gltf: GLTF): Promise<ModelVariants> {
  const { parser } = gltf;
  const root = gltf.userData?.gltfExtensions?.KHR_materials_variants as { variants?: Array<{ name?: string }> };
  const names = (root?.variants ?? []).map((variant) => String(variant.name ?? ''));
  const meshes = new Map<Mesh, Material>();
  const byVariant = new Map<Mesh, Map<number, Material>>();
  const found: Mesh[] = [];
  gltf.scene.traverse((object) => {
    if ((object as Mesh).isMesh && object.userData.gltfExtensions?.KHR_materials_variants) found.push(object as Mesh);
  });
  for (const mesh of found) {
    const extensions = mesh.userData.gltfExtensions as Record<string, unknown>;
    const { mappings = [] } = extensions.KHR_materials_variants as VariantMappings;
    // Our own table from here on: the copied mappings would reach the AR export's extras, with stale indices.
    delete extensions.KHR_materials_variants;
    if (Object.keys(extensions).length === 0) delete mesh.userData.gltfExtensions;
    const base = mesh.material as Material;
    const table = new Map<number, Material>();
    for (const mapping of mappings) {
      mesh.material = (await parser.getDependency('material', mapping.material)) as Material;
      // The parser's material is not what meshes carry: the final one may be a per-geometry clone.
      parser.assignFinalMaterial(mesh);
      // The first mapping that lists a variant wins (KHR_materials_variants).
      for (const index of mapping.variants) if (!table.has(index)) table.set(index, mesh.material as Material);
    }
    mesh.material = base;
    meshes.set(mesh, base);
    byVariant.set(mesh, table);
  }
  return {
    names,
    meshes,
    materialFor(mesh, name) {
      const index = names.indexOf(name);
      return (
        (index >= 0 ? byVariant.get(mesh)?.get(index) : undefined) ?? meshes.get(mesh) ?? (mesh.material as Material)
      );
    },
  };
}

/** Every material the variants can show, for the model's material registry. */
export function variantMaterials(variants: ModelVariants): Material[] {
  return [...variants.meshes.keys()].flatMap((mesh) => variants.names.map((name) => variants.materialFor(mesh, name)));
}

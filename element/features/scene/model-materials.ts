import type { Material, Mesh, Object3D } from 'three';
import type { GLTF, GLTFParser } from 'three/addons/loaders/GLTFLoader.js';
import { programState } from './base-values.js';

/**
 * A model's materials by glTF name (docs/scene-format.md, Effects): every three.js instance of one, since the parser
 * clones them, and the materials `use` switches to, preloaded so a change stays synchronous.
 */
export interface ModelMaterials {
  /** Every instance of the glTF materials of that name; empty when the file has none. */
  named(name: string): Material[];
  /** The final material of that name for the mesh (preloaded `use`), or undefined. */
  final(mesh: Mesh, name: string): Material | undefined;
  /** The mesh's own copy of `source`, brought up to date with it, so other meshes keep theirs. */
  cloneFor(mesh: Mesh, source: Material): Material;
  /** Adds instances the model shows (variant materials). */
  register(materials: Iterable<Material>): void;
}

const materialNames = (parser: GLTFParser) =>
  ((parser.json as { materials?: Array<{ name?: string }> }).materials ?? []).map((material) => material.name);

export async function createModelMaterials(gltf: GLTF, useNames: Iterable<string>): Promise<ModelMaterials> {
  const { parser } = gltf;
  const names = materialNames(parser);
  const byIndex = new Map<number, Set<Material>>();
  const register = (materials: Iterable<Material>) => {
    for (const material of materials) {
      const index = parser.associations.get(material)?.materials;
      if (index === undefined) continue;
      const set = byIndex.get(index) ?? new Set();
      set.add(material);
      byIndex.set(index, set);
    }
  };
  const meshes: Mesh[] = [];
  gltf.scene.traverse((object: Object3D) => {
    if ((object as Mesh).isMesh) meshes.push(object as Mesh);
  });
  register(meshes.map((mesh) => mesh.material as Material));

  const finals = new Map<Mesh, Map<string, Material>>();
  for (const name of new Set(useNames)) {
    const index = names.indexOf(name);
    if (index < 0) continue;
    const source = (await parser.getDependency('material', index)) as Material;
    for (const mesh of meshes) {
      const before = mesh.material;
      mesh.material = source;
      parser.assignFinalMaterial(mesh);
      const table = finals.get(mesh) ?? new Map<string, Material>();
      table.set(name, mesh.material as Material);
      finals.set(mesh, table);
      register([mesh.material as Material]);
      mesh.material = before;
    }
  }

  const clones = new Map<Mesh, Map<Material, Material>>();
  return {
    named(name) {
      return names.flatMap((each, index) => (each === name ? [...(byIndex.get(index) ?? [])] : []));
    },
    final(mesh, name) {
      return finals.get(mesh)?.get(name);
    },
    cloneFor(mesh, source) {
      const table = clones.get(mesh) ?? new Map<Material, Material>();
      clones.set(mesh, table);
      let clone = table.get(source);
      if (!clone) {
        clone = source.clone();
        table.set(source, clone);
        const reference = parser.associations.get(source);
        if (reference) parser.associations.set(clone, reference);
        register([clone]);
        return clone;
      }
      const before = programState(clone);
      clone.copy(source);
      // A map or transparency switching changes the shader program; three does not check that per draw.
      if (programState(clone) !== before) clone.needsUpdate = true;
      return clone;
    },
    register,
  };
}

export declare function boxGeometry(
  size: [number, number, number],
  segments: number,
): { position: Float32Array; normal: Float32Array; uv: Float32Array; indices: Uint16Array };

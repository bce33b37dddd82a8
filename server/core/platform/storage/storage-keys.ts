/** Storage keys, in one place so server and worker agree on the layout. */
export const storageKeys = {
  asset: (workspaceId: string, assetId: string) => `workspaces/${workspaceId}/assets/${assetId}.glb`,
  /** The optimized copy shoppers download (docs/delivery-files.md); the original stays under `asset`. */
  assetDelivery: (workspaceId: string, assetId: string) => `workspaces/${workspaceId}/assets/${assetId}-delivery.glb`,
  /** Files a project carries from the editor (models by uploadedModelPath); written outside this product. */
  projectUpload: (workspaceId: string, projectId: string, relativePath: string) =>
    `workspaces/${workspaceId}/projects/${projectId}/${relativePath}`,
  screenshot: (workspaceId: string, submissionId: string, position: number, ext: string) =>
    `workspaces/${workspaceId}/requests/${submissionId}/screenshot-${position + 1}.${ext}`,
  /** Named by content, so a new picture gets a new URL and caches never show the old one. */
  projectThumbnail: (workspaceId: string, projectId: string, hash: string, ext: string) =>
    `workspaces/${workspaceId}/thumbnails/${projectId}-${hash}.${ext}`,
  /** `upload` tells one upload from another: a sweep removing an expired row's picture never takes a new one. */
  configurationImage: (workspaceId: string, configurationId: string, upload: string, ext: string) =>
    `workspaces/${workspaceId}/configurations/${configurationId}-${upload}.${ext}`,
  requestPdf: (workspaceId: string, submissionId: string) =>
    `workspaces/${workspaceId}/requests/${submissionId}/request.pdf`,
};

/**
 * The keys this product writes and records in a row: the only ones the storage sweeper may remove when no
 * row claims them. Project uploads and anything else are never touched.
 */
const CLAIMED_BY_A_ROW =
  /^workspaces\/[^/]+\/(?:assets\/[^/]+|thumbnails\/[^/]+|configurations\/[^/]+|requests\/[^/]+\/[^/]+)$/;

export const isClaimableKey = (key: string) => CLAIMED_BY_A_ROW.test(key);

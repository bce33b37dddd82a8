/**
 * model-viewer's own bundle with Lit inside and `three` left as an import (features/ar.ts): the
 * package types its source entry only. Importing it defines `<model-viewer>`; it exports the class.
 */
declare module '@google/model-viewer/dist/model-viewer-module.min.js' {
  export const ModelViewerElement: CustomElementConstructor;
}

// The content panels (demo/owner/editor/panels/*.ts) are imported here when they are merged.

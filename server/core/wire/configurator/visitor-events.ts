/**
 * Visitor events (docs/api.md, Visitor events): the types a page may send, their limits and their shapes.
 * Shared by the element's queue, the BFF's body limit and the server's checks. No Node imports.
 */

export const VISITOR_EVENT_TYPES = [
  'view',
  'option.changed',
  'price.calculated',
  'viewer.screenshot',
  'animation.triggered',
  'ar.opened',
  'configuration.saved',
] as const;

export type VisitorEventType = (typeof VISITOR_EVENT_TYPES)[number];

export const VISITOR_EVENT_LIMITS = {
  eventsPerCall: 20,
  bodyBytes: 32 * 1024,
  dataBytes: 2 * 1024,
} as const;

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** One event as the page sends it. */
export interface VisitorEvent {
  type: string;
  /** ISO time. */
  at: string;
  data: Record<string, unknown>;
}

export interface VisitorEventBatch {
  sessionId: string;
  events: VisitorEvent[];
}

export type VisitorEventError =
  'unknown_type' | 'unknown_block' | 'unknown_choice' | 'unknown_animation' | 'invalid_event';

/** 202's body: events left out, by index in the batch. */
export interface VisitorEventsAnswer {
  success: true;
  accepted: number;
  rejected: { index: number; error: VisitorEventError; message: string }[];
}

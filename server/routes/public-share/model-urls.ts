import type { FastifyInstance } from 'fastify';

/** Placeholder: filled in by its issue. */
export default async function routes(_app: FastifyInstance) {}

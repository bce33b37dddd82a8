import { Type } from 'typebox';

/** `GET /me`'s answer, as a TypeBox schema the route documents with and the owner console types itself with. */
const Membership = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  role: Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('editor'), Type.Literal('viewer')]),
  billingStatus: Type.Union([Type.Literal('active'), Type.Literal('locked')]),
  isDefault: Type.Boolean(),
});

export const MeReply = Type.Object({
  success: Type.Boolean(),
  person: Type.Object({ id: Type.String(), email: Type.Union([Type.String(), Type.Null()]) }),
  workspace: Type.Object({ id: Type.String(), role: Membership.properties.role }),
  workspaces: Type.Array(Membership),
});

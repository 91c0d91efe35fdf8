/**
 * The actor (docs/architecture.md, "Glossary"): who makes a change, as the audit and the change's
 * record store them. A signed-in person (`actorOf(request)` in http/access.ts), or the operator at
 * the admin command line, who has no account (`id` null).
 */
export interface Actor {
  id: string | null;
  username: string | null;
  /** The request that made the change (the audit row's `request_id`); none at the command line. */
  requestId?: string | null;
}

/** A signed-in person as the actor: what a request's changes are made as. */
export interface SignedInActor extends Actor {
  id: string;
  username: string;
  requestId: string;
}

/** The columns of an audit row that name the actor. */
export function auditedActor(actor: Actor): {
  actorId: string | null;
  actorUsername: string | null;
  requestId: string | null;
} {
  return { actorId: actor.id, actorUsername: actor.username, requestId: actor.requestId ?? null };
}

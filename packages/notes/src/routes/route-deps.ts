/**
 * What route handlers need: the account logic, note storage, the session codec and the
 * per-user session versions.
 */
import type { Accounts } from "../auth/accounts.js";
import type { SessionCodec } from "../auth/session.js";
import type { SessionVersions } from "../http/request-session.js";
import type { DraftStore } from "../notes/draft-store.js";
import type { NoteRepo } from "../notes/note-repo.js";

/** Dependencies shared by the route modules. */
export interface RouteDeps {
  readonly accounts: Accounts;
  readonly notes: NoteRepo;
  readonly sessions: SessionCodec;
  readonly drafts: DraftStore;
  readonly sessionVersions: SessionVersions;
}

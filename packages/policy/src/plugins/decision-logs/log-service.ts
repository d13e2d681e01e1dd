/**
 * The part of a configured service (OPA's `services.<name>`) that the decision logger needs.
 * The configuration loader builds these; the logger only POSTs to them.
 */
import type { Agent } from "node:http";

export interface LogService {
  /** The service's name, as `decision_logs.service` refers to it. */
  readonly name: string;
  /** Base URL; the resource path is appended to it. */
  readonly url: string;
  /** Extra headers sent with every request (`services.<name>.headers`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent as `Authorization: <scheme> <token>` (`credentials.bearer`). */
  readonly bearerToken?: string;
  /** Scheme of the bearer credential; OPA's default is "Bearer". */
  readonly bearerScheme?: string;
  /** Agent carrying TLS settings (CA, client certificate) for https URLs. */
  readonly agent?: Agent;
  /** Bound on waiting for the response headers, in milliseconds (OPA's default: 10 s). */
  readonly responseHeaderTimeoutMs?: number;
}

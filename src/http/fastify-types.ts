import type { Principal } from '../domain/access/decide-file-access.ts';
import type { Project } from '../domain/identity/project-repository.ts';
import type { User } from '../domain/identity/user-repository.ts';
import type { Operator } from '../domain/operators/operator-repository.ts';

// What the barriers attach to a request, for the handlers behind them.
declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the app-credentials barrier on every /api/v1 call. */
    project: Project;
    /** The project-admin principal of a service key the app-credentials barrier verified (issue 35). */
    serviceKeyPrincipal: Principal | undefined;
    /** Set by the authenticate barrier on every call that needs a token. */
    principal: Principal;
    /** The user the token names; none for a service key (service-keys.ts, assertActsForUser). */
    user: User | undefined;
    /** The refresh-token family the bearer token was issued with, when it names one. */
    sessionId: string | undefined;
    /** Set for an enrolment token (issue 41): when it was issued (Unix ms); undefined for any other. */
    enrolmentIssuedAt: number | undefined;
    /** Set by the console barrier on every /console/api call but sign-in. */
    operator?: Operator;
  }
  interface FastifyContextConfig {
    /** Login and signup need app credentials but no token (spec §5, barrier 3). */
    public?: boolean;
    /** Uploads: the body may take up to the request timeout, not the body timeout. */
    streamsBody?: boolean;
    /** The route takes an enrolment token as well (issue 41: enrolling a second factor, TOTP or a passkey, under requireMfa). */
    allowEnrolmentToken?: boolean;
  }
}

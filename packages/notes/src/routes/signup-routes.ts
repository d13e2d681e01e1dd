/**
 * `GET /signup` (the form) and `POST /signup` (stores the user, answers with the welcome
 * page). Failed checks throw `FormError`s that the error handler renders.
 */
import type { FastifyInstance } from "fastify";
import { abandonSignal } from "../http/abandoned-request.js";
import { formField } from "../http/form-fields.js";
import { rejectOtherMethods } from "../http/method-guard.js";
import { sendPage } from "../http/pages.js";
import { signupPage, welcomePage } from "../views/auth-pages.js";
import type { RouteDeps } from "./route-deps.js";

/** Registers `/signup`. */
export function registerSignupRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const form = signupPage();

  app.get("/signup", async (_request, reply) => sendPage(reply, 200, form));

  app.post("/signup", async (request, reply) => {
    const email = await deps.accounts.signup({
      email: formField(request.body, "email"),
      password1: formField(request.body, "password1"),
      password2: formField(request.body, "password2"),
      clientAddress: request.ip,
      signal: abandonSignal(reply),
    });
    request.log.info({ email }, "user registered");
    const notice = {
      kind: "success" as const,
      text: `Account created for ${email}. Log in below.`,
    };
    return sendPage(reply, 200, welcomePage({ notice }));
  });
  rejectOtherMethods(app, "/signup", ["GET", "POST"]);
}

/**
 * The attacker of the flood benchmark, in its own process so its work does not share an event
 * loop with the client being measured: `node flood.js <url> <seconds> <connections>` opens
 * half the connections on `POST /signup` (a new email each time) and half on `POST /login`
 * (a registered email, a wrong password), then prints one JSON line of answer counts.
 */
import autocannon from "autocannon";

const [url = "", seconds = "10", connections = "50"] = process.argv.slice(2);
const half = Math.max(1, Math.floor(Number(connections) / 2));
const form = { "content-type": "application/x-www-form-urlencoded" };

const signup = autocannon({
  url: `${url}/signup`,
  method: "POST",
  connections: half,
  duration: Number(seconds),
  headers: form,
  // autocannon puts a fresh id for every request in place of [<id>].
  idReplacement: true,
  body: "email=flood-[<id>]%40example.com&password1=flood-password&password2=flood-password",
});
const login = autocannon({
  url: `${url}/login`,
  method: "POST",
  connections: Number(connections) - half,
  duration: Number(seconds),
  headers: form,
  body: "email=bench%40example.com&password=wrong-password",
});
const [s, l] = await Promise.all([signup, login]);
const counts = (r: Awaited<typeof signup>) => ({
  requests: r.requests.total,
  non2xx: r.non2xx,
  status: r.statusCodeStats,
  errors: r.errors,
});
process.stdout.write(`${JSON.stringify({ signup: counts(s), login: counts(l) })}\n`);

// @codex-rpc/core/testing: what tests and benchmarks read of the internals (leak counts, the
// connection in use, a CodexThread without `thread/start`), and the in-memory app-server they talk to.
// Not part of the user API: it may change in any release. See "Reaching the internals" in the
// README for why it is an entry of its own.
export { clientInternals, type ClientInternals } from "./client/codex-client.js";
export { turnSubscriberCount } from "./session/codex-turn.js";
export { JsonRpcConnection } from "./rpc/json-rpc-connection.js";
// Here rather than in @codex-rpc/testing (which re-exports it) so core's own tests can use it.
export { FakeAppServer, type FakeAppServerOptions, type FakeReply, type FakeTurnScript } from "./testing/fake-app-server.js";

/**
 * The fake API server's HTTP layer.
 *
 * <h2>Why not {@code KubernetesMockServer} itself</h2>
 * The brief was to build on kubernetes-server-mock's HTTP server. Its {@code MockWebServer} creates its own Vert.x
 * request handler, and every answer it can give is a {@code MockResponse}: a status, headers and a fixed body, or a
 * websocket upgrade. An HTTP-streaming watch (a response that stays open and receives one JSON line per change,
 * which kubectl {@code get -w}, client-go and fabric8 with {@code onlyHttpWatches} use) cannot be expressed, and its
 * dispatcher runs on the Vert.x event loop, where it must never block waiting for changes. So ctk runs its own
 * Vert.x {@code HttpServer} (own Vert.x instance, HTTP/1.1, plain HTTP, the websocket sub-protocols mockwebserver
 * sets) and splits requests in {@link dev.ctk.fake.internal.http.FakeHttpServer}:
 * <ul>
 *   <li>a non-websocket {@code GET ...?watch=true} goes to {@link dev.ctk.fake.internal.http.ChunkedWatchStream},
 *       which writes newline-delimited JSON on a chunked response;
 *   <li>everything else goes to a subclass of mockwebserver's {@code HttpServerRequestHandler} calling ctk's
 *       {@code Dispatcher} subclass ({@link dev.ctk.fake.internal.http.ApiDispatcher}); websocket watches (fabric8's
 *       default) answer {@code MockResponse.withWebSocketUpgrade(..)} with a
 *       {@link dev.ctk.fake.internal.http.WebSocketWatch} listener.
 * </ul>
 * No cleaner way to stay on {@code KubernetesMockServer} was found: its server, handler and Vert.x instance are
 * private, so streaming would need reflection or a fork.
 *
 * <p>Both transports register their watch with the store under its lock and hand every event back to the
 * connection's event loop, so the lock is never held across network I/O and each watch receives changes in commit
 * order.
 *
 * <h2>Limits</h2>
 * Plain HTTP only (no TLS, no authentication); JSON (and YAML request bodies) only, no protobuf or CBOR; no Table
 * responses; no aggregated discovery; {@code /openapi/v2} is an empty document and {@code /openapi/v3} is 404; no
 * HTTP/2. A watch client that stops reading is not slowed down: its watch is closed once 8 MiB wait in its
 * connection's write queue (kube closes such watchers too; the client re-watches). {@code timeoutSeconds} above one
 * year is capped at one year.
 */
package dev.ctk.fake.internal.http;

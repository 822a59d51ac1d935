/**
 * The fabric8 client floor: {@link dev.ctk.benchmarks.floor.EchoApiServer}, an API server that answers fabric8 clients
 * through ctk's in-process {@code HttpClient.Factory}, without sockets and with almost no work (an empty list, an
 * accepted watch, a create echoed back with a resourceVersion and sent as ADDED to every watch on the writer's thread,
 * or on a delivery thread of its own as {@code FABRIC8_CLIENT_FLOOR_HANDOFF} runs it, optionally with given metadata
 * fields spliced into every created object as {@code FABRIC8_CLIENT_FLOOR_KUBE_OBJECTS} runs it). A create-and-see
 * against it costs what fabric8's client and informer and the JVM's thread hand-offs cost, and nothing more: no fake
 * that is used through fabric8's client and informer can be faster. {@link
 * dev.ctk.benchmarks.floor.HttpEchoApiServer} gives the same answers over loopback HTTP, without a delivery thread
 * ({@code FABRIC8_CLIENT_FLOOR_HTTP}): the floor of a fake reached over HTTP.
 *
 * <pre>{@code
 * java -jar benchmarks/target/benchmarks.jar WriteToInformerBenchmark -p target=FABRIC8_CLIENT_FLOOR
 * }</pre>
 *
 * <p>What this package does not do:
 * <ul>
 *   <li>It is not a Kubernetes API server and not a fake: it stores nothing, validates nothing, has no uid or
 *       creationTimestamp of its own (it can splice given ones, the same into every created object), no defaulting,
 *       conflicts, selectors, updates, deletes or GET of one object (all 404), and serves ConfigMaps only. Only the
 *       write-to-informer benchmark measures something true on it; the other benchmarks refuse it.
 *   <li>{@code EchoApiServer} does not measure fabric8 over a network: no HTTP encoding, sockets or Vert.x event
 *       loop. {@link dev.ctk.benchmarks.floor.HttpEchoApiServer} gives the same answers over loopback HTTP (as
 *       {@code FABRIC8_CLIENT_FLOOR_HTTP} runs it): a Vert.x listener of its own and fabric8's Vert.x client, on no
 *       other network than loopback.
 *   <li>It ignores the websocket's demand (events are never held back) and watch options (resourceVersion,
 *       timeoutSeconds, selectors); every open watch of every namespace gets every create.
 *   <li>{@code EchoApiServer} reuses the client side of ctk's in-process transport
 *       ({@code InProcessHttpClientFactory}, {@code InProcessResponse}, in an internal package of fake-client that
 *       only this unpublished module may use), not its server side: no request pipeline, no journal, none of ctk's
 *       watch delivery threads. {@code HttpEchoApiServer} uses ctk's shared Vert.x client instance
 *       ({@code SharedVertx.clients()}) and a Vert.x server instance of its own, not ctk's listener.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.benchmarks.floor;

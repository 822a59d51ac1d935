/**
 * The fake API server's HTTP layer.
 *
 * <h2>Why not {@code KubernetesMockServer} itself</h2>
 * The brief was to build on kubernetes-server-mock's HTTP server. Its {@code MockWebServer} creates its own Vert.x
 * request handler, and every answer it can give is a {@code MockResponse}: a status, headers and a fixed body, or a
 * websocket upgrade. An HTTP-streaming watch (a response that stays open and receives one JSON line per change,
 * which kubectl {@code get -w}, client-go and fabric8 with {@code onlyHttpWatches} use) cannot be expressed, and its
 * dispatcher runs on the Vert.x event loop, where it must never block waiting for changes. So ctk runs its own
 * Vert.x {@code HttpServer} (HTTP/1.1, plain HTTP, the websocket sub-protocols mockwebserver sets). Every fake of a
 * JVM listens on one shared Vert.x instance, and ctk's HTTP clients run on another ({@code SharedVertx}): created at
 * first use, on daemon threads, never closed, so that a fake starts and stops without starting and stopping threads.
 *
 * <h2>One pipeline, two transports</h2>
 * {@link dev.ctk.fake.internal.http.RequestPipeline} holds the steps every request goes through: describe it for the
 * journal, let the fault engine decide (error Status, delay, dropped connection), then serve it (watches are
 * registered with the store before the client sees them open; everything else goes to
 * {@link dev.ctk.fake.internal.http.ApiDispatcher}), and record it in the journal before the answer leaves. A
 * transport only carries a request in and its answer out, as an {@link dev.ctk.fake.internal.http.ApiExchange}:
 * <ul>
 *   <li>{@link dev.ctk.fake.internal.http.FakeHttpServer} with {@code VertxExchange}: HTTP-streaming watches are
 *       written as newline-delimited JSON on a chunked response ({@code ChunkedWatchStream}); websocket watches
 *       (fabric8's default) are upgraded through mockwebserver's {@code ServerWebSocketHandler} to a
 *       {@code WebSocketWatch} listener;
 *   <li>the in-process transport ({@code dev.ctk.fake.internal.inprocess}) for fabric8 clients in this JVM.
 * </ul>
 * No cleaner way to stay on {@code KubernetesMockServer} was found: its server, handler and Vert.x instance are
 * private, so streaming would need reflection or a fork.
 *
 * <p>A complete answer is serialized once, into the byte array the exchange sends ({@code ApiResponse}; not copied
 * on the way). A list answer ({@code ListBody}) is written item by item from the stored objects, without copying
 * them to drop the {@code kind}/{@code apiVersion} kube leaves out of a built-in kind's items.
 *
 * <p>Watches register with the store under its lock and hand every event to the connection's event loop (or the
 * in-process delivery threads), so the lock is never held across I/O and each watch receives changes in commit
 * order. An event of a write that a request on the watch's own event loop made is written as soon as the lock is
 * released, before that request's answer ({@code EventLoopWrites}), unless an earlier event of that watch is still
 * queued; any other is queued to the loop. Watch timeouts,
 * bookmarks and delayed requests run on the cluster's timer thread.
 *
 * <p>What kube answers outside the resources: {@code UnservedPaths} (a Status 404 inside kube's own API groups,
 * the plain-text {@code 404 page not found} elsewhere), {@code MetaOptions} ({@code dryRun} and
 * {@code resourceVersionMatch} validated first, 422 on {@code meta.k8s.io} options kinds), {@code ListVersions}
 * (which state a LIST reads: an exact resourceVersion from the watch history), {@code NamedSubresources} with
 * {@code SubresourceHandler} (the Pod, Node, Service, Namespace and ServiceAccount subresources kube 1.32 lists in
 * discovery, served without a kubelet).
 *
 * <h2>Limits</h2>
 * Plain HTTP only (no TLS, no authentication); answers in JSON only; request bodies in JSON, YAML or, for built-in
 * kinds, kube's protobuf ({@link dev.ctk.fake.internal.protobuf.ProtobufBody}, with the limits of its package), no
 * CBOR; no Table responses; no aggregated discovery; {@code /openapi/v2} is an empty document and
 * {@code /openapi/v3} is 404; no HTTP/2. A watch client that stops reading is not slowed down: its watch is closed
 * once 8 MiB wait in its connection's write queue (kube closes such watchers too; the client re-watches). A websocket
 * watch the fake ends is closed once its close frame is written, without waiting for the client's (as kube closes it);
 * a client that answers late finds the connection gone.
 * {@code timeoutSeconds} above one year is capped at one year. Of the subresources beyond status and scale, nothing
 * connects anywhere: log, exec, attach and port-forward answer what a bare kube-apiserver answers for an unscheduled
 * Pod or a missing Node, and 503 where kube would reach a kubelet; the proxies answer 404 or 503; a TokenRequest gets
 * an unsigned placeholder token; ephemeral containers and finalizers are written unvalidated; binding records a
 * managedFields entry for the {@code binding} subresource where kube records none. Of the request options kube
 * validates first, only {@code dryRun} and {@code resourceVersionMatch} are ({@code fieldManager},
 * {@code fieldValidation}, {@code propagationPolicy} are not, there); a
 * not-older-than LIST from a resourceVersion the store has not reached answers 504 at once (kube waits up to 3
 * seconds).
 */
package dev.ctk.fake.internal.http;

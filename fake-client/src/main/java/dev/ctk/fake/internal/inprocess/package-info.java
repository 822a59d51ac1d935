/**
 * The in-process transport: a fabric8 {@code HttpClient.Factory} whose clients hand requests to the fake's
 * {@link dev.ctk.fake.internal.http.RequestPipeline} inside this JVM, without a socket or an HTTP codec. The
 * default for the clients {@code FakeCluster} hands out, and {@code FakeCluster.httpClientFactory()} for clients a
 * test builds itself.
 *
 * <ul>
 *   <li>Requests run on the caller's thread and are answered as complete bodies; faults, the request journal
 *       (transport {@code in-process}), admission and garbage collection behave exactly as over HTTP, because the
 *       same pipeline serves both. A request fabric8 sends from its JVM-wide scheduler thread (retries after a
 *       backoff, watch reconnects; recognised by the thread's name) is served on the cluster's delivery threads
 *       instead, so that it never holds that thread while it waits for the store lock.
 *   <li>Watches of both kinds fabric8 uses (websocket, and HTTP streaming with {@code onlyHttpWatches}) are
 *       registered before the client sees them open. Their events queue per watch and are handed to fabric8 on a
 *       per-cluster pool of daemon threads ({@code ctk-fake-<n>-watch-<k>}), one message per websocket
 *       {@code request()} (the first without one) and every queued line per streaming {@code consume()}. A watch
 *       with more than 8 MiB of events waiting for a client that does not ask for them is closed, as over HTTP;
 *       the client re-watches from its last resourceVersion.
 *   <li>Only in a JVM run with {@code -Dctk.fake.waitAheadOfEvents=true} (off by default: it made write to informer
 *       faster on one 2-core VM and slower on another; BENCHMARKS.md): a write that may change a collection (not a
 *       dryRun) wakes, before its own work, a delivery thread for each watch of that collection and namespace whose
 *       client waits for an event, when those watches are no more than the machine's cores less one (none on one
 *       core; with more, the last informer to see the write waits for a wake-up anyway), and no more than that many
 *       threads wait at once in the JVM. Such a thread waits for the event without
 *       parking, at most 100 µs, so that its wake-up overlaps the write instead of following it. A write that ends
 *       without an event for that watch (refused, a no-op, not selected by the watch's label or field selector) costs
 *       the thread's whole wait on one core. HTTP watches ignore the news; an HTTP write only pays one more pass over
 *       the collection's watches.
 *   <li>Closing a client closes the watches it opened; a closed client fails as fabric8's Vert.x client does
 *       ({@code IllegalStateException: Client is closed}, thrown for a request, as the failed future of a
 *       websocket). A watch whose client gave up before it opened (a timeout, a cancel) is closed, not opened.
 *   <li>Closing the cluster drops the requests a Delay fault holds, has every watch deliver its close at once
 *       (events still queued are discarded, as with a closed connection), then stops the delivery threads.
 *       Requests after that fail as a refused connection.
 *   <li>A request sent while the calling thread holds the store's write lock (an admission hook calling the API)
 *       is answered 400 with a message saying so, instead of nesting one transaction in another; 400 because
 *       fabric8 retries a 5xx, from another thread, where the retry would wait for the lock the hook holds.
 * </ul>
 *
 * <h2>Limits</h2>
 * Only fabric8 clients in this JVM that are given the factory use it: kubectl, client-go, io.kubernetes
 * client-java, other JVMs, and fabric8 clients that find their factory through {@code ServiceLoader} (a plain
 * {@code new KubernetesClientBuilder().build()} from a kubeconfig) use the HTTP listener. TLS, authentication,
 * proxies, HTTP/2, redirects and protocol-level behaviour (header size limits, {@code 100-continue}, chunk
 * framing) are not exercised; the master URL of a client is ignored. Methods other than GET, POST, PUT, PATCH and
 * DELETE are not refused with 405 as over HTTP. Websocket messages from the client are ignored. There is no
 * timeout on a websocket upgrade (it completes at once). The classes extend fabric8's {@code StandardHttpClient}
 * and {@code StandardHttpClientBuilder}, which are public but not a documented extension point: a fabric8
 * upgrade may need changes here. fabric8 7.8.0's HTTP-streaming watch mis-decodes a chunk that holds multi-byte
 * UTF-8 characters (on both transports); websocket watches, the default, are not affected.
 */
package dev.ctk.fake.internal.inprocess;

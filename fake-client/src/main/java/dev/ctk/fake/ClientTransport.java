package dev.ctk.fake;

/**
 * How the fabric8 clients that a {@link FakeCluster} hands out ({@link FakeCluster#client()},
 * {@link FakeCluster#newClient()}) reach the fake.
 *
 * <pre>{@code
 * try (FakeCluster cluster = FakeCluster.builder().withClientTransport(ClientTransport.HTTP).build()) {
 *   cluster.client().configMaps().list(); // over a loopback socket, as kubectl would talk to it
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public enum ClientTransport {
  /**
   * The default. Requests and watches are handed to the fake inside this JVM, without a socket or an HTTP codec:
   * requests run on the calling thread, watch events arrive on the cluster's delivery threads. Faults, the request
   * journal, watch faults and the status codes, headers and bodies the API answers are the same as over HTTP. What
   * differs: a method other than GET, POST, PUT, PATCH and DELETE is not refused with 405; answers carry no
   * {@code Content-Length}; TLS, proxies, HTTP/2 and protocol-level behaviour (header size limits,
   * {@code 100-continue}, chunk framing) are not exercised; and a request sent from an admission hook (under the
   * fake's write lock) is refused with 400 at once, where over HTTP it waits for the client's timeout. The HTTP listener still starts, on first use of {@link FakeCluster#url()},
   * {@link FakeCluster#port()}, {@link FakeCluster#kubeconfig()}, {@link FakeCluster#writeKubeconfig} or
   * {@link FakeCluster#clientConfig()}, for other clients (kubectl, client-java), on the same store.
   */
  IN_PROCESS,
  /**
   * Requests and watches go over a loopback HTTP connection to the fake's listener, started by {@code build()}, as
   * any client outside the JVM would talk to it. Slower; use it to exercise the HTTP path itself.
   */
  HTTP
}

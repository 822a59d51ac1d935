package dev.ctk.fake.internal.inprocess;

import dev.ctk.fake.internal.http.RequestPipeline;
import io.fabric8.kubernetes.client.http.HttpClient;

/**
 * One cluster's in-process transport: the fabric8 {@link HttpClient.Factory} its clients use, and the threads
 * that deliver watch events to them. {@link #close()} (when the cluster closes) has every open watch deliver its
 * close, lets pending deliveries finish and stops those threads; later requests fail as a refused connection would.
 */
public final class InProcessTransport implements AutoCloseable {

  private final RequestPipeline pipeline;
  private final String masterUrl;
  private final WatchDelivery delivery;
  private final InProcessHttpClientFactory factory;
  private volatile boolean closed;

  /**
   * Creates the transport of one cluster.
   *
   * @param pipeline the cluster's request pipeline
   * @param name the cluster's name, e.g. {@code ctk-fake-3}: delivery threads are {@code <name>-watch-<n>}, and the
   *     master URL in-process clients show is {@code http://<name>.invalid}
   */
  public InProcessTransport(RequestPipeline pipeline, String name) {
    this.pipeline = pipeline;
    this.masterUrl = "http://" + name + ".invalid";
    this.delivery = new WatchDelivery(name);
    this.factory = new InProcessHttpClientFactory(this);
  }

  /** The factory for fabric8's {@code KubernetesClientBuilder.withHttpClientFactory}. */
  public HttpClient.Factory factory() {
    return factory;
  }

  /**
   * The master URL in-process clients are configured with: a host under {@code .invalid}, which never resolves, so
   * a client built with it but without this transport's factory fails at once instead of reaching another server.
   */
  public String masterUrl() {
    return masterUrl;
  }

  RequestPipeline pipeline() {
    return pipeline;
  }

  WatchDelivery delivery() {
    return delivery;
  }

  boolean isClosed() {
    return closed;
  }

  /** From now on requests fail as a refused connection would (the cluster is closing). */
  public void refuseRequests() {
    closed = true;
  }

  /**
   * Refuses further requests, has every open watch deliver its close now (what it still queued is discarded), lets
   * the deliveries under way finish and stops the threads.
   */
  @Override
  public void close() {
    closed = true;
    delivery.close();
  }
}

package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.util.concurrent.TimeUnit;

/**
 * The fabric8 {@link HttpClient.Factory} of one {@link InProcessServer}: a fake cluster's in-process transport, or
 * another server behind the same SPI (the benchmarks' floor). Not registered in {@code META-INF/services}: it is
 * bound to one server and only used where it is passed
 * ({@code KubernetesClientBuilder.withHttpClientFactory}). From a {@link Config} it applies only what matters
 * without a network: the request settings (retries, timeouts) and fabric8's interceptors (headers, impersonation,
 * token refresh); no trust store is loaded and no proxy is looked up.
 */
public final class InProcessHttpClientFactory implements HttpClient.Factory {

  private final InProcessServer server;

  /**
   * The factory of one server's clients.
   *
   * @param server what answers their requests
   */
  public InProcessHttpClientFactory(InProcessServer server) {
    this.server = server;
  }

  InProcessServer server() {
    return server;
  }

  @Override
  public InProcessHttpClientBuilder newBuilder() {
    return new InProcessHttpClientBuilder(this);
  }

  @Override
  public HttpClient.Builder newBuilder(Config config) {
    InProcessHttpClientBuilder builder = newBuilder();
    builder.tag(config.getRequestConfig());
    if (config.getConnectionTimeout() > 0) {
      builder.connectTimeout(config.getConnectionTimeout(), TimeUnit.MILLISECONDS);
    }
    HttpClientUtils.createApplicableInterceptors(config, this).forEach(builder::addOrReplaceInterceptor);
    return builder;
  }

  @Override
  public String toString() {
    return "ctk in-process HTTP client factory for " + server.masterUrl();
  }
}

package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.util.concurrent.TimeUnit;

/**
 * The fabric8 {@link HttpClient.Factory} of one fake cluster's in-process transport. Not registered in
 * {@code META-INF/services}: it is bound to one cluster and only used where ctk passes it
 * ({@code KubernetesClientBuilder.withHttpClientFactory}). From a {@link Config} it applies only what matters
 * without a network: the request settings (retries, timeouts) and fabric8's interceptors (headers, impersonation,
 * token refresh); no trust store is loaded and no proxy is looked up.
 */
final class InProcessHttpClientFactory implements HttpClient.Factory {

  private final InProcessTransport transport;

  InProcessHttpClientFactory(InProcessTransport transport) {
    this.transport = transport;
  }

  InProcessTransport transport() {
    return transport;
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
    return "ctk in-process HTTP client factory for " + transport.masterUrl();
  }
}

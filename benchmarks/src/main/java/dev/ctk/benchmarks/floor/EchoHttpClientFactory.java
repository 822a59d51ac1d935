package dev.ctk.benchmarks.floor;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.util.concurrent.TimeUnit;

/**
 * The fabric8 {@link HttpClient.Factory} of one {@link EchoApiServer}. Not registered in {@code META-INF/services}:
 * it is passed to {@code KubernetesClientBuilder.withHttpClientFactory}. From a {@link Config} it applies what
 * matters without a network, as ctk's in-process transport does: the request settings and fabric8's own
 * interceptors (they are part of the client's cost being measured).
 */
final class EchoHttpClientFactory implements HttpClient.Factory {

  private final EchoApiServer server;

  EchoHttpClientFactory(EchoApiServer server) {
    this.server = server;
  }

  EchoApiServer server() {
    return server;
  }

  @Override
  public EchoHttpClientBuilder newBuilder() {
    return new EchoHttpClientBuilder(this);
  }

  @Override
  public HttpClient.Builder newBuilder(Config config) {
    EchoHttpClientBuilder builder = newBuilder();
    builder.tag(config.getRequestConfig());
    if (config.getConnectionTimeout() > 0) {
      builder.connectTimeout(config.getConnectionTimeout(), TimeUnit.MILLISECONDS);
    }
    HttpClientUtils.createApplicableInterceptors(config, this).forEach(builder::addOrReplaceInterceptor);
    return builder;
  }

  @Override
  public String toString() {
    return "ctk echo HTTP client factory for " + server.masterUrl();
  }
}

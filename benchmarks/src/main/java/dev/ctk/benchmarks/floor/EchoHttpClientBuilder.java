package dev.ctk.benchmarks.floor;

import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds {@link EchoHttpClient}s; TLS, proxy and redirect settings are kept as fabric8 sets them and ignored. A client
 * derived from another shares its closed flag and its watches.
 */
final class EchoHttpClientBuilder
    extends StandardHttpClientBuilder<EchoHttpClient, EchoHttpClientFactory, EchoHttpClientBuilder> {

  EchoHttpClientBuilder(EchoHttpClientFactory factory) {
    super(factory);
  }

  @Override
  protected EchoHttpClientBuilder newInstance(EchoHttpClientFactory factory) {
    return new EchoHttpClientBuilder(factory);
  }

  @Override
  public EchoHttpClient build() {
    if (client != null) {
      return new EchoHttpClient(this, client.getClosed(), client.watches());
    }
    return new EchoHttpClient(this, new AtomicBoolean(), new CopyOnWriteArrayList<>());
  }
}

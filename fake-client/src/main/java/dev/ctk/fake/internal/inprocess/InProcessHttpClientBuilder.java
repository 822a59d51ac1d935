package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds {@link InProcessHttpClient}s. TLS, proxy and redirect settings are kept as fabric8 sets them and ignored:
 * nothing goes over a network. A client derived from another ({@code HttpClient.newBuilder()}) shares its closed
 * flag and its watches, so closing the original closes what the derived ones opened.
 */
final class InProcessHttpClientBuilder
    extends StandardHttpClientBuilder<InProcessHttpClient, InProcessHttpClientFactory, InProcessHttpClientBuilder> {

  InProcessHttpClientBuilder(InProcessHttpClientFactory factory) {
    super(factory);
  }

  @Override
  protected InProcessHttpClientBuilder newInstance(InProcessHttpClientFactory factory) {
    return new InProcessHttpClientBuilder(factory);
  }

  @Override
  public InProcessHttpClient build() {
    if (client != null) {
      return new InProcessHttpClient(this, client.getClosed(), client.watches());
    }
    return new InProcessHttpClient(this, new AtomicBoolean(), new ClientWatches());
  }
}

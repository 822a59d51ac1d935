package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpClient;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.StandardWebSocketBuilder;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A fabric8 HTTP client whose requests its factory's {@link InProcessServer} answers without a socket (for the fake
 * cluster, its {@link InProcessTransport}). fabric8's {@link StandardHttpClient} around it keeps doing retries,
 * interceptors and body handling. Closing it closes every watch it opened; a closed client fails as fabric8's Vert.x
 * client does.
 */
final class InProcessHttpClient
    extends StandardHttpClient<InProcessHttpClient, InProcessHttpClientFactory, InProcessHttpClientBuilder> {

  /** How fabric8's Vert.x client fails a request or websocket on a closed client (Vert.x's own words). */
  static final String CLIENT_CLOSED = "Client is closed";

  private final ClientWatches watches;

  InProcessHttpClient(InProcessHttpClientBuilder builder, AtomicBoolean closed, ClientWatches watches) {
    super(builder, closed);
    this.watches = watches;
  }

  ClientWatches watches() {
    return watches;
  }

  private InProcessServer server() {
    return builder.getClientFactory().server();
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(StandardHttpRequest request,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (isClosed()) {
      throw new IllegalStateException(CLIENT_CLOSED);
    }
    return server().answer(request, consumer, watches);
  }

  @Override
  public CompletableFuture<WebSocketResponse> buildWebSocketDirect(StandardWebSocketBuilder webSocketBuilder,
      WebSocket.Listener listener) {
    if (isClosed()) {
      // as fabric8's Vert.x client answers (while its event loop is still there; after, it throws
      // RejectedExecutionException)
      return CompletableFuture.failedFuture(new IllegalStateException(CLIENT_CLOSED));
    }
    return server().openWebSocket(webSocketBuilder.asHttpRequest(), listener, watches);
  }

  @Override
  protected void doClose() {
    watches.closeAll();
  }
}

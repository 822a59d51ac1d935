package dev.ctk.benchmarks.floor;

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
 * A fabric8 HTTP client whose requests an {@link EchoApiServer} answers on the caller's thread, without a socket.
 * fabric8's {@link StandardHttpClient} around it keeps doing interceptors, retries and body handling. Closing it
 * closes the watches it (and the clients derived from it) opened.
 */
final class EchoHttpClient
    extends StandardHttpClient<EchoHttpClient, EchoHttpClientFactory, EchoHttpClientBuilder> {

  private final List<EchoWebSocket> watches;

  EchoHttpClient(EchoHttpClientBuilder builder, AtomicBoolean closed, List<EchoWebSocket> watches) {
    super(builder, closed);
    this.watches = watches;
  }

  List<EchoWebSocket> watches() {
    return watches;
  }

  private EchoApiServer server() {
    return builder.getClientFactory().server();
  }

  @Override
  public CompletableFuture<HttpResponse<AsyncBody>> consumeBytesDirect(StandardHttpRequest request,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    if (isClosed()) {
      throw new IllegalStateException("Client is closed");
    }
    return server().answer(request, consumer);
  }

  @Override
  public CompletableFuture<WebSocketResponse> buildWebSocketDirect(StandardWebSocketBuilder webSocketBuilder,
      WebSocket.Listener listener) {
    if (isClosed()) {
      return CompletableFuture.failedFuture(new IllegalStateException("Client is closed"));
    }
    return server().openWatch(webSocketBuilder.asHttpRequest(), listener, watches);
  }

  @Override
  protected void doClose() {
    for (EchoWebSocket socket : List.copyOf(watches)) {
      socket.sendClose(1000, "client closed");
    }
  }
}

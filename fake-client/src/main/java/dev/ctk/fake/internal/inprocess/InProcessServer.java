package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What answers the fabric8 clients of an {@link InProcessHttpClientFactory}: the fake cluster's
 * {@link InProcessTransport}, or another server behind the same fabric8 SPI (the benchmarks' floor, a server that does
 * no work). The factory's clients keep doing what belongs to fabric8's side: the closed check of a client, and
 * closing the watches a client opened when it closes.
 */
public interface InProcessServer {

  /**
   * The master URL the server's clients are configured with: a host under {@code .invalid}, which never resolves, so
   * a client built with it but without the server's factory fails at once instead of reaching another server.
   *
   * @return e.g. {@code http://ctk-fake-3.invalid}
   */
  String masterUrl();

  /**
   * Answers a request that is not a websocket upgrade.
   *
   * @param request the request as fabric8 built it
   * @param consumer where the body of the answer goes ({@link InProcessResponse#complete} hands it over)
   * @param watches the watches of the client that sent it (an HTTP-streaming watch is added there)
   * @return the answer, or a failure as a refused or dropped connection would give
   */
  CompletableFuture<HttpResponse<AsyncBody>> answer(StandardHttpRequest request,
      AsyncBody.Consumer<List<ByteBuffer>> consumer, ClientWatches watches);

  /**
   * Opens a websocket (a watch), or refuses the upgrade with an HTTP status.
   *
   * @param request the upgrade request
   * @param listener fabric8's listener, told {@code onOpen} before the answer completes
   * @param watches the watches of the client that sent it (the opened watch is added there)
   * @return the websocket, or the refused upgrade
   */
  CompletableFuture<WebSocketResponse> openWebSocket(StandardHttpRequest request, WebSocket.Listener listener,
      ClientWatches watches);
}

package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpHeaders;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * An HTTP-streaming watch answer without a socket: 200, then one JSON line per event. Each {@link #consume()} hands
 * every line queued at that moment to fabric8's consumer as one list (one buffer per line, each ending in
 * {@code \n}); {@link #done()} completes after the last line once the watch has ended.
 */
final class StreamingWatchBody extends WatchQueue implements HttpResponse<AsyncBody>, AsyncBody {

  private final HttpRequest request;
  private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
  private final StandardHttpHeaders headers = new StandardHttpHeaders(watchHeaders());
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  StreamingWatchBody(HttpRequest request, AsyncBody.Consumer<List<ByteBuffer>> consumer, Executor delivery) {
    super(delivery, 0);
    this.request = request;
    this.consumer = consumer;
  }

  private static Map<String, List<String>> watchHeaders() {
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("Content-Type", List.of("application/json"));
    headers.put("Cache-Control", List.of("no-cache, private"));
    headers.put("Transfer-Encoding", List.of("chunked"));
    return headers;
  }

  @Override
  int batchLimit() {
    return Integer.MAX_VALUE;
  }

  @Override
  void deliver(List<String> events) throws Exception {
    List<ByteBuffer> chunk = new ArrayList<>(events.size());
    for (String event : events) {
      chunk.add(ByteBuffer.wrap((event + "\n").getBytes(StandardCharsets.UTF_8)));
    }
    consumer.consume(chunk, this);
  }

  @Override
  void deliverClose() {
    done.complete(null);
  }

  @Override
  void deliverFailure(Exception failure) {
    done.completeExceptionally(failure);
  }

  @Override
  public void consume() {
    addDemand();
  }

  @Override
  public CompletableFuture<Void> done() {
    return done;
  }

  @Override
  public void cancel() {
    clientGone();
  }

  @Override
  public int code() {
    return 200;
  }

  @Override
  public AsyncBody body() {
    return this;
  }

  @Override
  public HttpRequest request() {
    return request;
  }

  @Override
  public Optional<HttpResponse<?>> previousResponse() {
    return Optional.empty();
  }

  @Override
  public List<String> headers(String key) {
    return headers.headers(key);
  }

  @Override
  public Map<String, List<String>> headers() {
    return headers.headers();
  }
}

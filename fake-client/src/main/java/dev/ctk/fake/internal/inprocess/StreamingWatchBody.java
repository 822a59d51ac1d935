package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The body of an HTTP-streaming watch answer without a socket (a 200 with {@link #headers()}): one JSON line per
 * event. Each {@link #consume()} hands every line queued at that moment to fabric8's consumer as one list (one
 * buffer per line, each ending in {@code \n}); {@link #done()} completes after the last line once the watch has
 * ended.
 */
final class StreamingWatchBody extends WatchQueue implements AsyncBody {

  private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  StreamingWatchBody(AsyncBody.Consumer<List<ByteBuffer>> consumer, WatchDelivery delivery) {
    super(delivery, 0);
    this.consumer = consumer;
  }

  /** The headers of the 200 that starts the stream. */
  static Map<String, List<String>> headers() {
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
}

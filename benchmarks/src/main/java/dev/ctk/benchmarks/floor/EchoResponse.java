package dev.ctk.benchmarks.floor;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.StandardHttpHeaders;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A complete answer of an {@link EchoApiServer}: status, headers, and the whole body handed to fabric8's consumer in
 * one buffer on the first {@link AsyncBody#consume()}.
 */
final class EchoResponse extends StandardHttpHeaders implements HttpResponse<AsyncBody> {

  private final HttpRequest request;
  private final int code;
  private final AsyncBody body;

  EchoResponse(HttpRequest request, int code, Map<String, List<String>> headers, byte[] bytes,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    super(headers);
    this.request = request;
    this.code = code;
    this.body = new WholeBody(bytes, consumer);
  }

  @Override
  public int code() {
    return code;
  }

  @Override
  public AsyncBody body() {
    return body;
  }

  @Override
  public HttpRequest request() {
    return request;
  }

  @Override
  public Optional<HttpResponse<?>> previousResponse() {
    return Optional.empty();
  }

  /** The body, delivered whole, once. */
  private static final class WholeBody implements AsyncBody {
    private final byte[] bytes;
    private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean delivered = new AtomicBoolean();

    WholeBody(byte[] bytes, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
      this.bytes = bytes;
      this.consumer = consumer;
    }

    @Override
    public void consume() {
      if (done.isDone() || !delivered.compareAndSet(false, true)) {
        return;
      }
      try {
        List<ByteBuffer> chunk = new ArrayList<>(1);
        chunk.add(ByteBuffer.wrap(bytes));
        consumer.consume(chunk, this);
        done.complete(null);
      } catch (Exception e) {
        done.completeExceptionally(e);
      }
    }

    @Override
    public CompletableFuture<Void> done() {
      return done;
    }

    @Override
    public void cancel() {
      done.cancel(false);
    }
  }
}

package dev.ctk.fake.internal.inprocess;

import io.fabric8.kubernetes.client.http.AsyncBody;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The whole body of a complete answer, handed to fabric8's consumer in one buffer on the first {@link #consume()}
 * (which fabric8 calls once it has the response, on its own side, never under the store lock).
 */
final class CompleteBody implements AsyncBody {

  private final byte[] bytes;
  private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final AtomicBoolean delivered = new AtomicBoolean();

  CompleteBody(byte[] bytes, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    this.bytes = bytes;
    this.consumer = consumer;
  }

  @Override
  public void consume() {
    if (done.isDone() || !delivered.compareAndSet(false, true)) {
      return;
    }
    try {
      if (bytes.length > 0) {
        List<ByteBuffer> chunk = new ArrayList<>(1);
        chunk.add(ByteBuffer.wrap(bytes));
        consumer.consume(chunk, this);
      }
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
